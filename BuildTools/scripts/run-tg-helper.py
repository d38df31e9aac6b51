#!/usr/bin/env python3
"""What run-tg.sh needs beside bash, with the standard library only:

  photos DIR            writes three 480x360 PNG photos (zlib-compressed RGB) made on the spot: sunset.png, hills.png, sea.png
  sent                  reads `tg send --json` (a message, or an array for an album) and prints one short line
  field KEY             reads a JSON object and prints one key's value
  found                 reads `tg search --json` and prints each message found
  seen FILE             prints how many new messages a `tg watch --json` file holds
  idof TEXT             the id of the first message of a JSON list whose text holds TEXT (exit 1 if none)
  read                  "N of M": how many of our messages in a JSON list the other side read (exit 1 unless all)
  forwarded TEXT        the first forwarded message whose text holds TEXT, with whom it names (exit 1 if none)
  watched FILE          prints a `tg watch --json` file's events, one short line each
  holds TEXT            reads `tg history --json` and prints the line of the first message whose text has TEXT
  views TEXT            reads `tg history --json` and prints the view count of the first message whose text has TEXT
                        (exit 1 when none has)
  keys A B              prints two `tg secret-key --json` files side by side (names from the file names) and a line
                        saying whether they match; exit 1 when they differ
"""
import json
import math
import struct
import sys
import zlib


def png(path, width, height, pixel):
    """A PNG (8-bit RGB, filter 0 on every row) whose pixel (x, y) is pixel(x, y) -> (r, g, b)."""
    rows = bytearray()
    for y in range(height):
        rows.append(0)
        for x in range(width):
            rows.extend(pixel(x, y))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    with open(path, "wb") as out:
        out.write(b"\x89PNG\r\n\x1a\n")
        out.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)))
        out.write(chunk(b"IDAT", zlib.compress(bytes(rows), 6)))
        out.write(chunk(b"IEND", b""))


def sunset(x, y):
    """An orange sky darkening upwards, a yellow sun, a dark lake below the horizon."""
    if (x - 300) ** 2 + (y - 170) ** 2 < 55 ** 2:
        return (255, 226, 120)
    if y > 220:
        return (30, 40 + (y - 220) // 6, 90)
    return (250, 90 + y // 3, 40 + y // 8)


def hills(x, y):
    """Green hills under a pale blue sky."""
    ridge = 200 + 40 * math.sin(x / 60.0) + 20 * math.sin(x / 23.0)
    if y > ridge:
        return (40, 150 - (y - 200) // 4, 60)
    return (170, 210, 245)


def sea(x, y):
    """Blue sea with white wave stripes."""
    if (y + int(12 * math.sin(x / 30.0))) % 60 < 6:
        return (240, 248, 255)
    return (20, 90 + y // 6, 180)


def short(message):
    """One message in a few words: its markdown, or what its media is."""
    media = message.get("media") or {}
    kind = media.get("kind")
    text = message.get("markdown") or ""
    if len(text) > 60:
        text = text[:57] + "…"
    if kind == "sticker":
        name = media.get("fileName") or ""
        return "sticker %s %s" % (media.get("emoji") or "", "(animated .tgs)" if name.endswith(".tgs") else "(WebP)")
    if kind == "voice":
        return "voice note %ds %s" % (media.get("duration") or 0, json.dumps(text, ensure_ascii=False))
    if kind == "photo":
        return "photo %sx%s%s" % (media.get("width"), media.get("height"), (" " + json.dumps(text, ensure_ascii=False)) if text else "")
    if message.get("forwardedFromName"):
        text = "(forwarded from %s) %s" % (message["forwardedFromName"], text)
    return text


def main():
    command = sys.argv[1]
    if command == "photos":
        folder = sys.argv[2]
        for name, pixel in (("sunset", sunset), ("hills", hills), ("sea", sea)):
            png("%s/%s.png" % (folder, name), 480, 360, pixel)
    elif command == "sent":
        value = json.load(sys.stdin)
        if isinstance(value, list) and len(value) == 1:
            value = value[0]  # one forwarded copy
        if isinstance(value, list):
            ids = [m["id"] for m in value]
            caption = next((m["markdown"] for m in value if m.get("markdown")), "")
            print("album of %d photos%s (ids %d–%d)" % (len(value), (" " + json.dumps(caption, ensure_ascii=False)) if caption else "", ids[0], ids[-1]))
        else:
            reply = " (reply to %d)" % value["replyTo"] if value.get("replyTo") else ""
            print("%s%s (id %d)" % (short(value), reply, value["id"]))
    elif command == "field":
        value = json.load(sys.stdin)[sys.argv[2]]
        print(value if not isinstance(value, (dict, list)) else json.dumps(value))
    elif command == "found":
        for message in json.load(sys.stdin):
            print("  found [%d] from %s: %s" % (message["id"], message["fromName"], short(message)))
    elif command in ("seen", "watched"):
        events = []
        with open(sys.argv[2], encoding="utf-8") as lines:
            for line in lines:
                try:
                    events.append(json.loads(line))
                except ValueError:
                    pass  # a line still being written
        new = [e for e in events if e.get("event") == "new"]
        if command == "seen":
            print(len(new))
        else:
            for event in new:
                message = event["message"]
                side = "me" if message["outgoing"] else message["fromName"]
                print("  new [%d] %s: %s" % (message["id"], side, short(message)))
    elif command == "holds":
        for message in json.load(sys.stdin):
            if sys.argv[2] in (message.get("text") or ""):
                side = "me" if message["outgoing"] else message["fromName"]
                print("[%d] %s: %s" % (message["id"], side, short(message)))
                return
        sys.exit(1)
    elif command == "idof":
        for message in json.load(sys.stdin):
            if sys.argv[2] in (message.get("text") or ""):
                print(message["id"])
                return
        sys.exit(1)
    elif command == "read":
        ours = [m for m in json.load(sys.stdin) if m["outgoing"]]
        read = [m for m in ours if m.get("read")]
        print("%d of %d" % (len(read), len(ours)))
        if not ours or len(read) != len(ours):
            sys.exit(1)
    elif command == "forwarded":
        for message in json.load(sys.stdin):
            if message.get("forwardedFromName") and sys.argv[2] in (message.get("text") or ""):
                print("[%d] %s" % (message["id"], short(message)))
                return
        sys.exit(1)
    elif command == "views":
        for message in json.load(sys.stdin):
            if sys.argv[2] in (message.get("text") or ""):
                print(message.get("views") or 0)
                return
        sys.exit(1)
    elif command == "keys":
        sides = []
        for path in sys.argv[2:4]:
            with open(path, encoding="utf-8") as file:
                sides.append((path.rsplit("/", 1)[-1].split(".")[0], json.load(file)))
        width = 30
        def rows(key):
            frame = "─" * 24
            return [" ".join(key["emoji"]), "┌" + frame + "┐"] + ["│" + r + "│" for r in key["identicon"]] + ["└" + frame + "┘"] + key["hex"]
        (left_name, left), (right_name, right) = sides
        print("  %s%s" % (left_name.ljust(width + 4), right_name))
        for a, b in zip(rows(left), rows(right)):
            # Emoji are two columns wide: pad by what the terminal shows, not by code points.
            # (a symbol made an emoji by U+FE0F, like ⛄️, is two columns too).
            shown = sum(2 if ord(c) > 0x2FFF else 1 for c in a if ord(c) not in (0xFE0F, 0x200D))
            shown += sum(1 for x, y in zip(a, a[1:]) if ord(y) == 0xFE0F and ord(x) <= 0x2FFF)
            print("  %s%s    %s" % (a, " " * max(0, width - shown), b))
        keys = ("fingerprint", "emoji", "hex", "identicon")
        if all(left[k] == right[k] for k in keys):
            print("  the key visualizations match: %s" % " ".join(left["emoji"]))
        else:
            print("  the key visualizations DIFFER")
            sys.exit(1)
    else:
        sys.exit("run-tg-helper.py: unknown command %r — see the docstring" % command)


if __name__ == "__main__":
    main()
