"""Telethon 1.45.0 as the user our account sends files to (the Core media tests).

Signs up --phone, then waits (up to --timeout seconds) until --count messages have arrived from --target-phone,
downloads each document through Telethon's own upload.getFile loop and reports what it received: the text, its
entities (type, offset, length), the message it replies to, grouped_id, the forward header's author; for a document its file name, MIME
type, size, SHA-256 of the downloaded bytes, voice flag, duration, waveform length and sticker set; for a photo its
sizes (type, width, height).

Usage: media_peer.py --host H --port P --pem-file F --phone 99966XYYYY --target-phone 99966XYYYY --count N
Prints one JSON object on stdout; exits non-zero on any failure or on the timeout.
"""
import asyncio
import hashlib
import json
import time

from telethon import functions, types

from peer_client import connect, peer_arguments, sign_up


async def find(client, phone, deadline):
    """The target's user, once it exists (our account may sign up after this script starts)."""
    while time.monotonic() < deadline:
        imported = await client(functions.contacts.ImportContactsRequest(
            [types.InputPhoneContact(client_id=1, phone=phone, first_name="Target", last_name="")]))
        if imported.users:
            return imported.users[0]
        await asyncio.sleep(0.2)
    raise TimeoutError("the target never signed up")


async def run(args):
    client = await connect(args.host, args.port, args.pem_file, args.phone)
    deadline = time.monotonic() + args.timeout
    try:
        me = await sign_up(client, args.phone, "Tess")
        target = await find(client, args.target_phone, deadline)
        received = []
        while time.monotonic() < deadline:
            messages = await client.get_messages(target, limit=50)
            arrived = [m for m in messages if m.sender_id == target.id]
            if len(arrived) >= args.count:
                break
            await asyncio.sleep(0.3)
        else:
            raise TimeoutError("%d messages did not arrive" % args.count)
        for message in sorted(arrived, key=lambda m: m.id):
            item = {
                "text": message.message,
                "grouped_id": message.grouped_id,
                "forwarded_from": message.fwd_from.from_id.user_id if message.fwd_from and message.fwd_from.from_id else None,
                "reply_to": message.reply_to.reply_to_msg_id if message.reply_to else None,
                "entities": [[type(e).__name__, e.offset, e.length] for e in (message.entities or [])],
            }
            if message.photo is not None:
                item["photo_sizes"] = [[size.type, getattr(size, "w", 0), getattr(size, "h", 0)] for size in message.photo.sizes]
            if message.document is not None:
                data = await client.download_media(message, file=bytes)
                document = message.document
                audio = next((a for a in document.attributes if isinstance(a, types.DocumentAttributeAudio)), None)
                sticker = next((a for a in document.attributes if isinstance(a, types.DocumentAttributeSticker)), None)
                item.update({
                    "name": message.file.name,
                    "mime_type": document.mime_type,
                    "size": document.size,
                    "downloaded": len(data),
                    "sha256": hashlib.sha256(data).hexdigest(),
                    "voice": bool(audio and audio.voice),
                    "duration": audio.duration if audio else None,
                    "waveform_bytes": len(audio.waveform) if audio and audio.waveform else 0,
                    "sticker_set": sticker.stickerset.id if sticker and hasattr(sticker.stickerset, "id") else None,
                    "sticker_alt": sticker.alt if sticker else None,
                })
            received.append(item)
        return {"user_id": me.id, "received": received}
    finally:
        await client.disconnect()


def main():
    parser = peer_arguments()
    parser.add_argument("--count", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=120)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    main()
