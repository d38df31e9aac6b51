"""Telethon 1.45.0 blocking one of our accounts, then being blocked by it.

Signs up, finds the target by its number, writes "hi", blocks the target (contacts.block) and reads its block list
(contacts.getBlocked), printing {"user_id": N, "blocked": [ids]} on a line of its own. Then waits (at most --wait
seconds, polling users.getUsers every 0.3 s) until the target's status reads UserStatusEmpty — the target blocked it
back, so it sees the target never online — unblocks the target, tries to write to it and prints the report:
{"status": the status type seen, "send_error": the error's class name or null, "unblocked": the block list after
unblocking}.

Usage: block_peer.py --host H --port P --pem-file F --phone 99966XYYYY --target-phone 99966XYYYY [--wait S]
Prints two JSON lines on stdout; exits non-zero on any failure (a wait that times out included).
"""
import asyncio
import json
import time

from telethon import errors, functions, types

from peer_client import connect, sign_up, peer_main, import_target


async def blocked_ids(client):
    answer = await client(functions.contacts.GetBlockedRequest(offset=0, limit=100))
    return [entry.peer_id.user_id for entry in answer.blocked]


async def run(args):
    client = await connect(args.host, args.port, args.pem_file, args.phone)
    try:
        me = await sign_up(client, args.phone, "Bo")
        target = await import_target(client, args.target_phone)
        await client.send_message(target, "hi")
        await client(functions.contacts.BlockRequest(id=target))
        print(json.dumps({"user_id": me.id, "blocked": await blocked_ids(client)}), flush=True)
        started = time.monotonic()
        while True:
            user = (await client(functions.users.GetUsersRequest([target])))[0]
            if isinstance(user.status, types.UserStatusEmpty) or user.status is None:
                break
            if time.monotonic() - started > args.wait:
                raise TimeoutError("the target never blocked us: its status is %r" % user.status)
            await asyncio.sleep(0.3)
        await client(functions.contacts.UnblockRequest(id=target))
        send_error = None
        try:
            await client.send_message(target, "still there?")
        except errors.RPCError as error:
            send_error = type(error).__name__
        return {
            "status": type(user.status).__name__, "send_error": send_error,
            "unblocked": await blocked_ids(client),
        }
    finally:
        await client.disconnect()


if __name__ == "__main__":
    peer_main(run)
