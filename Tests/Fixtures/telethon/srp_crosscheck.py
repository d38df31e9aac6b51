"""Telethon 1.45.0's two-step verification (telethon/password.py) over values from our PasswordSRP.

Reads one JSON object per line on stdin:
  {"password", "salt1", "salt2", "g", "p", "srp_B", "srp_id", "a_stream", "wrong_password"}
(bytes as hex). For each it builds a types.account.Password with current_algo = (salt1, salt2, g, p) and
srp_B/srp_id — serialized and parsed back through Telethon's TL first — and prints one JSON object per line:
  "hash":     compute_hash(algo, password)          (PH2, x)
  "digest":   compute_digest(algo, password)        (v, the new_password_hash a client sends)
  "fixed":    compute_check(...) with os.urandom fed from a_stream: {"A", "M1", "used"} (bytes of the stream read)
  "free":     compute_check(...) with the real os.urandom: {"A", "M1"}
  "wrong":    compute_check(...) with wrong_password and the real os.urandom: {"A", "M1"}
Exits non-zero on any failure.
"""
import json
import os
import sys

import telethon
from telethon import password as pwd
from telethon.extensions import BinaryReader
from telethon.tl import types


class Stream:
    """os.urandom replacement that hands out a fixed byte string in order and counts what it gave."""

    def __init__(self, data: bytes):
        self.data = data
        self.used = 0

    def __call__(self, n: int) -> bytes:
        if self.used + n > len(self.data):
            raise RuntimeError("a_stream exhausted after %d bytes" % self.used)
        out = self.data[self.used:self.used + n]
        self.used += n
        return out


def check(request, password, urandom=None):
    real = os.urandom
    if urandom is not None:
        os.urandom = urandom
    try:
        result = pwd.compute_check(request, password)
    finally:
        os.urandom = real
    assert result.srp_id == request.srp_id
    return {"A": result.A.hex(), "M1": result.M1.hex()}


def main():
    assert telethon.__version__ == "1.45.0", telethon.__version__
    for line in sys.stdin:
        if not line.strip():
            continue
        case = json.loads(line)
        algo = types.PasswordKdfAlgoSHA256SHA256PBKDF2HMACSHA512iter100000SHA256ModPow(
            salt1=bytes.fromhex(case["salt1"]), salt2=bytes.fromhex(case["salt2"]), g=case["g"],
            p=bytes.fromhex(case["p"]))
        request = types.account.Password(
            new_algo=algo, new_secure_algo=types.SecurePasswordKdfAlgoUnknown(), secure_random=os.urandom(32),
            has_password=True, current_algo=algo, srp_B=bytes.fromhex(case["srp_B"]), srp_id=case["srp_id"])
        request = BinaryReader(bytes(request)).tgread_object()
        assert isinstance(request, types.account.Password)
        algo = request.current_algo
        stream = Stream(bytes.fromhex(case["a_stream"]))
        fixed = check(request, case["password"], stream)
        fixed["used"] = stream.used
        print(json.dumps({
            "hash": pwd.compute_hash(algo, case["password"]).hex(),
            "digest": pwd.compute_digest(algo, case["password"]).hex(),
            "fixed": fixed,
            "free": check(request, case["password"]),
            "wrong": check(request, case["wrong_password"]),
        }), flush=True)


if __name__ == "__main__":
    main()
