"""Opens an auth.bindTempAuthKey encrypted_message as core.telegram.org/method/auth.bindTempAuthKey describes it,
independently of our Swift code: MTProto 1.0's SHA-1 key derivation, Telethon's AES-256-IGE.

Usage: open_bind_message.py <permanent key hex> <encrypted_message hex>
Prints the plaintext's fields as JSON (msg_id, seq_no, msg_len, the bind_auth_key_inner fields) and whether msg_key
matched.
"""
import hashlib
import json
import struct
import sys

from telethon.crypto import AES


def sha1(*parts):
    return hashlib.sha1(b"".join(parts)).digest()


def main():
    key = bytes.fromhex(sys.argv[1])
    message = bytes.fromhex(sys.argv[2])
    key_id = struct.unpack("<q", sha1(key)[12:20])[0]
    named_key_id = struct.unpack("<q", message[0:8])[0]
    msg_key = message[8:24]
    x = 0
    a = sha1(msg_key, key[x:x + 32])
    b = sha1(key[32 + x:48 + x], msg_key, key[48 + x:64 + x])
    c = sha1(key[64 + x:96 + x], msg_key)
    d = sha1(msg_key, key[96 + x:128 + x])
    aes_key = a[0:8] + b[8:20] + c[4:16]
    aes_iv = a[8:20] + b[0:8] + c[16:20] + d[0:8]
    plain = AES.decrypt_ige(message[24:], aes_key, aes_iv)
    msg_id, seq_no, msg_len = struct.unpack("<qii", plain[16:32])
    inner = plain[32:32 + msg_len]
    constructor, nonce, temp_key_id, perm_key_id, temp_session_id, expires_at = struct.unpack("<Iqqqqi", inner)
    print(json.dumps({
        "key_id_matches": key_id == named_key_id,
        "msg_key_matches": sha1(plain[:32 + msg_len])[4:20] == msg_key,
        "padding": len(plain) - 32 - msg_len,
        "msg_id": msg_id, "seq_no": seq_no, "msg_len": msg_len,
        "constructor": "%08x" % constructor, "nonce": nonce, "temp_auth_key_id": temp_key_id,
        "perm_auth_key_id": perm_key_id, "temp_session_id": temp_session_id, "expires_at": expires_at,
    }))


if __name__ == "__main__":
    main()
