"""Writes srp_known_answer.json: one SRP transcript of core.telegram.org "Two-factor authentication" computed with
Python's hashlib and built-in pow only (no Telethon, no OpenSSL big numbers), for PasswordSRPTests.

Run: python3 Tests/Fixtures/vectors/srp_known_answer.py > Tests/Fixtures/vectors/srp_known_answer.json
"""
import hashlib
import json

P = int(
    "c71caeb9c6b1c9048e6c522f70f13f73980d40238e3e21c14934d037563d930f48198a0aa7c14058229493d22530f4dbfa336f6e0ac925"
    "139543aed44cce7c3720fd51f69458705ac68cd4fe6b6b13abdc9746512969328454f18faf8c595f642477fe96bb2a941d5bcd1d4ac8cc49"
    "880708fa9b378e3c4f3a9060bee67cf9a4a4a695811051907e162753b56b0f6b410dba74d8a84b2a14b3144e0ef1284754fd17ed950d59"
    "65b4b9dd46582db1178d169c6bc465b0d6ff9ca3928fef5b9ae4e418fc15e83ebea0f87fa9ff5eed70050ded2849f47bf959d956850ce9"
    "29851f0d8115f635b105ee2e4e15d04b2454bf6f4fadf034b10403119cd8e3b92fcc5b", 16)
G = 3


def H(*parts):
    return hashlib.sha256(b"".join(parts)).digest()


def SH(data, salt):
    return H(salt, data, salt)


def PH1(password, salt1, salt2):
    return SH(SH(password, salt1), salt2)


def PH2(password, salt1, salt2):
    return SH(hashlib.pbkdf2_hmac("sha512", PH1(password, salt1, salt2), salt1, 100000), salt2)


def n(value):
    return value.to_bytes(256, "big")


def expand(label):
    """256 fixed bytes: SHA-256(label | i) for i = 0…7."""
    return b"".join(hashlib.sha256(label + bytes([i])).digest() for i in range(8))


kdf = []
for password, salt1, salt2 in [
    (b"", b"", b""),
    ("hunter2".encode(), bytes.fromhex("4c0b1e8a5f2d6e77"), bytes.fromhex("9a7d3c1b00ff11ee22dd33cc44bb55aa")),
    ("пароль 🔑".encode(), bytes(range(40)), bytes(range(100, 116))),
]:
    kdf.append({"password": password.hex(), "salt1": salt1.hex(), "salt2": salt2.hex(),
                "ph1": PH1(password, salt1, salt2).hex(), "ph2": PH2(password, salt1, salt2).hex()})

password, salt1, salt2 = "hunter2", bytes.fromhex(kdf[1]["salt1"]), bytes.fromhex(kdf[1]["salt2"])
x = int.from_bytes(PH2(password.encode(), salt1, salt2), "big")
v = pow(G, x, P)
a_bytes, b_bytes = expand(b"srp a"), expand(b"srp b")
a, b = int.from_bytes(a_bytes, "big"), int.from_bytes(b_bytes, "big")
k = int.from_bytes(H(n(P), n(G)), "big")
B = (k * v + pow(G, b, P)) % P
A = pow(G, a, P)
u = int.from_bytes(H(n(A), n(B)), "big")
S = pow((B - k * v) % P, a + u * x, P)
assert S == pow(A * pow(v, u, P) % P, b, P)  # the server's s_b
bound = 2 ** (2048 - 64)
for value in (A, B, pow(G, b, P), (B - k * v) % P):
    assert bound <= value <= P - bound  # so neither side redraws a or b
M1 = H(bytes(i ^ j for i, j in zip(H(n(P)), H(n(G)))), H(salt1), H(salt2), n(A), n(B), H(n(S)))

print(json.dumps({
    "source": "Tests/Fixtures/vectors/srp_known_answer.py (hashlib and pow, the page's formulas)",
    "kdf": kdf,
    "transcript": {"password": password, "salt1": salt1.hex(), "salt2": salt2.hex(), "g": G, "p": n(P).hex(),
                   "a": a_bytes.hex(), "b": b_bytes.hex(), "v": n(v).hex(), "B": n(B).hex(), "A": n(A).hex(),
                   "M1": M1.hex()},
}, indent=1))
