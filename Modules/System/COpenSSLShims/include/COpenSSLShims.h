// Wrappers for what Swift cannot import from OpenSSL (function-like macros), and AES-256-IGE.
//
// IGE is serial, so its speed is bounded by the latency of one AES block. OpenSSL's AES_ige_encrypt runs on the
// table-based AES_encrypt; here, when the CPU has AES-NI, each block goes through the AES instructions directly,
// and otherwise the OpenSSL routine is used. Both give identical output (checked by CryptoUtilsTests).
#ifndef COPENSSL_SHIMS_H
#define COPENSSL_SHIMS_H
#include <stddef.h>
#include <stdint.h>
#include <openssl/bn.h>

/// BN_num_bytes (a macro): the number of bytes of |a|.
int copenssl_bn_num_bytes(const BIGNUM *bn);

/// Whether the AES-NI path is in use.
int copenssl_has_aesni(void);

/// AES-256-IGE over |length| bytes (a multiple of 16); |iv| is 32 bytes (c_{-1} then m_{-1}); encrypt != 0 to
/// encrypt. Uses AES-NI when available. Returns 0 on success, -1 when length is not a multiple of 16.
int copenssl_aes256_ige(const uint8_t *in, uint8_t *out, size_t length, const uint8_t key[32], const uint8_t iv[32],
                        int encrypt);

/// AES-IGE through OpenSSL's AES_ige_encrypt only, for 128-, 192- or 256-bit keys (the reference the AES-NI path
/// is checked against, and the path for the shorter keys of OpenSSL's own test vectors).
int copenssl_aes_ige_reference(const uint8_t *in, uint8_t *out, size_t length, const uint8_t *key, int keyBits,
                               const uint8_t iv[32], int encrypt);
#endif
