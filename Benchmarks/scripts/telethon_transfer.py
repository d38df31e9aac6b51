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

from telethon import TelegramClient, functions, types
from telethon.crypto import aes, rsa
from telethon.sessions import MemorySession


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pem-file", required=True)
    parser.add_argument("--phone", required=True)
    parser.add_argument("--file", required=True)
    args = parser.parse_args()
    pem = open(args.pem_file).read()
    rsa.add_key(pem[: pem.index("-----END RSA PUBLIC KEY-----") + 28], old=False)
    session = MemorySession()
    session.set_dc(int(args.phone[5]), "127.0.0.1", args.port)
    client = TelegramClient(session, 1, "0" * 32, receive_updates=False)
    await client.connect()
    try:
        sent = await client.send_code_request(args.phone)
        try:
            await client.sign_in(args.phone, args.phone[5] * 5, phone_code_hash=sent.phone_code_hash)
        except Exception:
            result = await client(functions.auth.SignUpRequest(args.phone, sent.phone_code_hash, "Tess", ""))
            await client._on_login(result.user)

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
