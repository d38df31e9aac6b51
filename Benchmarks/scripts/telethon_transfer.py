"""Telethon 1.45.0 (with cryptg) moving the file transfer-bench moves: signs in (or up) a test user, times an
upload, sends the result to itself as a document, then times the download of that message into a file, and checks the
downloaded bytes.

Two setups, chosen by --parallel:
  0 (default)  Telethon's own loops: client.upload_file (one part at a time) and client.download_media.
  N > 0        its fastest setup written with its own raw API, as the community's parallel-transfer recipes do:
               upload.saveBigFilePart / saveFilePart and upload.getFile with 512 KB parts, N in flight
               (asyncio), the file written in order — the same part size and parallelism as ours.

Usage: telethon_transfer.py --port P --pem-file F --phone 99966XYYYY --file PATH [--parallel N]
Prints {"upload_seconds": s, "download_seconds": s, "upload_cpu_seconds": s, "download_cpu_seconds": s, "bytes": n,
"sha256": hex, "cryptg": bool} as JSON; the CPU seconds are this process's own (user + system), the server being
another process.
"""
import argparse
import asyncio
import hashlib
import json
import os
import random
import resource
import time

from telethon import functions, types, utils
from telethon.crypto import aes

from bench_client import connect

PART = 512 * 1024
BIG_FILE = 10 * 1024 * 1024


def cpu_seconds():
    """This process's CPU time so far, user and system."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def upload_parallel(client, path, in_flight):
    """The file as InputFile / InputFileBig, its 512 KB parts sent `in_flight` at a time."""
    size = os.path.getsize(path)
    parts = (size + PART - 1) // PART
    file_id = random.getrandbits(63)
    big = size > BIG_FILE
    digest = None if big else hashlib.md5()
    gate = asyncio.Semaphore(in_flight)

    async def send(index, data):
        async with gate:
            if big:
                request = functions.upload.SaveBigFilePartRequest(file_id, index, parts, data)
            else:
                request = functions.upload.SaveFilePartRequest(file_id, index, data)
            assert await client(request), "part %d refused" % index

    tasks = []
    with open(path, "rb") as source:
        for index in range(parts):
            data = source.read(PART)
            if digest:
                digest.update(data)
            tasks.append(asyncio.ensure_future(send(index, data)))
            # Never more than 2 × in_flight parts read ahead of the network.
            while sum(not t.done() for t in tasks) >= 2 * in_flight:
                await asyncio.wait([t for t in tasks if not t.done()], return_when=asyncio.FIRST_COMPLETED)
    await asyncio.gather(*tasks)
    name = os.path.basename(path)
    if big:
        return types.InputFileBig(file_id, parts, name)
    return types.InputFile(file_id, parts, name, digest.hexdigest())


async def download_parallel(client, message, path, in_flight):
    """The message's document into `path`, 512 KB windows fetched `in_flight` at a time, written in order."""
    document = message.document
    location = types.InputDocumentFileLocation(document.id, document.access_hash, document.file_reference, "")
    windows = (document.size + PART - 1) // PART
    gate = asyncio.Semaphore(in_flight)

    async def fetch(index):
        async with gate:
            answer = await client(functions.upload.GetFileRequest(location, index * PART, PART, precise=False))
            return answer.bytes

    with open(path, "wb") as target:
        pending = {}
        next_index = 0
        for index in range(windows):
            pending[index] = asyncio.ensure_future(fetch(index))
            while len(pending) >= 2 * in_flight or (index == windows - 1 and pending):
                target.write(await pending.pop(next_index))
                next_index += 1


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pem-file", required=True)
    parser.add_argument("--phone", required=True)
    parser.add_argument("--file", required=True)
    parser.add_argument("--parallel", type=int, default=0)
    args = parser.parse_args()
    client = await connect(args.port, args.pem_file, args.phone)
    try:
        start, start_cpu = time.perf_counter(), cpu_seconds()
        if args.parallel:
            uploaded = await upload_parallel(client, args.file, args.parallel)
        else:
            uploaded = await client.upload_file(args.file)
        upload_seconds, upload_cpu = time.perf_counter() - start, cpu_seconds() - start_cpu

        message = await client.send_file("me", uploaded, force_document=True)
        target = args.file + ".telethon"
        start, start_cpu = time.perf_counter(), cpu_seconds()
        if args.parallel:
            await download_parallel(client, message, target, args.parallel)
        else:
            await client.download_media(message, file=target)
        download_seconds, download_cpu = time.perf_counter() - start, cpu_seconds() - start_cpu
        digest = hashlib.sha256()
        with open(target, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                digest.update(chunk)
        size = os.path.getsize(target)
        os.remove(target)
        print(json.dumps({
            "upload_seconds": upload_seconds, "download_seconds": download_seconds,
            "upload_cpu_seconds": upload_cpu, "download_cpu_seconds": download_cpu, "bytes": size,
            "sha256": digest.hexdigest(), "cryptg": aes.cryptg is not None,
        }))
    finally:
        await client.disconnect()


asyncio.run(main())
