"""cryptg 0.6.0's side of tl-bench's AES rows: AES-256-IGE with cryptg.encrypt_ige / decrypt_ige.

Usage: cryptg_ige_bench.py --serve. Reads one JSON command per line on stdin and answers each with one JSON line
(BenchmarkSupport's PeerProcess), so tl-bench interleaves its rounds with ours:
  {"op": "load", "path": P, "key": HEX, "iv": HEX}  reads the plaintext from P (tl-bench writes the same bytes it
                                                    encrypts itself); answers {"bytes": N}
  {"op": "encrypt"} / {"op": "decrypt"}             one timed run over the whole plaintext (decrypt: over its
                                                    ciphertext); answers {"seconds": S, "sha256": HEX of the output}
Each run returns a fresh bytes object, which is cryptg's only API; the Swift side's row that is compared with it
allocates a fresh array per run too.
"""
import hashlib
import json
import sys
import time

import cryptg


def serve():
    data = key = iv = ciphertext = None
    for line in sys.stdin:
        command = json.loads(line)
        if command["op"] == "load":
            with open(command["path"], "rb") as source:
                data = source.read()
            key, iv = bytes.fromhex(command["key"]), bytes.fromhex(command["iv"])
            ciphertext = cryptg.encrypt_ige(data, key, iv)
            answer = {"bytes": len(data)}
        elif command["op"] in ("encrypt", "decrypt"):
            function, source = ((cryptg.encrypt_ige, data) if command["op"] == "encrypt"
                                else (cryptg.decrypt_ige, ciphertext))
            start = time.perf_counter()
            result = function(source, key, iv)
            seconds = time.perf_counter() - start
            answer = {"seconds": seconds, "sha256": hashlib.sha256(result).hexdigest()}
        else:
            answer = {"error": "unknown op %r" % command["op"]}
        print(json.dumps(answer), flush=True)


def main():
    if sys.argv[1:] != ["--serve"]:
        print(__doc__.strip())
        sys.exit(0 if sys.argv[1:] in (["-h"], ["--help"]) else 2)
    serve()


if __name__ == "__main__":
    main()
