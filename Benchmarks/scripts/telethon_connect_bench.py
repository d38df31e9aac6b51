"""Times Telethon 1.45.0's connect() against a running tg-server: TCP, auth key creation, invokeWithLayer +
initConnection + help.getConfig, and get_me (answered 401). Prints the median in milliseconds, and the process's CPU and wall seconds over all runs,
as JSON.

Usage: telethon_connect_bench.py --port P --pem-file F [--runs N]
"""
import argparse
import asyncio
import json
import statistics
import time

from telethon import TelegramClient
from telethon.crypto import rsa
from telethon.network import connection
from telethon.sessions import MemorySession


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pem-file", required=True)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    pem = open(args.pem_file).read()
    rsa.add_key(pem[: pem.index("-----END RSA PUBLIC KEY-----") + 28], old=False)
    times = []
    cpu_start = time.process_time()
    wall_start = time.perf_counter()
    for _ in range(args.runs):
        session = MemorySession()
        session.set_dc(2, "127.0.0.1", args.port)
        client = TelegramClient(session, 1, "0" * 32, connection=connection.ConnectionTcpAbridged,
                                receive_updates=False)
        start = time.perf_counter()
        await client.connect()
        times.append((time.perf_counter() - start) * 1000)
        await client.disconnect()
    cpu_seconds = time.process_time() - cpu_start
    wall_seconds = time.perf_counter() - wall_start
    print(json.dumps({"median_ms": statistics.median(times), "runs": len(times), "cpu_seconds": cpu_seconds,
                      "wall_seconds": wall_seconds}))


asyncio.run(main())
