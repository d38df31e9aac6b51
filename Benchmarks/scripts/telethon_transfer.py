"""Telethon 1.45.0 (with cryptg, its fastest setup) moving the file transfer-bench moves: signs up a new user, times
client.upload_file (Telethon's part loop), sends the result to itself as a document, then times client.download_media
of that message into a file, and checks the downloaded bytes.

Usage: telethon_transfer.py --port P --pem-file F --phone 99966XYYYY --file PATH
Prints {"upload_seconds": s, "download_seconds": s, "bytes": n, "sha256": hex, "cryptg": bool} as JSON.
"""
import argparse
import asyncio
import hashlib
import json
import os
import time

from telethon.crypto import aes

from bench_client import connect


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pem-file", required=True)
    parser.add_argument("--phone", required=True)
    parser.add_argument("--file", required=True)
    args = parser.parse_args()
    client = await connect(args.port, args.pem_file, args.phone)
    try:
        start = time.perf_counter()
        uploaded = await client.upload_file(args.file)
        upload_seconds = time.perf_counter() - start

        message = await client.send_file("me", uploaded, force_document=True)
        target = args.file + ".telethon"
        start = time.perf_counter()
        await client.download_media(message, file=target)
        download_seconds = time.perf_counter() - start
        digest = hashlib.sha256()
        with open(target, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                digest.update(chunk)
        size = os.path.getsize(target)
        os.remove(target)
        print(json.dumps({
            "upload_seconds": upload_seconds, "download_seconds": download_seconds, "bytes": size,
            "sha256": digest.hexdigest(), "cryptg": aes.cryptg is not None,
        }))
    finally:
        await client.disconnect()


asyncio.run(main())
