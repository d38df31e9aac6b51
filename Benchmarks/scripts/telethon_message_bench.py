"""Telethon 1.45.0's side of tl-bench: serialize and parse the same typical `message` as the Swift side.

Usage: telethon_message_bench.py --serve. Reads one JSON command per line on stdin and answers each with one JSON
line (BenchmarkSupport's PeerProcess), so tl-bench interleaves its rounds with ours:
  {"op": "bytes"}                   answers {"hex": the message's TL bytes} (the Swift side checks they are its own)
  {"op": "serialize", "count": N}   N times bytes(message), a fresh bytes object each (as the Swift row compared
                                    with it allocates a fresh array each); answers {"seconds": S, "hex": the last}
  {"op": "parse", "count": N}       N times BinaryReader(data).tgread_object(); answers {"seconds": S, "hex": the
                                    last parsed object serialized again}
"""
import json
import sys
import time
from datetime import datetime, timezone

from telethon.extensions import BinaryReader
from telethon.tl import types


def typical_message():
    text = "Meet at 19:00 by the old bridge? Bring the photos from Saturday, and the charger \U0001F50B please!"
    return types.Message(
        id=48213, peer_id=types.PeerUser(user_id=777000), date=datetime.fromtimestamp(1_700_000_000, tz=timezone.utc),
        message=text, out=True, from_id=types.PeerUser(user_id=123456789),
        reply_to=types.MessageReplyHeader(reply_to_msg_id=48210),
        entities=[types.MessageEntityBold(offset=0, length=4), types.MessageEntityTextUrl(offset=15, length=10,
                  url="https://maps.example/bridge")],
        edit_date=datetime.fromtimestamp(1_700_000_060, tz=timezone.utc), ttl_period=None,
    )


def serve():
    message = typical_message()
    data = bytes(message)
    for line in sys.stdin:
        command = json.loads(line)
        if command["op"] == "bytes":
            answer = {"hex": data.hex()}
        elif command["op"] == "serialize":
            start = time.perf_counter()
            for _ in range(command["count"]):
                result = bytes(message)
            answer = {"seconds": time.perf_counter() - start, "hex": result.hex()}
        elif command["op"] == "parse":
            start = time.perf_counter()
            for _ in range(command["count"]):
                parsed = BinaryReader(data).tgread_object()
            answer = {"seconds": time.perf_counter() - start, "hex": bytes(parsed).hex()}
        else:
            answer = {"error": "unknown op %r" % command["op"]}
        print(json.dumps(answer), flush=True)


def main():
    if sys.argv[1:] != ["--serve"]:
        print(__doc__.strip())
        sys.exit(0 if sys.argv[1:] in (["-h"], ["--help"]) else 2)
    serve()


if __name__ == "__main__":
    main()
