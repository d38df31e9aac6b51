"""Telethon 1.45.0 reading one of our accounts' messages, and seeing that account read its own.

Signs up, finds the target by its number, writes "hi" and prints {"user_id": N, "hi": ID} on a line of its own; waits
(at most --wait seconds) for the target's next message, reads it (client.send_read_acknowledge: messages.readHistory,
which makes tg-server push updateReadHistoryOutbox to the target) and prints {"read": ID, "text": T}; then waits for
events.MessageRead(inbox=False) from the target's chat — the target read our "hi" (updateReadHistoryOutbox to us) —
and prints {"outbox_read_max_id": ID}. Last, sends a voice note, prints {"voice": ID, "media_unread": true}, waits for the target to listen
to it (updateReadMessagesContents naming it, through events.Raw) and prints the final report: {"listened": [IDs],
"media_unread": whether our copy, fetched again, is still unplayed}.

Usage: read_peer.py --host H --port P --pem-file F --phone 99966XYYYY --target-phone 99966XYYYY [--wait S]
Prints five JSON lines on stdout; exits non-zero on any failure (a wait that times out included).
"""
import asyncio
import io
import json

from telethon import events, functions, types

from peer_client import connect, sign_up, peer_main, import_target


async def run(args):
    client = await connect(args.host, args.port, args.pem_file, args.phone)
    try:
        me = await sign_up(client, args.phone, "Rita")
        target = await import_target(client, args.target_phone)
        incoming = asyncio.Queue()
        outbox_read = asyncio.Queue()

        @client.on(events.NewMessage(chats=[target.id], incoming=True))
        async def on_message(event):
            incoming.put_nowait(event.message)

        @client.on(events.MessageRead(chats=[target.id], inbox=False))
        async def on_read(event):
            outbox_read.put_nowait(event.max_id)

        hi = await client.send_message(target, "hi")
        print(json.dumps({"user_id": me.id, "hi": hi.id}), flush=True)
        message = await asyncio.wait_for(incoming.get(), args.wait)
        await client.send_read_acknowledge(target, max_id=message.id)
        print(json.dumps({"read": message.id, "text": message.message}), flush=True)
        max_id = await asyncio.wait_for(outbox_read.get(), args.wait)
        print(json.dumps({"outbox_read_max_id": max_id}), flush=True)

        listened = asyncio.Queue()

        @client.on(events.Raw(types.UpdateReadMessagesContents))
        async def on_contents(update):
            listened.put_nowait(update.messages)

        audio = io.BytesIO(b"OggS" + bytes(range(256)) * 4)
        audio.name = "voice.ogg"
        voice = await client.send_file(
            target, audio, voice_note=True, attributes=[types.DocumentAttributeAudio(duration=1, voice=True)])
        print(json.dumps({"voice": voice.id, "media_unread": bool(voice.media_unread)}), flush=True)
        ids = await asyncio.wait_for(listened.get(), args.wait)
        again = await client.get_messages(target, ids=voice.id)
        return {"listened": ids, "media_unread": bool(again.media_unread)}
    finally:
        await client.disconnect()


if __name__ == "__main__":
    peer_main(run)
