"""Telethon 1.45.0's side of send-bench: signs up, finds the target by its number, then
1. sends --latency-count messages one at a time (20 more first, to warm up), timing each messages.sendMessage call
   from the request to its answer;
2. sends --burst messages one after another (each awaited, so they arrive in order), timing the whole burst.

Usage: telethon_send.py --port P --pem-file F --phone 99966XYYYY --target-phone 99966XYYYY [--latency-count N] [--burst N]
Prints {"latency_p50": s, "latency_p99": s, "burst_seconds": s} as JSON.
"""
import asyncio
import json
import random
import time

from telethon import functions

from bench_client import bench_arguments, connect, find_target


async def main():
    parser = bench_arguments()
    parser.add_argument("--latency-count", type=int, default=300)
    parser.add_argument("--burst", type=int, default=1000)
    args = parser.parse_args()
    client = await connect(args.port, args.pem_file, args.phone)
    target = await find_target(client, args.target_phone)

    samples = []
    for number in range(args.latency_count + 20):
        started = time.perf_counter()
        await client(functions.messages.SendMessageRequest(
            peer=target, message="latency %d" % number, random_id=random.getrandbits(63)))
        if number >= 20:
            samples.append(time.perf_counter() - started)
    samples.sort()

    started = time.perf_counter()
    for number in range(args.burst):
        await client(functions.messages.SendMessageRequest(
            peer=target, message="burst %d" % number, random_id=random.getrandbits(63)))
    burst_seconds = time.perf_counter() - started
    await client.disconnect()
    print(json.dumps({
        "latency_p50": samples[len(samples) // 2],
        "latency_p99": samples[min(len(samples) - 1, len(samples) * 99 // 100)],
        "burst_seconds": burst_seconds,
    }))


asyncio.run(main())
