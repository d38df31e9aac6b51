"""Telethon 1.45.0 joins by an invite link a kurigram client exported on tg-server (server_invite_link.py).

Bob waits for the link in HANDOFF/link.txt, checks it (checkChatInvite: the title), joins by its hash
(importChatInvite), reads the supergroup's pinned message (pinned_msg_id in channels.getFullChannel) and writes
HANDOFF/joined.txt for the kurigram script.

Usage: server_join_link.py --host H --port P --pem-file F --workdir DIR --handoff DIR [--tag T]
Prints one JSON object on stdout; exits non-zero on any failure.
"""
import asyncio
import os

from telethon import functions, types

from server_peer import load_key, make_client, script_main, sign_up


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


if __name__ == "__main__":
    script_main(run, lambda parser: parser.add_argument("--handoff", required=True))
