"""Telethon 1.45.0 writing to one of our accounts for core-bench's live latency: signs up, finds the target by its
number, then sends --count messages ("live N") --interval seconds apart, recording the wall-clock time just before
each send.

Usage: telethon_live_sender.py --port P --pem-file F --phone 99966XYYYY --target-phone 99966XYYYY [--count N]
Prints {"user_id": id, "sent_at": {"live 0": t, ...}} as JSON.
"""
import asyncio
import json
import time

from telethon import functions

from bench_client import bench_arguments, connect, find_target


async def main():
    parser = bench_arguments()
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--interval", type=float, default=0.02)
    args = parser.parse_args()
    client = await connect(args.port, args.pem_file, args.phone)
    me = await client.get_me()
    target = await find_target(client, args.target_phone)
    sent_at = {}
    for number in range(args.count):
        text = "live %d" % number
        sent_at[text] = time.time()
        await client(functions.messages.SendMessageRequest(peer=target, message=text, random_id=number + 1))
        await asyncio.sleep(args.interval)
    await client.disconnect()
    print(json.dumps({"user_id": me.id, "sent_at": sent_at}))


asyncio.run(main())
