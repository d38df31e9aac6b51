"""Telethon 1.45.0 (with cryptg, its fastest setup) receiving the channel difference channel-bench's subscriber
catches up with, kept running between channel-bench's interleaved rounds: signs in as a subscriber (a second
authorization, with the test number's code), then answers each command by calling updates.getChannelDifference from
the given pts with the given limit until the answer is final, as Telethon's own catch-up does for a channel, timing
that loop (the network, and Telethon's parsing into objects). The posts it received ("post …" messages) are counted
and hashed like channel-bench's own: SHA-256 over "id text\\n" lines in id order.

Usage: telethon_channel_difference.py --serve --port P --pem-file F --phone 99966XYYYY. One JSON command per line on
stdin, {"channel_id": n, "access_hash": n, "pts": n, "limit": n}, one JSON line per answer on stdout: {"seconds": s,
"output": "<n> posts, sha256 <hex>", "requests": n}; exits non-zero if the server answers anything but
channelDifference / channelDifferenceEmpty.
"""
import hashlib
import time

from telethon import functions, types

from bench_client import serve_as


async def difference(client, command):
    channel = types.InputChannel(command["channel_id"], command["access_hash"])
    pts = command["pts"]
    posts = []
    requests = 0
    start = time.perf_counter()
    while True:
        answer = await client(functions.updates.GetChannelDifferenceRequest(
            channel=channel, filter=types.ChannelMessagesFilterEmpty(), pts=pts, limit=command.get("limit", 100)))
        requests += 1
        if isinstance(answer, types.updates.ChannelDifference):
            posts += [(m.id, m.message) for m in answer.new_messages
                      if isinstance(m, types.Message) and m.message.startswith("post ")]
            pts = answer.pts
            if answer.final:
                break
        elif isinstance(answer, types.updates.ChannelDifferenceEmpty):
            break
        else:
            raise SystemExit("unexpected answer: %s" % type(answer).__name__)
    seconds = time.perf_counter() - start
    digest = hashlib.sha256("".join("%d %s\n" % post for post in sorted(posts)).encode()).hexdigest()
    return {"seconds": seconds, "output": "%d posts, sha256 %s" % (len(posts), digest), "requests": requests}


serve_as(difference)
