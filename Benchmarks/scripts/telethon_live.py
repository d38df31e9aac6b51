"""Telethon 1.45.0 (with cryptg when installed) on both ends of core-bench's live delivery, kept running between
core-bench's interleaved rounds. One process per role:

- `--role sender`: signs in (or up) and answers {"send": n, "prefix": text, "to": phone, "interval": s} by sending
  n messages ("<prefix>0", "<prefix>1", …) to the account with that number, one at a time, `interval` seconds apart,
  with {"sent_at": {text: wall-clock time just before the send}}. {"whoami": true} answers {"user_id": id}.
- `--role receiver`: signs in (or up) with updates on, as a Telethon application runs, and records the wall-clock
  time its `events.NewMessage` handler sees each incoming text; {"arrivals": [texts], "timeout": s} answers, once
  every text has arrived, {"arrived_at": {text: time}} (or {"error": …} after the timeout).

Usage: telethon_live.py --serve --role sender|receiver --port P --pem-file F --phone 99966XYYYY. One JSON command per
line on stdin, one JSON line per answer on stdout.
"""
import argparse
import asyncio
import time

from telethon import events, functions

from bench_client import connect, find_target, serve_commands


async def sender(client, command, targets):
    if command.get("whoami"):
        me = await client.get_me()
        return {"user_id": me.id}
    phone = command["to"]
    if phone not in targets:
        targets[phone] = await find_target(client, phone)
    sent_at = {}
    for number in range(command["send"]):
        text = "%s%d" % (command["prefix"], number)
        sent_at[text] = time.time()
        await client(functions.messages.SendMessageRequest(
            peer=targets[phone], message=text, random_id=time.time_ns() & ((1 << 62) - 1)))
        await asyncio.sleep(command.get("interval", 0.02))
    return {"sent_at": sent_at}


async def receiver(arrived, command):
    deadline = time.monotonic() + command.get("timeout", 30)
    texts = command["arrivals"]
    while not all(text in arrived for text in texts):
        if time.monotonic() > deadline:
            return {"error": "%d of %d messages arrived" % (sum(text in arrived for text in texts), len(texts))}
        await asyncio.sleep(0.005)
    return {"arrived_at": {text: arrived.pop(text) for text in texts}}


async def serve(args):
    client = await connect(args.port, args.pem_file, args.phone, receive_updates=args.role == "receiver")
    arrived = {}
    if args.role == "receiver":
        @client.on(events.NewMessage(incoming=True))
        async def handler(event):
            arrived.setdefault(event.raw_text, time.time())

        # Telethon starts following the update state once it knows it (what a signed-in application has).
        await client.get_me()
        await client.catch_up()
    targets = {}
    await serve_commands(
        client,
        lambda command: sender(client, command, targets) if args.role == "sender" else receiver(arrived, command))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--serve", action="store_true", required=True)
    parser.add_argument("--role", choices=["sender", "receiver"], required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pem-file", required=True)
    parser.add_argument("--phone", required=True)
    asyncio.run(serve(parser.parse_args()))


main()
