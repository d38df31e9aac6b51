"""Opens a signed help.configSimple blob as TDLib's decode_config (td/telegram/ConfigManager.cpp) does, written
independently of the Swift code: raw RSA with the public key (the `rsa` package Telethon uses), AES-256-CBC (pyaes),
the SHA-256 check, then the TL fields read by hand. Prints them as JSON.

    open_config_simple.py PEM_FILE BLOB_FILE
"""
import base64
import hashlib
import json
import struct
import sys

import pyaes
import rsa


def main():
    pem_path, blob_path = sys.argv[1], sys.argv[2]
    key = rsa.PublicKey.load_pkcs1(open(pem_path, "rb").read())
    text = open(blob_path).read()
    data = "".join(c for c in text if c.isascii() and (c.isalnum() or c in "+/="))
    assert len(data) == 344, len(data)
    signed = base64.b64decode(data)
    assert len(signed) == 256
    block = pow(int.from_bytes(signed, "big"), key.e, key.n).to_bytes(256, "big")
    aes_key, iv = block[:32], block[16:32]
    decrypter = pyaes.AESModeOfOperationCBC(aes_key, iv=iv)
    plain = b"".join(decrypter.decrypt(block[32 + i:48 + i]) for i in range(0, 224, 16))
    hash_ok = hashlib.sha256(plain[:208]).digest()[:16] == plain[208:]
    length = struct.unpack_from("<i", plain, 0)[0]
    # `rules:vector<AccessPointRule>` and `ips:vector<IpPort>` are bare vectors (lower-case `vector`): a count, no
    # vector constructor; their elements are boxed.
    constructor, date, expires, count = struct.unpack_from("<Iiii", plain, 4)
    offset = 20
    rules = []
    for _ in range(count):
        rule_id = struct.unpack_from("<I", plain, offset)[0]
        offset += 4
        # phone_prefix_rules: a TL string (one length byte when short)
        n = plain[offset]
        prefix = plain[offset + 1:offset + 1 + n].decode()
        offset += (1 + n + 3) // 4 * 4
        dc_id, ips_count = struct.unpack_from("<ii", plain, offset)
        offset += 8
        ips = []
        for _ in range(ips_count):
            ip_id, ipv4, port = struct.unpack_from("<Iii", plain, offset)
            offset += 12
            ip = ".".join(str((ipv4 >> s) & 0xFF) for s in (24, 16, 8, 0))
            ips.append({"constructor": "%08x" % ip_id, "ip": ip, "port": port})
        rules.append({"constructor": "%08x" % rule_id, "prefix": prefix, "dc_id": dc_id, "ips": ips})
    print(json.dumps({
        "hash_ok": hash_ok, "length": length, "end": offset, "constructor": "%08x" % constructor,
        "date": date, "expires": expires, "rules": rules,
    }))


if __name__ == "__main__":
    main()
