#include "aesni_limit.h"

#if defined(__x86_64__)
#include <immintrin.h>

__attribute__((target("aes,sse2"))) static inline __m128i expand_even(__m128i key, __m128i assist) {
    assist = _mm_shuffle_epi32(assist, 0xff);
    key = _mm_xor_si128(key, _mm_slli_si128(key, 4));
    key = _mm_xor_si128(key, _mm_slli_si128(key, 4));
    key = _mm_xor_si128(key, _mm_slli_si128(key, 4));
    return _mm_xor_si128(key, assist);
}

__attribute__((target("aes,sse2"))) static inline __m128i expand_odd(__m128i key, __m128i previous) {
    __m128i assist = _mm_shuffle_epi32(_mm_aeskeygenassist_si128(previous, 0x00), 0xaa);
    key = _mm_xor_si128(key, _mm_slli_si128(key, 4));
    key = _mm_xor_si128(key, _mm_slli_si128(key, 4));
    key = _mm_xor_si128(key, _mm_slli_si128(key, 4));
    return _mm_xor_si128(key, assist);
}

// FIPS-197 §5.2 key expansion for 256-bit keys (the same steps as the product's shim, kept separate so the limit
// does not share code with what it bounds).
__attribute__((target("aes,sse2"))) static void expand_key(const uint8_t key[32], __m128i rk[15]) {
    rk[0] = _mm_loadu_si128((const __m128i *)key);
    rk[1] = _mm_loadu_si128((const __m128i *)(key + 16));
    rk[2] = expand_even(rk[0], _mm_aeskeygenassist_si128(rk[1], 0x01));
    rk[3] = expand_odd(rk[1], rk[2]);
    rk[4] = expand_even(rk[2], _mm_aeskeygenassist_si128(rk[3], 0x02));
    rk[5] = expand_odd(rk[3], rk[4]);
    rk[6] = expand_even(rk[4], _mm_aeskeygenassist_si128(rk[5], 0x04));
    rk[7] = expand_odd(rk[5], rk[6]);
    rk[8] = expand_even(rk[6], _mm_aeskeygenassist_si128(rk[7], 0x08));
    rk[9] = expand_odd(rk[7], rk[8]);
    rk[10] = expand_even(rk[8], _mm_aeskeygenassist_si128(rk[9], 0x10));
    rk[11] = expand_odd(rk[9], rk[10]);
    rk[12] = expand_even(rk[10], _mm_aeskeygenassist_si128(rk[11], 0x20));
    rk[13] = expand_odd(rk[11], rk[12]);
    rk[14] = expand_even(rk[12], _mm_aeskeygenassist_si128(rk[13], 0x40));
}

int aesni_limit_available(void) { return __builtin_cpu_supports("aes") ? 1 : 0; }

__attribute__((target("aes,sse2"))) void aesni_limit_dependent_encrypt(const uint8_t key[32], uint8_t block[16],
                                                                       size_t blocks) {
    if (blocks == 0) return;
    __m128i rk[15];
    expand_key(key, rk);
    // z holds x ⊕ rk0, the state entering round 1; the next block's AddRoundKey rides on this block's last round.
    const __m128i lastThenFirst = _mm_xor_si128(rk[14], rk[0]);
    __m128i z = _mm_xor_si128(_mm_loadu_si128((const __m128i *)block), rk[0]);
    for (size_t i = 1; i < blocks; i++) {
        for (int r = 1; r < 14; r++) z = _mm_aesenc_si128(z, rk[r]);
        z = _mm_aesenclast_si128(z, lastThenFirst);
    }
    for (int r = 1; r < 14; r++) z = _mm_aesenc_si128(z, rk[r]);
    z = _mm_aesenclast_si128(z, rk[14]);
    _mm_storeu_si128((__m128i *)block, z);
}
#else
int aesni_limit_available(void) { return 0; }
void aesni_limit_dependent_encrypt(const uint8_t key[32], uint8_t block[16], size_t blocks) {
    (void)key; (void)block; (void)blocks;
}
#endif
