"""Telethon 1.45.0 receiving the difference core-bench's account catches up with: signs in as the same user (a second
authorization, with the test number's code), then calls updates.getDifference from the given state through every
slice, as Telethon's own catch-up does, and times that loop (the network, and Telethon's parsing into objects).

Usage: telethon_difference.py --port P --pem-file F --phone 99966XYYYY --pts N --date N --qts N
Prints {"messages": n, "slices": n, "seconds": s} as JSON.
"""
import argparse
import asyncio
import json
import time

from telethon import functions, types

from bench_client import connect


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pem-file", required=True)
    parser.add_argument("--phone", required=True)
    parser.add_argument("--pts", type=int, required=True)
    parser.add_argument("--date", type=int, required=True)
    parser.add_argument("--qts", type=int, default=0)
    args = parser.parse_args()
    client = await connect(args.port, args.pem_file, args.phone)
    pts, date, qts = args.pts, args.date, args.qts
    messages = slices = 0
    start = time.perf_counter()
    while True:
        difference = await client(functions.updates.GetDifferenceRequest(pts=pts, date=date, qts=qts))
        slices += 1
        if isinstance(difference, types.updates.DifferenceSlice):
            messages += len(difference.new_messages)
            state = difference.intermediate_state
            pts, date, qts = state.pts, state.date, state.qts
        elif isinstance(difference, types.updates.Difference):
            messages += len(difference.new_messages)
            break
        else:
            break
    seconds = time.perf_counter() - start
    await client.disconnect()
    print(json.dumps({"messages": messages, "slices": slices, "seconds": seconds}))


asyncio.run(main())
