#ifndef AESNI_LIMIT_H
#define AESNI_LIMIT_H
#include <stddef.h>
#include <stdint.h>

/// Whether the CPU has AES-NI (the limit loop needs it).
int aesni_limit_available(void);

/// The latency limit of any chained AES-256 mode: `blocks` dependent single-block encryptions, each block's input
/// the previous block's output (x = E_k(x)), starting from `block` and leaving the last output there. The round keys
/// stay in registers and the initial AddRoundKey of the next block is folded into the last round's key, so the loop
/// is nothing but the 14 AES-NI rounds of one block after another: a block cannot start before the previous one has
/// left the AES unit, which is what IGE's chaining imposes on encryption and decryption alike.
void aesni_limit_dependent_encrypt(const uint8_t key[32], uint8_t block[16], size_t blocks);

#endif
