"""Telethon 1.45.0 (with cryptg, its fastest setup) receiving the channel difference channel-bench's subscriber
catches up with: signs in as the same user (a second authorization, with the test number's code), then calls
updates.getChannelDifference from the given pts with the given limit until the answer is final, as Telethon's own
catch-up does for a channel, and times that loop (the network, and Telethon's parsing into objects). The posts it
received ("post …" messages) are counted and hashed like channel-bench's own: SHA-256 over "id text\\n" lines in id
order.

Usage: telethon_channel_difference.py --port P --pem-file F --phone 99966XYYYY --channel-id N --access-hash N --pts N
                                      [--limit 100]
Prints {"messages": n, "requests": n, "seconds": s, "checksum": hex} as JSON; exits non-zero if the server answers
anything but channelDifference / channelDifferenceEmpty.
"""
import argparse
import asyncio
import hashlib
import json
import time

from telethon import functions, types

from bench_client import connect


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pem-file", required=True)
    parser.add_argument("--phone", required=True)
    parser.add_argument("--channel-id", type=int, required=True)
    parser.add_argument("--access-hash", type=int, required=True)
    parser.add_argument("--pts", type=int, required=True)
    parser.add_argument("--limit", type=int, default=100)
    args = parser.parse_args()
    client = await connect(args.port, args.pem_file, args.phone)
    channel = types.InputChannel(args.channel_id, args.access_hash)
    pts = args.pts
    posts = []
    requests = 0
    start = time.perf_counter()
    while True:
        difference = await client(functions.updates.GetChannelDifferenceRequest(
            channel=channel, filter=types.ChannelMessagesFilterEmpty(), pts=pts, limit=args.limit))
        requests += 1
        if isinstance(difference, types.updates.ChannelDifference):
            posts += [(m.id, m.message) for m in difference.new_messages
                      if isinstance(m, types.Message) and m.message.startswith("post ")]
            pts = difference.pts
            if difference.final:
                break
        elif isinstance(difference, types.updates.ChannelDifferenceEmpty):
            break
        else:
            raise SystemExit("unexpected answer: %s" % type(difference).__name__)
    seconds = time.perf_counter() - start
    await client.disconnect()
    digest = hashlib.sha256("".join("%d %s\n" % post for post in sorted(posts)).encode()).hexdigest()
    print(json.dumps({"messages": len(posts), "requests": requests, "seconds": seconds, "checksum": digest}))


asyncio.run(main())
