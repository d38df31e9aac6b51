#!/usr/bin/env python3
"""Telethon 1.45 with PyPI's telethon-secret-chat 0.2.4 as the other party of a secret chat with our client, on
tg-server (SecretChatTelethonTests). Signs up PHONE, then either starts a secret chat with @PEER (--start) or waits
to accept one (auto_accept). Every decrypted text is printed as `RECEIVED <text>`; on receiving "ping N" it answers
"pong N" in the chat. Exits after --seconds.

    telethon_secret_peer.py --port P --pem-file F --phone 99966XYYYY [--start USERNAME] [--seconds 30] [--chatty]
"""
import argparse
import asyncio
import logging
import sys

from telethon import TelegramClient, events, functions, types
from telethon.crypto import rsa
from telethon.sessions import MemorySession
from telethon_secret_chat import SecretChatManager
from telethon_secret_chat import secret_methods


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


def answer_every_message_with_a_layer_notice():
    """The plugin sends a layer notice for every message it receives once its chat is 15 s old — but it measures the
    age from the time its module was imported (a default argument), so in a slow run it does so from the start.
    This makes every run that slow run: each chat counts as created at the epoch."""
    original = secret_methods.SecretChat.__init__

    def init(self, *args, **kwargs):
        kwargs.setdefault("created", 0)
        original(self, *args, **kwargs)

    secret_methods.SecretChat.__init__ = init


async def main(args):
    if args.chatty:
        answer_every_message_with_a_layer_notice()
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

    # Every encrypted update as it arrives (before the plugin decrypts it), so a failure tells "never came" from
    # "came and was not shown".
    @client.on(events.Raw(types.UpdateNewEncryptedMessage))
    async def on_raw(update):
        print("UPDATE encrypted qts", update.qts, flush=True)

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
parser.add_argument("--chatty", action="store_true", help="answer every message with a layer notice")
# Errors (a handler's exception included) and the plugin's own log go to standard output, which the test shows.
logging.basicConfig(level=logging.ERROR, stream=sys.stdout)
logging.getLogger("telethon.secret_chat").setLevel(logging.DEBUG)
asyncio.run(main(parser.parse_args()))
