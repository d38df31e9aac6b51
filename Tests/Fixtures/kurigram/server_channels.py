"""kurigram 2.2.26 (a Pyrogram-family client: `import pyrogram`) in a supergroup on tg-server.

Alice makes a supergroup with create_supergroup, gives it a username with set_chat_username and writes in it; Bob
joins it by that username with join_chat, reads its history with get_chat_history, and both see each other's next
messages live. A broadcast channel made with create_channel carries Alice's post to Bob, who joined it too, without an
author. Connection and key set-up as in server_chat.py.

Usage: server_channels.py --host H --ports 1=P,2=P,3=P --pem-file F --workdir DIR [--tag T]
Prints one JSON object on stdout; exits non-zero on any failure.
"""
import argparse
import asyncio
import json
import logging
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_chat import WAIT, make_client, sign_up, trust_key, watch  # noqa: E402 (Tests/Fixtures/kurigram)


async def run(args):
    trust_key(args.pem_file)
    alice_phone, bob_phone = "99966230" + args.tag, "99966231" + args.tag
    alice, bob = make_client(args, "alice"), make_client(args, "bob")
    report = {}
    try:
        await sign_up(alice, alice_phone, "Alice")
        me_bob = await sign_up(bob, bob_phone, "Bob")
        alice_inbox, bob_inbox = watch(alice), watch(bob)

        group = await alice.create_supergroup("Kuri group", "a supergroup")
        group_name = "kuri_" + args.tag
        report["username_set"] = await alice.set_chat_username(group.id, group_name)
        for n in range(3):
            await alice.send_message(group.id, "before %d" % n)

        joined = await bob.join_chat(group_name)
        report["joined"] = [type(joined).__name__, getattr(getattr(joined, "chat", None), "id", None) == group.id]
        history = [m async for m in bob.get_chat_history(group.id, limit=10)]
        report["history"] = [m.text for m in reversed(history) if m.text]
        report["history_ids"] = [m.id for m in reversed(history)]
        report["type"] = group.type.name

        await alice.send_message(group.id, "live from alice")
        got = await bob_inbox.wait("new", lambda m: m.text == "live from alice")
        report["bob_got"] = [got.chat.id == group.id, got.from_user.first_name]
        await bob.send_message(group.id, "live from bob")
        got = await alice_inbox.wait("new", lambda m: m.text == "live from bob")
        report["alice_got"] = [got.chat.id == group.id, got.from_user.id == me_bob.id]

        channel = await alice.create_channel("Kuri news", "posts")
        news_name = "kurinews_" + args.tag
        await alice.set_chat_username(channel.id, news_name)
        await bob.join_chat(news_name)
        await alice.send_message(channel.id, "a post")
        got = await bob_inbox.wait("new", lambda m: m.text == "a post")
        report["post"] = [got.chat.id == channel.id, got.from_user is None, got.sender_chat is not None and got.sender_chat.id == channel.id]
    finally:
        for client in (alice, bob):
            if client.is_connected:
                try:
                    await asyncio.wait_for(client.stop(), WAIT)
                except Exception as error:
                    print("stopping %s: %r" % (client.name, error), file=sys.stderr)
    return report


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", required=True)
    parser.add_argument("--ports", required=True, help="1=P,2=P,3=P")
    parser.add_argument("--pem-file", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--tag", default="01")
    args = parser.parse_args()
    args.ports = {int(dc): int(port) for dc, port in (item.split("=") for item in args.ports.split(","))}
    os.chdir(args.workdir)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    main()
