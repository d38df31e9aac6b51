"""kurigram 2.2.26 exports an invite link on tg-server that a Telethon client joins by (server_join_link.py).

Alice (kurigram) makes a private supergroup, pins its rules with pin_chat_message and makes a link with
create_chat_invite_link (a name and a member limit); she hands the link over in HANDOFF/link.txt and waits for
HANDOFF/joined.txt, written by the Telethon script once Bob joined. Then she lists who joined through the link
(get_chat_invite_link_joiners, get_chat_invite_link_joiners_count) and reads the pinned message back with get_chat.

Usage: server_invite_link.py --host H --ports 1=P,2=P,3=P --pem-file F --workdir DIR --handoff DIR [--tag T]
Prints one JSON object on stdout; exits non-zero on any failure.
"""
import argparse
import asyncio
import json
import logging
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_chat import WAIT, make_client, sign_up, trust_key  # noqa: E402 (Tests/Fixtures/kurigram)

HANDOFF_WAIT = 90


async def run(args):
    trust_key(args.pem_file)
    alice = make_client(args, "alice")
    report = {}
    try:
        await sign_up(alice, "99966240" + args.tag, "Alice")
        group = await alice.create_supergroup("Kuri club", "joined by link")
        rules = await alice.send_message(group.id, "club rules")
        service = await alice.pin_chat_message(group.id, rules.id, disable_notification=True)
        report["pin_service"] = service is not None and service.pinned_message is not None
        link = await alice.create_chat_invite_link(group.id, name="for telethon", member_limit=5)
        report["link"] = [link.invite_link.startswith("https://t.me/+"), link.name, str(link.member_limit)]
        temporary = os.path.join(args.handoff, "link.tmp")
        with open(temporary, "w") as f:
            f.write(link.invite_link)
        os.rename(temporary, os.path.join(args.handoff, "link.txt"))

        deadline = asyncio.get_running_loop().time() + HANDOFF_WAIT
        joined = os.path.join(args.handoff, "joined.txt")
        while not os.path.exists(joined):
            if asyncio.get_running_loop().time() > deadline:
                raise TimeoutError("the Telethon client did not join within %d s" % HANDOFF_WAIT)
            await asyncio.sleep(0.2)

        joiners = [j async for j in alice.get_chat_invite_link_joiners(group.id, link.invite_link)]
        report["joiners"] = [j.user.first_name for j in joiners]
        report["joiners_count"] = await alice.get_chat_invite_link_joiners_count(group.id, link.invite_link)
        chat = await alice.get_chat(group.id)
        report["pinned"] = chat.pinned_message.text if chat.pinned_message else None
        report["members"] = chat.members_count
    finally:
        if alice.is_connected:
            try:
                await asyncio.wait_for(alice.stop(), WAIT)
            except Exception as error:
                print("stopping alice: %r" % (error,), file=sys.stderr)
    return report


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", required=True)
    parser.add_argument("--ports", required=True, help="1=P,2=P,3=P")
    parser.add_argument("--pem-file", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--handoff", required=True)
    parser.add_argument("--tag", default="01")
    args = parser.parse_args()
    args.ports = {int(dc): int(port) for dc, port in (item.split("=") for item in args.ports.split(","))}
    os.chdir(args.workdir)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    main()
