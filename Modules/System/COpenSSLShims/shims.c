#define OPENSSL_SUPPRESS_DEPRECATED 1
#include "COpenSSLShims.h"
#include <openssl/aes.h>
#include <openssl/crypto.h>
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#define HAVE_X86 1
#endif

// A process may end while a thread is still inside libcrypto (a packet decrypted as `tg` exits). OpenSSL's own atexit
// handler (OPENSSL_cleanup) frees its global locks, and such a thread then crashes on a freed lock (seen as SIGSEGV in
// pthread_rwlock_wrlock). The process is ending anyway, so that cleanup is turned off before anything else uses
// OpenSSL: OPENSSL_INIT_NO_ATEXIT (OpenSSL 1.1.1b and later, OPENSSL_init_crypto(3)).
__attribute__((constructor)) static void copenssl_skip_cleanup_at_exit(void) {
    OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, NULL);
}

int copenssl_bn_num_bytes(const BIGNUM *bn) { return BN_num_bytes(bn); }

int copenssl_aes_ige_reference(const uint8_t *in, uint8_t *out, size_t length, const uint8_t *key, int keyBits,
                               const uint8_t iv[32], int encrypt) {
    if (length % 16 != 0) return -1;
    if (keyBits != 128 && keyBits != 192 && keyBits != 256) return -1;
    AES_KEY schedule;
    uint8_t ivCopy[32];
    memcpy(ivCopy, iv, 32);
    if (encrypt) {
        AES_set_encrypt_key(key, keyBits, &schedule);
    } else {
        AES_set_decrypt_key(key, keyBits, &schedule);
    }
    AES_ige_encrypt(in, out, length, &schedule, ivCopy, encrypt ? AES_ENCRYPT : AES_DECRYPT);
    OPENSSL_cleanse(&schedule, sizeof(schedule));
    return 0;
}

#if HAVE_X86
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

// FIPS-197 §5.2 key expansion for 256-bit keys: 15 round keys.
__attribute__((target("aes,sse2"))) static void expand_key(const uint8_t key[32], __m128i rk[15]) {
    rk[0] = _mm_loadu_si128((const __m128i *)key);
    rk[1] = _mm_loadu_si128((const __m128i *)(key + 16));
#define ROUND_PAIR(i, rcon)                                                          \
    rk[i] = expand_even(rk[i - 2], _mm_aeskeygenassist_si128(rk[i - 1], rcon));      \
    if (i + 1 < 15) rk[i + 1] = expand_odd(rk[i - 1], rk[i]);
    ROUND_PAIR(2, 0x01)
    ROUND_PAIR(4, 0x02)
    ROUND_PAIR(6, 0x04)
    ROUND_PAIR(8, 0x08)
    ROUND_PAIR(10, 0x10)
    ROUND_PAIR(12, 0x20)
    rk[14] = expand_even(rk[12], _mm_aeskeygenassist_si128(rk[13], 0x40));
#undef ROUND_PAIR
}

// IGE's chain, block after block: cᵢ = E(mᵢ ⊕ cᵢ₋₁) ⊕ mᵢ₋₁ (decryption: mᵢ = D(cᵢ ⊕ mᵢ₋₁) ⊕ cᵢ₋₁). A block cannot
// start before the previous one has left the AES unit, so the speed limit is one block's 14 rounds of latency. To
// keep anything else off that chain, `z` holds the state entering round 1 (input ⊕ rk₀), and the three XORs that
// link block i to block i+1 (⊕ mᵢ₋₁ after the last round, ⊕ mᵢ₊₁, ⊕ rk₀) are folded into the key of block i's last
// round, which `aesenclast` XORs in anyway: zᵢ₊₁ = aesenclast(sᵢ, rk₁₄ ⊕ rk₀ ⊕ mᵢ₋₁ ⊕ mᵢ₊₁), a key computed from
// plaintext alone while the rounds run. The output block is then recovered off the chain: cᵢ = zᵢ₊₁ ⊕ mᵢ₊₁ ⊕ rk₀.
__attribute__((target("aes,sse2"))) static void ige_encrypt_aesni(const uint8_t *in, uint8_t *out, size_t length,
                                                                  const uint8_t key[32], const uint8_t iv[32]) {
    if (length == 0) return;
    __m128i rk[15];
    expand_key(key, rk);
    const __m128i lastThenFirst = _mm_xor_si128(rk[14], rk[0]);
    __m128i mPrev = _mm_loadu_si128((const __m128i *)(iv + 16));
    __m128i m = _mm_loadu_si128((const __m128i *)in);
    __m128i z = _mm_xor_si128(_mm_xor_si128(m, _mm_loadu_si128((const __m128i *)iv)), rk[0]);
    size_t offset = 0;
    for (; offset + 16 < length; offset += 16) {
        __m128i mNext = _mm_loadu_si128((const __m128i *)(in + offset + 16));
        __m128i link = _mm_xor_si128(lastThenFirst, _mm_xor_si128(mPrev, mNext));
        for (int r = 1; r < 14; r++) z = _mm_aesenc_si128(z, rk[r]);
        z = _mm_aesenclast_si128(z, link);
        _mm_storeu_si128((__m128i *)(out + offset), _mm_xor_si128(z, _mm_xor_si128(mNext, rk[0])));
        mPrev = m;
        m = mNext;
    }
    for (int r = 1; r < 14; r++) z = _mm_aesenc_si128(z, rk[r]);
    z = _mm_aesenclast_si128(z, _mm_xor_si128(rk[14], mPrev));
    _mm_storeu_si128((__m128i *)(out + offset), z);
    memset(rk, 0, sizeof(rk));
}

// The same folding for decryption: zᵢ = cᵢ ⊕ mᵢ₋₁ ⊕ dk₀, zᵢ₊₁ = aesdeclast(sᵢ, dk₁₄ ⊕ dk₀ ⊕ cᵢ₋₁ ⊕ cᵢ₊₁), and
// mᵢ = zᵢ₊₁ ⊕ cᵢ₊₁ ⊕ dk₀.
__attribute__((target("aes,sse2"))) static void ige_decrypt_aesni(const uint8_t *in, uint8_t *out, size_t length,
                                                                  const uint8_t key[32], const uint8_t iv[32]) {
    if (length == 0) return;
    __m128i rk[15], dk[15];
    expand_key(key, rk);
    dk[0] = rk[14];
    for (int r = 1; r < 14; r++) dk[r] = _mm_aesimc_si128(rk[14 - r]);
    dk[14] = rk[0];
    const __m128i lastThenFirst = _mm_xor_si128(dk[14], dk[0]);
    __m128i cPrev = _mm_loadu_si128((const __m128i *)iv);
    __m128i c = _mm_loadu_si128((const __m128i *)in);
    __m128i z = _mm_xor_si128(_mm_xor_si128(c, _mm_loadu_si128((const __m128i *)(iv + 16))), dk[0]);
    size_t offset = 0;
    for (; offset + 16 < length; offset += 16) {
        __m128i cNext = _mm_loadu_si128((const __m128i *)(in + offset + 16));
        __m128i link = _mm_xor_si128(lastThenFirst, _mm_xor_si128(cPrev, cNext));
        for (int r = 1; r < 14; r++) z = _mm_aesdec_si128(z, dk[r]);
        z = _mm_aesdeclast_si128(z, link);
        _mm_storeu_si128((__m128i *)(out + offset), _mm_xor_si128(z, _mm_xor_si128(cNext, dk[0])));
        cPrev = c;
        c = cNext;
    }
    for (int r = 1; r < 14; r++) z = _mm_aesdec_si128(z, dk[r]);
    z = _mm_aesdeclast_si128(z, _mm_xor_si128(dk[14], cPrev));
    _mm_storeu_si128((__m128i *)(out + offset), z);
    memset(rk, 0, sizeof(rk));
    memset(dk, 0, sizeof(dk));
}
#endif

int copenssl_has_aesni(void) {
#if HAVE_X86
    return __builtin_cpu_supports("aes") ? 1 : 0;
#else
    return 0;
#endif
}

int copenssl_aes256_ige(const uint8_t *in, uint8_t *out, size_t length, const uint8_t key[32], const uint8_t iv[32],
                        int encrypt) {
    if (length % 16 != 0) return -1;
#if HAVE_X86
    if (copenssl_has_aesni()) {
        if (encrypt) {
            ige_encrypt_aesni(in, out, length, key, iv);
        } else {
            ige_decrypt_aesni(in, out, length, key, iv);
        }
        return 0;
    }
#endif
    return copenssl_aes_ige_reference(in, out, length, key, 256, iv, encrypt);
}
