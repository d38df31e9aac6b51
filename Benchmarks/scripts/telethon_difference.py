"""Telethon 1.45.0 (with cryptg when installed, its fastest documented setup) receiving the difference core-bench's
account catches up with, kept running between core-bench's interleaved rounds: signs in as the same user (a second
authorization, with the test number's code), then answers each command by calling updates.getDifference from the
given state through every slice, as Telethon's own catch-up does, timing that loop (the network, and Telethon's
parsing into objects).

Usage: telethon_difference.py --serve --port P --pem-file F --phone 99966XYYYY. Reads one JSON command per line on
stdin, {"pts": n, "date": n, "qts": n}, and answers each with one JSON line {"seconds": s, "output": text,
"slices": n, "cryptg": bool}; the output names the messages received (their count, and a checksum of each one's chat,
id and text that core-bench computes the same way from what it stored).
"""
import time

from telethon import functions, types
from telethon.crypto import aes

from bench_client import serve_as

MASK = (1 << 64) - 1


def message_line_hash(chat_id, message_id, text):
    """FNV-1a (64-bit) of "chat id text" in UTF-8: core-bench sums the same hash over the messages it stored."""
    value = 0xCBF29CE484222325
    for byte in ("%d %d %s" % (chat_id, message_id, text)).encode():
        value = ((value ^ byte) * 0x100000001B3) & MASK
    return value


def describe(messages):
    """The count and the sum (mod 2^64) of every message's line hash, as core-bench prints its own."""
    total = 0
    for message in messages:
        peer = message.peer_id
        chat_id = getattr(peer, "chat_id", None) or getattr(peer, "channel_id", None) or getattr(peer, "user_id", 0)
        text = getattr(message, "message", None) or ""
        total = (total + message_line_hash(chat_id, message.id, text)) & MASK
    return "%d messages, checksum %016x" % (len(messages), total)


async def difference(client, pts, date, qts):
    messages = []
    slices = 0
    start = time.perf_counter()
    while True:
        answer = await client(functions.updates.GetDifferenceRequest(pts=pts, date=date, qts=qts))
        slices += 1
        if isinstance(answer, types.updates.DifferenceSlice):
            messages.extend(answer.new_messages)
            state = answer.intermediate_state
            pts, date, qts = state.pts, state.date, state.qts
        elif isinstance(answer, types.updates.Difference):
            messages.extend(answer.new_messages)
            break
        else:
            break
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "output": describe(messages), "slices": slices, "cryptg": aes.cryptg is not None}


serve_as(lambda client, command: difference(client, command["pts"], command["date"], command.get("qts", 0)))
