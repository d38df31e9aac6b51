"""Telethon 1.45.0 joins by an invite link a kurigram client exported on tg-server (server_invite_link.py).

Bob waits for the link in HANDOFF/link.txt, checks it (checkChatInvite: the title), joins by its hash
(importChatInvite), reads the supergroup's pinned message (pinned_msg_id in channels.getFullChannel) and writes
HANDOFF/joined.txt for the kurigram script.

Usage: server_join_link.py --host H --port P --pem-file F --workdir DIR --handoff DIR [--tag T]
Prints one JSON object on stdout; exits non-zero on any failure.
"""
import argparse
import asyncio
import json
import logging
import os

from telethon import TelegramClient, errors, functions, types
from telethon.crypto import rsa
from telethon.sessions import SQLiteSession

WAIT = 20


def code_for(phone):
    return phone[5] * 5


async def sign_up(client, phone, first_name):
    sent = await client.send_code_request(phone)
    try:
        await client.sign_in(phone, code_for(phone), phone_code_hash=sent.phone_code_hash)
        raise RuntimeError("a new number signed in without signing up")
    except errors.PhoneNumberUnoccupiedError:
        pass
    result = await client(functions.auth.SignUpRequest(phone, sent.phone_code_hash, first_name, ""))
    return await client._on_login(result.user)


def make_client(args, name):
    session = SQLiteSession(os.path.join(args.workdir, name))
    session.set_dc(2, args.host, args.port)
    return TelegramClient(session, api_id=1, api_hash="0" * 32, connection_retries=5, retry_delay=1, timeout=30)


HANDOFF_WAIT = 90


async def run(args):
    load_key(args)
    bob = make_client(args, "bob")
    await bob.connect()
    report = {}
    try:
        await sign_up(bob, "99966241" + args.tag, "Bob")
        path = os.path.join(args.handoff, "link.txt")
        deadline = asyncio.get_running_loop().time() + HANDOFF_WAIT
        while not os.path.exists(path):
            if asyncio.get_running_loop().time() > deadline:
                raise TimeoutError("no link within %d s" % HANDOFF_WAIT)
            await asyncio.sleep(0.2)
        with open(path) as f:
            link = f.read().strip()
        invite_hash = link.rsplit("/", 1)[-1].lstrip("+")
        checked = await bob(functions.messages.CheckChatInviteRequest(invite_hash))
        report["checked"] = [type(checked).__name__, checked.title]
        joined = await bob(functions.messages.ImportChatInviteRequest(invite_hash))
        updates = getattr(joined, "updates", joined)
        channel = next(c for c in updates.chats if isinstance(c, types.Channel))
        report["joined"] = [channel.title, bool(channel.megagroup)]
        full = await bob(functions.channels.GetFullChannelRequest(channel))
        pinned = await bob.get_messages(channel, ids=full.full_chat.pinned_msg_id)
        report["pinned"] = pinned.raw_text if pinned else None
        with open(os.path.join(args.handoff, "joined.txt"), "w") as f:
            f.write("joined")
    finally:
        await bob.disconnect()
    return report


def load_key(args):
    with open(args.pem_file) as f:
        pem = f.read()
    end = "-----END RSA PUBLIC KEY-----"
    rsa.add_key(pem[: pem.index(end) + len(end)], old=False)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pem-file", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--handoff", required=True)
    parser.add_argument("--tag", default="01")
    args = parser.parse_args()
    if os.environ.get("TELETHON_DEBUG"):
        logging.basicConfig(level=logging.DEBUG)
    print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    main()
