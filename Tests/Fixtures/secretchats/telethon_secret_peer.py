#!/usr/bin/env python3
"""Telethon 1.45 with PyPI's telethon-secret-chat 0.2.4 as the other party of a secret chat with our client, on
tg-server (SecretChatTelethonTests). Signs up PHONE, then either starts a secret chat with @PEER (--start) or waits
to accept one (auto_accept). Every decrypted text is printed as `RECEIVED <text>`; on receiving "ping N" it answers
"pong N" in the chat. Exits after --seconds.

    telethon_secret_peer.py --port P --pem-file F --phone 99966XYYYY [--start USERNAME] [--seconds 30]
"""
import argparse
import asyncio
import logging

from telethon import TelegramClient, functions
from telethon.crypto import rsa
from telethon.sessions import MemorySession
from telethon_secret_chat import SecretChatManager


async def sign_up(port, phone, name):
    session = MemorySession()
    session.set_dc(2, "127.0.0.1", port)
    client = TelegramClient(session, api_id=1, api_hash="0" * 32, connection_retries=5)
    await client.connect()
    sent = await client.send_code_request(phone)
    try:
        await client.sign_in(phone, phone[5] * 5, phone_code_hash=sent.phone_code_hash)
    except Exception:
        result = await client(functions.auth.SignUpRequest(phone, sent.phone_code_hash, name, ""))
        await client._on_login(result.user)
    return client


async def main(args):
    pem = open(args.pem_file).read()
    rsa.add_key(pem[: pem.index("-----END RSA PUBLIC KEY-----") + 28], old=False)
    client = await sign_up(args.port, args.phone, "Telethon")
    print("READY", flush=True)
    manager = SecretChatManager(client, auto_accept=True)

    async def on_message(event):
        text = event.decrypted_event.message
        print("RECEIVED", text, flush=True)
        if text.startswith("ping "):
            await manager.send_secret_message(event.message.chat_id, "pong " + text[5:])
            print("SENT pong " + text[5:], flush=True)

    async def on_created(chat, created_by_me):
        print("CHAT", chat.id, "started" if created_by_me else "accepted", flush=True)

    manager.add_secret_event_handler(func=on_message)
    manager.new_chat_created = on_created
    if args.start:
        chat_id = await manager.start_secret_chat(args.start)
        print("REQUESTED", chat_id, flush=True)
    await asyncio.sleep(args.seconds)
    await client.disconnect()


parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
parser.add_argument("--pem-file", required=True)
parser.add_argument("--phone", required=True)
parser.add_argument("--start")
parser.add_argument("--seconds", type=float, default=30)
logging.basicConfig(level=logging.ERROR)
asyncio.run(main(parser.parse_args()))
