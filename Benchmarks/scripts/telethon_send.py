"""Telethon 1.45.0's side of send-bench (with cryptg when installed, its fastest documented setup), kept running
between send-bench's interleaved rounds: signs in (or up), finds the target by its number, then answers each command
on stdin (one JSON line) with one JSON line on stdout:

- {"latency": n, "prefix": p}: sends n messages ("<p>0", …) one at a time, timing each messages.sendMessage call from
  the request to its answer; answers {"seconds": p50, "p99": s, "output": text}.
- {"burst": n, "prefix": p}: sends n messages one after another (each awaited, so they arrive in order), as a
  `send_message` loop does; answers {"seconds": the whole burst, "output": text}.

The output says how many messages the server acknowledged and whether their ids, in order, carry the texts in the
order sent — the same text send-bench makes from what our account stored.

Usage: telethon_send.py --serve --port P --pem-file F --phone 99966XYYYY --target-phone 99966XYYYY
"""
import asyncio
import random
import time

from telethon import functions, types

from bench_client import bench_arguments, connect, find_target, serve_commands


def sent_id(answer):
    """The new message's id in sendMessage's answer (updateShortSentMessage, or the updateNewMessage it carries)."""
    if isinstance(answer, types.UpdateShortSentMessage):
        return answer.id
    for update in getattr(answer, "updates", []):
        if isinstance(update, types.UpdateNewMessage):
            return update.message.id
    return None


def describe(prefix, count, acknowledged):
    """What send-bench prints for its own side: the count, and whether the ids order the texts as sent."""
    texts = [text for _, text in sorted(acknowledged)]
    in_order = texts == ["%s%d" % (prefix, number) for number in range(count)]
    return "%d messages '%s…' acknowledged, %s" % (
        len(acknowledged), prefix, "in send order" if in_order else "NOT in send order")


async def send(client, target, text):
    answer = await client(functions.messages.SendMessageRequest(
        peer=target, message=text, random_id=random.getrandbits(63)))
    return sent_id(answer)


async def latency(client, target, count, prefix):
    samples = []
    acknowledged = []
    for number in range(count):
        text = "%s%d" % (prefix, number)
        started = time.perf_counter()
        message_id = await send(client, target, text)
        samples.append(time.perf_counter() - started)
        if message_id is not None:
            acknowledged.append((message_id, text))
    samples.sort()
    return {"seconds": samples[len(samples) // 2], "p99": samples[min(len(samples) - 1, len(samples) * 99 // 100)],
            "output": describe(prefix, count, acknowledged)}


async def burst(client, target, count, prefix):
    acknowledged = []
    started = time.perf_counter()
    for number in range(count):
        text = "%s%d" % (prefix, number)
        message_id = await send(client, target, text)
        if message_id is not None:
            acknowledged.append((message_id, text))
    seconds = time.perf_counter() - started
    return {"seconds": seconds, "output": describe(prefix, count, acknowledged)}


async def serve(args):
    client = await connect(args.port, args.pem_file, args.phone)
    target = await find_target(client, args.target_phone)
    def answer(command):
        if "latency" in command:
            return latency(client, target, command["latency"], command["prefix"])
        return burst(client, target, command["burst"], command["prefix"])

    await serve_commands(client, answer)


def main():
    parser = bench_arguments()
    parser.add_argument("--serve", action="store_true", required=True)
    asyncio.run(serve(parser.parse_args()))


main()
