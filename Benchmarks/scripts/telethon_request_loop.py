"""Telethon 1.45.0 doing the request loop the mtproto-bench runs through our request service: `count` calls of
help.getNearestDc against a running tg-server, `concurrency` in flight at a time (asyncio.gather). Prints calls per
second and the process's CPU seconds over the loop as JSON. With --batch, each group of `concurrency` calls is
one list invoke, `client([r1, …, rN])`, which Telethon sends together (one container) and answers as a list: its
own batch call, compared with our `requestBatch`.

Usage: telethon_request_loop.py --port P --pem-file F [--count N] [--concurrency C] [--batch]
"""
import argparse
import asyncio
import json
import time

from telethon import TelegramClient, functions
from telethon.crypto import rsa
from telethon.network import connection
from telethon.sessions import MemorySession


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pem-file", required=True)
    parser.add_argument("--count", type=int, default=5000)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--batch", action="store_true")
    args = parser.parse_args()
    pem = open(args.pem_file).read()
    rsa.add_key(pem[: pem.index("-----END RSA PUBLIC KEY-----") + 28], old=False)
    session = MemorySession()
    session.set_dc(2, "127.0.0.1", args.port)
    client = TelegramClient(session, 1, "0" * 32, connection=connection.ConnectionTcpAbridged, receive_updates=False)
    await client.connect()
    done = 0
    cpu_start = time.process_time()
    start = time.perf_counter()
    while done < args.count:
        batch = min(args.concurrency, args.count - done)
        if args.batch:
            answers = await client([functions.help.GetNearestDcRequest() for _ in range(batch)])
        else:
            answers = await asyncio.gather(*(client(functions.help.GetNearestDcRequest()) for _ in range(batch)))
        assert len(answers) == batch and all(a.nearest_dc for a in answers), "a call went unanswered"
        done += batch
    seconds = time.perf_counter() - start
    cpu_seconds = time.process_time() - cpu_start
    await client.disconnect()
    print(json.dumps({"calls": done, "seconds": seconds, "per_second": done / seconds, "cpu_seconds": cpu_seconds}))


asyncio.run(main())
