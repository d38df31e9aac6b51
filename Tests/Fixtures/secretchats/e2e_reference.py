#!/usr/bin/env python3
"""MTProto 2.0 end-to-end encryption as core.telegram.org "End-to-End Encryption, Secret Chats" describes it,
written from the docs for SecretChatsTests (hashlib; AES-256 from the `cryptography` package, IGE chained here).

    e2e_reference.py open KEY_HEX X MESSAGE_HEX          prints the payload (hex) or exits 1
    e2e_reference.py seal KEY_HEX X PAYLOAD_HEX PAD_HEX  prints the message (hex)

X is 0 for messages from the chat's originator, 8 for the other side's.
"""
import hashlib
import struct
import sys

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes


def ige(data, key, iv, encrypt):
    ecb = Cipher(algorithms.AES(key), modes.ECB())
    op = ecb.encryptor() if encrypt else ecb.decryptor()
    prev_x, prev_y = (iv[:16], iv[16:]) if encrypt else (iv[16:], iv[:16])
    out = b""
    for i in range(0, len(data), 16):
        block = data[i:i + 16]
        y = bytes(a ^ b for a, b in zip(op.update(bytes(a ^ b for a, b in zip(block, prev_x))), prev_y))
        prev_x, prev_y = y, block
        out += y
    return out


def key_iv(key, msg_key, x):
    a = hashlib.sha256(msg_key + key[x:x + 36]).digest()
    b = hashlib.sha256(key[40 + x:40 + x + 36] + msg_key).digest()
    return a[0:8] + b[8:24] + a[24:32], b[0:8] + a[8:24] + b[24:32]


def fingerprint(key):
    return hashlib.sha1(key).digest()[12:20]


def main():
    mode, key, x = sys.argv[1], bytes.fromhex(sys.argv[2]), int(sys.argv[3])
    if mode == "seal":
        payload, pad = bytes.fromhex(sys.argv[4]), bytes.fromhex(sys.argv[5])
        plain = struct.pack("<i", len(payload)) + payload + pad
        assert len(plain) % 16 == 0 and 12 <= len(pad) <= 1024
        msg_key = hashlib.sha256(key[88 + x:88 + x + 32] + plain).digest()[8:24]
        aes_key, aes_iv = key_iv(key, msg_key, x)
        print((fingerprint(key) + msg_key + ige(plain, aes_key, aes_iv, True)).hex())
    else:
        message = bytes.fromhex(sys.argv[4])
        if message[:8] != fingerprint(key):
            sys.exit("wrong fingerprint")
        msg_key = message[8:24]
        aes_key, aes_iv = key_iv(key, msg_key, x)
        plain = ige(message[24:], aes_key, aes_iv, False)
        if hashlib.sha256(key[88 + x:88 + x + 32] + plain).digest()[8:24] != msg_key:
            sys.exit("msg_key mismatch")
        (length,) = struct.unpack("<i", plain[:4])
        if not (0 < length <= len(plain) - 16 and 12 <= len(plain) - 4 - length <= 1024):
            sys.exit("bad length")
        print(plain[4:4 + length].hex())


main()
