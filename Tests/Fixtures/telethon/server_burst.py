"""A burst of sends that tg-server is killed in the middle of, and the check afterwards.

--phase burst: Alice and Bob sign up; Alice sends messages from 16 concurrent tasks until the connection dies,
printing "ACK <text>" (flushed) for every message the server answered. Exits non-zero when the server goes away.
--phase verify: Alice reconnects (same session, the DCs' new ports) and prints Bob's chat with her as JSON.

Usage: server_burst.py --host H --port P --pem-file F --workdir DIR --phase burst|verify [--dc-ports 1=P,2=P,3=P]
"""
import argparse
import logging
import asyncio
import json
import os
import sys

from telethon import TelegramClient, functions
from telethon.sessions import SQLiteSession

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_chat import load_key, sign_up  # noqa: E402


def client_for(args, name, retries):
    session = SQLiteSession(os.path.join(args.workdir, name))
    if session.auth_key and args.dc_ports:
        session.set_dc(session.dc_id, args.host, args.dc_ports[session.dc_id])
    else:
        session.set_dc(2, args.host, args.port)
    return TelegramClient(session, api_id=1, api_hash="0" * 32, connection_retries=retries, retry_delay=1,
                          auto_reconnect=retries > 0, timeout=10, receive_updates=False)


async def burst(args):
    alice, bob = client_for(args, "alice", 5), client_for(args, "bob", 5)
    await alice.connect()
    await bob.connect()
    await sign_up(alice, "9996620101", "Alice")
    await sign_up(bob, "9996620102", "Bob")
    await bob(functions.account.UpdateUsernameRequest("bob_burst"))
    await bob.disconnect()
    peer = await alice.get_input_entity("@bob_burst")
    counter = iter(range(10 ** 9))

    async def sender():
        while True:
            text = "burst %d" % next(counter)
            await alice.send_message(peer, text)
            print("ACK", text, flush=True)

    # From here a lost connection ends the burst (Telethon would otherwise keep reconnecting to the killed server).
    alice._sender._auto_reconnect = False
    print("READY", flush=True)
    await asyncio.gather(*(sender() for _ in range(16)))


async def verify(args):
    alice = client_for(args, "alice", 5)
    print("verify: connecting", file=sys.stderr, flush=True)
    await alice.connect()
    try:
        print("verify: connected, authorized=%s" % await alice.is_user_authorized(), file=sys.stderr, flush=True)
        dialog = next(d for d in await alice.get_dialogs() if d.is_user)
        # wait_time=0: Telethon otherwise sleeps 1 s between pages once a read may pass 3,000 messages.
        messages = await alice.get_messages(dialog.entity, limit=None, wait_time=0)
        print("verify: read %d messages" % len(messages), file=sys.stderr, flush=True)
        print(json.dumps({"texts": [m.raw_text for m in reversed(messages)]}))
    finally:
        await alice.disconnect()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pem-file", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--phase", choices=["burst", "verify"], required=True)
    parser.add_argument("--dc-ports", default="")
    args = parser.parse_args()
    args.dc_ports = {int(k): int(v) for k, v in (item.split("=") for item in args.dc_ports.split(",") if item)}
    load_key(args)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    # A stuck step says where it stuck instead of waiting for the test's time limit.
    asyncio.run(burst(args) if args.phase == "burst" else asyncio.wait_for(verify(args), 100))


if __name__ == "__main__":
    main()
