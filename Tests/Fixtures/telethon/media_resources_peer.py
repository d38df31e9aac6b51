"""Telethon 1.45.0 as the other side of the MediaResources tests.

Signs up --phone, finds --target-phone (waiting until it exists), optionally sends --send-photo as a photo and
--send-document as a document (a file, never made a photo), then waits
(up to --timeout seconds) until --expect-voice voice notes and --expect-photos photos have arrived from the target,
downloads each through Telethon's own upload.getFile loop and reports them: a voice note's MIME type, voice flag,
duration, waveform bytes and SHA-256; a photo's sizes (type, width, height) and the largest size's SHA-256.

Usage: media_resources_peer.py --host H --port P --pem-file F --phone 99966XYYYY --target-phone 99966XYYYY
       [--send-photo FILE] [--send-document FILE] [--caption TEXT] [--expect-voice N] [--expect-photos N] [--timeout S]
Prints one JSON object on stdout; exits non-zero on any failure or on the timeout.
"""
import asyncio
import hashlib
import json
import time

from telethon import types

from media_peer import find
from peer_client import connect, peer_arguments, sign_up


def voice_report(message, data):
    document = message.document
    audio = next((a for a in document.attributes if isinstance(a, types.DocumentAttributeAudio)), None)
    return {
        "text": message.message,
        "mime_type": document.mime_type,
        "size": document.size,
        "sha256": hashlib.sha256(data).hexdigest(),
        "voice": bool(audio and audio.voice),
        "duration": audio.duration if audio else None,
        "waveform": list(audio.waveform) if audio and audio.waveform else None,
    }


def photo_report(message, data):
    sizes = [{"type": s.type, "w": s.w, "h": s.h} for s in message.photo.sizes if hasattr(s, "w")]
    return {"text": message.message, "sizes": sizes, "sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}


async def run(args):
    client = await connect(args.host, args.port, args.pem_file, args.phone)
    deadline = time.monotonic() + args.timeout
    try:
        me = await sign_up(client, args.phone, "Tess")
        target = await find(client, args.target_phone, deadline)
        if args.send_photo:
            await client.send_file(target, args.send_photo, caption=args.caption)
        if args.send_document:
            await client.send_file(target, args.send_document, force_document=True)
        while time.monotonic() < deadline:
            messages = [m for m in await client.get_messages(target, limit=50) if m.sender_id == target.id]
            voices = [m for m in messages if m.voice is not None]
            photos = [m for m in messages if m.photo is not None]
            if len(voices) >= args.expect_voice and len(photos) >= args.expect_photos:
                break
            await asyncio.sleep(0.2)
        else:
            raise TimeoutError("%d voice notes and %d photos did not arrive" % (args.expect_voice, args.expect_photos))
        report = {"user_id": me.id, "voices": [], "photos": []}
        for message in sorted(voices, key=lambda m: m.id):
            report["voices"].append(voice_report(message, await client.download_media(message, file=bytes)))
        for message in sorted(photos, key=lambda m: m.id):
            report["photos"].append(photo_report(message, await client.download_media(message, file=bytes)))
        return report
    finally:
        await client.disconnect()


def main():
    parser = peer_arguments()
    parser.add_argument("--send-photo")
    parser.add_argument("--send-document")
    parser.add_argument("--caption", default="")
    parser.add_argument("--expect-voice", type=int, default=0)
    parser.add_argument("--expect-photos", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=60)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    main()
