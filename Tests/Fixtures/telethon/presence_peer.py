"""Telethon 1.45.0 watching one of our accounts come online and go offline, and being seen the same way.

Signs up, finds the target by its number (so the target is its contact), writes "hi" (so the target has a chat with
it and is told of its status), prints {"user_id": N} on a line of its own, then says it is online
(account.updateStatus offline=false). Waits (at most --wait seconds each) for events.UserUpdate from the target saying
online, then offline (its last_seen kept), reads the target's status again with users.getFullUser and prints
{"full_status": its type}, says it is offline, then waits until the target hides its time (users.getFullUser says
UserStatusRecently, polled every 0.3 s) and prints the report: {"online": bool, "offline": bool, "last_seen": unix time or null, "full_status": the status type
after going offline, "hidden_status": the status type once hidden}.

Usage: presence_peer.py --host H --port P --pem-file F --phone 99966XYYYY --target-phone 99966XYYYY [--wait S]
Prints three JSON lines on stdout; exits non-zero on any failure (a wait that times out included).
"""
import asyncio
import json
import time

from telethon import events, functions, types

from peer_client import connect, sign_up, peer_main, import_target


async def full_status(client, target):
    full = await client(functions.users.GetFullUserRequest(target))
    return next(user for user in full.users if user.id == target.id).status


async def run(args):
    client = await connect(args.host, args.port, args.pem_file, args.phone)
    try:
        me = await sign_up(client, args.phone, "Pia")
        target = await import_target(client, args.target_phone)
        online = asyncio.Event()
        offline = asyncio.Event()
        last_seen = []

        @client.on(events.UserUpdate(chats=[target.id]))
        async def on_user_update(event):
            if isinstance(event.status, types.UserStatusOnline):
                online.set()
            elif isinstance(event.status, types.UserStatusOffline) and online.is_set():
                last_seen.append(int(event.status.was_online.timestamp()))
                offline.set()

        await client.send_message(target, "hi")
        print(json.dumps({"user_id": me.id}), flush=True)
        await client(functions.account.UpdateStatusRequest(offline=False))
        await asyncio.wait_for(online.wait(), args.wait)
        await asyncio.wait_for(offline.wait(), args.wait)
        after = await full_status(client, target)
        print(json.dumps({"full_status": type(after).__name__}), flush=True)
        await client(functions.account.UpdateStatusRequest(offline=True))
        started = time.monotonic()
        hidden = after
        while not isinstance(hidden, types.UserStatusRecently):
            if time.monotonic() - started > args.wait:
                raise TimeoutError("the target's time never became hidden: %r" % hidden)
            await asyncio.sleep(0.3)
            hidden = await full_status(client, target)
        return {
            "online": online.is_set(), "offline": offline.is_set(), "last_seen": last_seen[0] if last_seen else None,
            "full_status": type(after).__name__, "hidden_status": type(hidden).__name__,
        }
    finally:
        await client.disconnect()


if __name__ == "__main__":
    peer_main(run)
