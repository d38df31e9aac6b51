"""Telethon 1.45.0 typing to one of our accounts, and watching it type back.

Signs up, finds the target by its number, writes "hi" (so the target knows this user), prints {"user_id": N} on a
line of its own, then says it is typing (messages.setTyping) every 2 seconds until it sees the target type back
(events.UserUpdate with a typing action) or --wait seconds pass; then writes "done" and prints the final report.

Usage: typing_peer.py --host H --port P --pem-file F --phone 99966XYYYY --target-phone 99966XYYYY [--wait S]
Prints two JSON lines on stdout; exits non-zero on any failure.
"""
import asyncio
import json
import time

from telethon import events, functions, types

from peer_client import connect, sign_up, peer_main, import_target


async def run(args):
    client = await connect(args.host, args.port, args.pem_file, args.phone)
    try:
        me = await sign_up(client, args.phone, "Tess")
        target = await import_target(client, args.target_phone)
        seen = asyncio.Event()
        actions = []

        @client.on(events.UserUpdate(chats=[target.id]))
        async def on_user_update(event):
            if event.typing:
                actions.append(type(event.action).__name__)
                seen.set()

        await client.send_message(target, "hi")
        print(json.dumps({"user_id": me.id}), flush=True)
        started = time.monotonic()
        while not seen.is_set() and time.monotonic() - started < args.wait:
            await client(functions.messages.SetTypingRequest(target, types.SendMessageTypingAction()))
            try:
                await asyncio.wait_for(seen.wait(), 2)
            except asyncio.TimeoutError:
                pass
        await client.send_message(target, "done")
        return {"saw_typing": seen.is_set(), "actions": actions}
    finally:
        await client.disconnect()


if __name__ == "__main__":
    peer_main(run)
