"""Telethon 1.45.0's side of tl-bench: serialize and parse the same typical `message` as the Swift side.

Prints one JSON object: microseconds per serialize and per parse (median of 5 timeit runs, as BenchmarkSupport.measure), and the bytes.
"""
import json
import timeit
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


def main():
    message = typical_message()
    data = bytes(message)
    number = 20000
    serialize = sorted(timeit.repeat(lambda: bytes(message), number=number, repeat=5))[2] / number
    parse = sorted(timeit.repeat(lambda: BinaryReader(data).tgread_object(), number=number, repeat=5))[2] / number
    print(json.dumps({"serialize_us": serialize * 1e6, "parse_us": parse * 1e6, "hex": data.hex()}))


if __name__ == "__main__":
    main()
