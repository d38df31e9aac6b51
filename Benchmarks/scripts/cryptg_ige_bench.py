"""cryptg 0.6.0's side of tl-bench's AES rows: AES-256-IGE over 16 MiB with cryptg.encrypt_ige / decrypt_ige.

Usage: cryptg_ige_bench.py KEY_HEX IV_HEX SAMPLE_HEX. Prints one JSON object: seconds per 16 MiB encrypt and decrypt
(median of 5 runs after a warm-up, as BenchmarkSupport.measure) and the encryption of SAMPLE under KEY and IV, so the
Swift side can check that both compute the same IGE before comparing speeds.
"""
import json
import os
import sys
import time

import cryptg


def median_seconds(function, *arguments):
    function(*arguments)
    times = []
    for _ in range(5):
        start = time.perf_counter()
        function(*arguments)
        times.append(time.perf_counter() - start)
    return sorted(times)[2]


def main():
    if len(sys.argv) != 4 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        sys.exit(0 if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help") else 2)
    key, iv, sample = (bytes.fromhex(argument) for argument in sys.argv[1:])
    data = os.urandom(16 << 20)
    ciphertext = cryptg.encrypt_ige(data, key, iv)
    print(json.dumps({
        "encrypt_seconds": median_seconds(cryptg.encrypt_ige, data, key, iv),
        "decrypt_seconds": median_seconds(cryptg.decrypt_ige, ciphertext, key, iv),
        "bytes": len(data),
        "sample_hex": cryptg.encrypt_ige(sample, key, iv).hex(),
    }))


if __name__ == "__main__":
    main()
