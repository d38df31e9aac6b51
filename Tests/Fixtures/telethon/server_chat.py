"""Telethon 1.45.0 as two people talking through tg-server.

Alice has a number of DC 1 (99966 1 ....) but starts on DC 2, so she follows PHONE_MIGRATE_1; Bob's number belongs
to DC 2. Both sign up, Alice takes a username, Bob finds her by it, and they exchange messages with entities made by
Telethon's markdown parser: a reply, an edit, a delete with revoke and a read receipt, each seen live by the other
side as Telethon events. Then both read their history and dialogs back.

With --phase catch-up (after the first phase, with the same --workdir, typically after the server was killed and
restarted): Bob stays offline while Alice sends --count messages; then Bob connects and catches up with Telethon's
own gap handling (`catch_up`, updates.getDifference and its slices), and both read back what the first phase left.

Usage: server_chat.py --host H --port P --pem-file F --workdir DIR [--tag T] [--phase chat|catch-up] [--count N]
Prints one JSON object on stdout; exits non-zero on any failure.
"""
import argparse
import logging
import asyncio
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from event_inbox import Inbox  # noqa: E402 (Tests/Fixtures/event_inbox.py)
from fixture_images import jpeg_size, png  # noqa: E402 (Tests/Fixtures/fixture_images.py)

from telethon import TelegramClient, events, errors, functions, types
from telethon.crypto import rsa
from telethon.sessions import SQLiteSession

# As in mtproto_interop.py: Telethon retries a key exchange the way it would against Telegram (about one exchange in
# 256 needs it because Telethon strips leading zero bytes of the auth key).
CONNECTION_RETRIES = 5
WAIT = 15


def code_for(phone):
    """Telegram's test numbers 99966XYYYY: the code is X five times."""
    return phone[5] * 5


async def sign_up(client, phone, first_name):
    sent = await client.send_code_request(phone)
    try:
        await client.sign_in(phone, code_for(phone), phone_code_hash=sent.phone_code_hash)
        raise RuntimeError("a new number signed in without signing up")
    except errors.PhoneNumberUnoccupiedError:
        pass
    # Telethon 1.45 refuses sign_up() for third-party apps; the request itself is plain MTProto.
    result = await client(functions.auth.SignUpRequest(phone, sent.phone_code_hash, first_name, ""))
    return await client._on_login(result.user)


def make_client(args, name, dc_port):
    session = SQLiteSession(os.path.join(args.workdir, name))
    if session.auth_key and args.dc_ports:
        # A session from before a server restart: same DC and key, the DC's port now.
        session.set_dc(session.dc_id, args.host, args.dc_ports[session.dc_id])
    else:
        session.set_dc(2, args.host, dc_port)
    # catch_up=True: Telethon loads the saved update state on connect and fetches what it missed (getDifference).
    return TelegramClient(session, api_id=1, api_hash="0" * 32, connection_retries=CONNECTION_RETRIES, retry_delay=1, catch_up=True,
                          timeout=30)


def watch(client):
    inbox = Inbox(WAIT)

    @client.on(events.NewMessage(incoming=True))
    async def on_new(event):
        inbox.add("new", event.message)

    @client.on(events.MessageEdited())
    async def on_edit(event):
        inbox.add("edit", event.message)

    @client.on(events.MessageDeleted())
    async def on_delete(event):
        inbox.add("delete", list(event.deleted_ids))

    @client.on(events.Raw(types.UpdateReadHistoryOutbox))
    async def on_read(update):
        inbox.add("read", update.max_id)

    return inbox


def entities(message):
    return [[type(e).__name__, e.offset, e.length] for e in (message.entities or [])]


async def run(args):
    load_key(args)
    alice_phone, bob_phone = "99966100" + args.tag, "99966200" + args.tag
    alice = make_client(args, "alice", args.port)
    bob = make_client(args, "bob", args.port)
    await alice.connect()
    await bob.connect()
    report = {}
    try:
        me_alice = await sign_up(alice, alice_phone, "Alice")
        me_bob = await sign_up(bob, bob_phone, "Bob")
        report["alice_dc"] = alice.session.dc_id
        report["bob_dc"] = bob.session.dc_id
        report["alice_id"], report["bob_id"] = me_alice.id, me_bob.id
        await alice(functions.account.UpdateUsernameRequest("alice_" + args.tag))
        alice_inbox, bob_inbox = watch(alice), watch(bob)
        # Bob finds Alice by her username, then writes with markdown entities.
        found = await bob.get_entity("@alice_" + args.tag)
        report["resolved_id"] = found.id
        sent = await bob.send_message(found, "**hello** Alice, see `code` and [a link](https://example.com)")
        got = await alice_inbox.wait("new")
        report["alice_got"] = {"text": got.raw_text, "entities": entities(got), "sender": got.sender_id}
        report["bob_sent_entities"] = entities(sent)
        # Alice replies to it.
        reply = await alice.send_message(got.sender_id, "hi Bob", reply_to=got.id)
        got_reply = await bob_inbox.wait("new")
        report["bob_got_reply"] = {"text": got_reply.raw_text, "reply_to": got_reply.reply_to_msg_id, "sent_id": sent.id}
        # Bob edits his first message; Alice sees the edit.
        await bob.edit_message(found, sent.id, "**hello** Alice (edited)")
        edited = await alice_inbox.wait("edit")
        report["alice_saw_edit"] = {"id": edited.id, "text": edited.raw_text, "entities": entities(edited), "was_id": got.id}
        # Alice deletes her reply for both; Bob sees his copy go.
        await alice.delete_messages(me_bob.id, [reply.id], revoke=True)
        deleted = await bob_inbox.wait("delete")
        report["bob_saw_delete"] = {"ids": deleted, "his_copy": got_reply.id}
        # Alice reads the chat; Bob's outbox is marked read up to his message.
        await alice.send_read_acknowledge(me_bob.id, max_id=got.id)
        report["bob_saw_read"] = {"max_id": await bob_inbox.wait("read"), "his_message": sent.id}
        # Both read the history back.
        alice_history = await alice.get_messages(me_bob.id, limit=10)
        bob_history = await bob.get_messages(found, limit=10)
        report["alice_history"] = [[m.id, m.out, m.raw_text] for m in alice_history]
        report["bob_history"] = [[m.id, m.out, m.raw_text] for m in bob_history]
        dialogs = await bob.get_dialogs()
        report["bob_dialogs"] = [[d.entity.id, d.unread_count] for d in dialogs]
        report["files"] = await files(alice, bob, me_bob, bob_inbox)
        report["photos"] = await photos(alice, bob, me_bob, bob_inbox)
        report["password"] = await two_step(args)
        report["group"] = await group(args, alice, bob, alice_inbox, bob_inbox)
    finally:
        await alice.disconnect()
        await bob.disconnect()
    return report


async def files(alice, bob, me_bob, bob_inbox):
    """A 12 MB document (uploaded in big-file parts to Alice's DC 1) downloaded byte-identical by Bob (whose client
    follows the file to DC 1 with exportAuthorization/importAuthorization), and a voice note with its waveform."""
    import hashlib
    import io
    import random
    generator = random.Random(12)
    payload = bytes(generator.getrandbits(8) for _ in range(12 * 1024 * 1024 + 123))
    document = io.BytesIO(payload)
    document.name = "payload.bin"
    await alice.send_file(me_bob.id, document, force_document=True, caption="twelve megabytes")
    got = await bob_inbox.wait("new", lambda m: m.raw_text == "twelve megabytes")
    downloaded = await bob.download_media(got, file=bytes)
    waveform = bytes((i * 37) % 256 for i in range(63))
    voice = io.BytesIO(b"OggS" + bytes(2000))
    voice.name = "voice.ogg"
    await alice.send_file(me_bob.id, voice, voice_note=True, attributes=[
        types.DocumentAttributeAudio(duration=3, voice=True, waveform=waveform)])
    got_voice = await bob_inbox.wait("new", lambda m: m.voice is not None)
    audio = next(a for a in got_voice.voice.attributes if isinstance(a, types.DocumentAttributeAudio))
    # A sticker from the server's own set: Alice installs the set and sends its first (animated) sticker.
    sticker_set = await alice(functions.messages.GetStickerSetRequest(types.InputStickerSetShortName("telegraph"), hash=0))
    await alice(functions.messages.InstallStickerSetRequest(types.InputStickerSetShortName("telegraph"), archived=False))
    installed = await alice(functions.messages.GetAllStickersRequest(hash=0))
    first = sticker_set.documents[0]
    await alice.send_file(me_bob.id, first)
    got_sticker = await bob_inbox.wait("new", lambda m: m.sticker is not None)
    sticker_bytes = await bob.download_media(got_sticker, file=bytes)
    sticker_alt = next(a.alt for a in got_sticker.sticker.attributes if isinstance(a, types.DocumentAttributeSticker))
    # The set's video sticker (WebM, VP9): Bob downloads it and its first-frame thumbnail straight from the set.
    video = next(d for d in sticker_set.documents if d.mime_type == "video/webm")
    video_bytes = await bob.download_media(video, file=bytes)
    video_attribute = next(a for a in video.attributes if isinstance(a, types.DocumentAttributeVideo))
    video_sticker = next(a for a in video.attributes if isinstance(a, types.DocumentAttributeSticker))
    video_thumb = await bob.download_media(video, file=bytes, thumb=-1)
    return {
        "video_sticker": {
            "sha256": hashlib.sha256(video_bytes).hexdigest(), "size_matches": len(video_bytes) == video.size,
            "video": [video_attribute.w, video_attribute.h, video_attribute.duration], "alt": video_sticker.alt,
            "set_id": video_sticker.stickerset.id, "thumbs": [t.type for t in video.thumbs or []],
            "thumb_jpeg": video_thumb[:2].hex(),
        },
        "sticker_set": [sticker_set.set.short_name, sticker_set.set.count, [d.mime_type for d in sticker_set.documents]],
        "installed_sets": [s.short_name for s in installed.sets],
        "sticker": [got_sticker.sticker.id == first.id, got_sticker.sticker.mime_type, sticker_alt, sticker_bytes[:2].hex(),
                    len(sticker_bytes) == first.size],
        "sent_sha256": hashlib.sha256(payload).hexdigest(),
        "received_sha256": hashlib.sha256(downloaded).hexdigest(),
        "document_dc": got.document.dc_id,
        "file_name": got.file.name,
        "size": got.file.size,
        "voice": audio.voice,
        "voice_duration": audio.duration,
        "waveform_matches": audio.waveform == waveform,
        "voice_bytes": len(await bob.download_media(got_voice, file=bytes)),
    }


async def photos(alice, bob, me_bob, bob_inbox):
    """A 1000×600 picture sent as a photo: the server makes Telegram's sizes, Bob downloads the largest and it is a
    JPEG of its stated size; then an album of three arrives as one group."""
    import io
    picture = io.BytesIO(png(1000, 600, 1))
    picture.name = "picture.png"
    await alice.send_file(me_bob.id, picture, caption="a photo")
    got = await bob_inbox.wait("new", lambda m: m.raw_text == "a photo")
    sizes = [[getattr(s, "type", None), getattr(s, "w", None), getattr(s, "h", None)] for s in got.photo.sizes]
    largest = await bob.download_media(got, file=bytes)
    album = []
    for seed in (2, 3, 4):
        item = io.BytesIO(png(320, 240, seed))
        item.name = "album-%d.png" % seed
        album.append(item)
    await alice.send_file(me_bob.id, album, caption=["one", "two", "three"])
    parts = [await bob_inbox.wait("new", lambda m, text=text: m.raw_text == text) for text in ("one", "two", "three")]
    # A profile photo: Alice sets one, Bob sees it on her user and downloads its largest size from her DC.
    profile = io.BytesIO(png(640, 640, 5))
    profile.name = "me.png"
    await alice(functions.photos.UploadProfilePhotoRequest(file=await alice.upload_file(profile)))
    alice_as_bob_sees_her = await bob.get_entity(got.sender_id)
    profile_bytes = await bob.download_profile_photo(alice_as_bob_sees_her, file=bytes)
    return {
        "profile_photo": [type(alice_as_bob_sees_her.photo).__name__, list(jpeg_size(profile_bytes or b"") or [])],
        "sizes": sizes,
        "largest": list(jpeg_size(largest) or []),
        "stripped": any(type(s).__name__ == "PhotoStrippedSize" for s in got.photo.sizes),
        "album_grouped": len({m.grouped_id for m in parts}) == 1 and parts[0].grouped_id is not None,
        "album_photos": [bool(m.photo) for m in parts],
    }


async def two_step(args):
    """Dave sets a two-step verification password, signs out, and signs in again: the code step answers
    SESSION_PASSWORD_NEEDED, a wrong password PASSWORD_HASH_INVALID, the right one signs him in."""
    dave = make_client(args, "dave", args.port)
    await dave.connect()
    phone = "99966290" + args.tag
    try:
        me = await sign_up(dave, phone, "Dave")
        await dave.edit_2fa(new_password="correct horse", hint="horse")
        await dave.log_out()
    finally:
        await dave.disconnect()
    again = make_client(args, "dave-again", args.port)
    await again.connect()
    steps = []
    try:
        sent = await again.send_code_request(phone)
        try:
            await again.sign_in(phone, code_for(phone), phone_code_hash=sent.phone_code_hash)
            steps.append("signed in without a password")
        except errors.SessionPasswordNeededError:
            steps.append("SESSION_PASSWORD_NEEDED")
        try:
            await again.sign_in(password="wrong horse")
            steps.append("wrong password accepted")
        except errors.PasswordHashInvalidError:
            steps.append("PASSWORD_HASH_INVALID")
        user = await again.sign_in(password="correct horse")
        steps.append("signed in" if user.id == me.id else "someone else")
        password = await again(functions.account.GetPasswordRequest())
        return {"steps": steps, "hint": password.hint, "has_password": password.has_password}
    finally:
        await again.disconnect()


async def group(args, alice, bob, alice_inbox, bob_inbox):
    """A basic group of three: Bob creates it with Alice and Carol, each writes once, everyone sees the others."""
    carol = make_client(args, "carol", args.port)
    await carol.connect()
    try:
        await sign_up(carol, "99966300" + args.tag, "Carol")
        carol_inbox = watch(carol)
        alice_me, carol_me = await alice.get_me(), await carol.get_me()
        # Bob knows Alice already; Carol he finds through contacts.search by her public username (Telegram, and so
        # tg-server, never finds a stranger by name).
        await carol(functions.account.UpdateUsernameRequest("carol_" + args.tag))
        found = await bob(functions.contacts.SearchRequest(q="carol_" + args.tag, limit=5))
        carol_user = next(u for u in found.users if u.id == carol_me.id)
        invited = await bob(functions.messages.CreateChatRequest(users=[alice_me.id, carol_user], title="Trio"))
        chat = invited.updates.chats[0]
        for client, text in ((bob, "bob here"), (alice, "alice here"), (carol, "carol here")):
            await client.send_message(types.PeerChat(chat.id), text)
        seen = {}
        for name, inbox, expected in (("alice", alice_inbox, {"bob here", "carol here"}),
                                      ("bob", bob_inbox, {"alice here", "carol here"}),
                                      ("carol", carol_inbox, {"bob here", "alice here"})):
            for text in sorted(expected):
                message = await inbox.wait("new", lambda m, text=text: m.raw_text == text)
                seen.setdefault(name, []).append([message.raw_text, message.chat_id == -chat.id])
        participants = await carol.get_participants(types.PeerChat(chat.id))
        history = await alice.get_messages(types.PeerChat(chat.id), limit=10)
        return {
            "title": chat.title,
            "seen": seen,
            "participants": sorted(p.first_name for p in participants),
            "alice_history": [m.raw_text or type(m.action).__name__ for m in reversed(history)],
        }
    finally:
        await carol.disconnect()


async def catch_up(args):
    load_key(args)
    alice = make_client(args, "alice", args.port)
    bob = make_client(args, "bob", args.port)
    report = {}
    await alice.connect()
    try:
        report["alice_authorized"] = await alice.is_user_authorized()
        bob_id = next(d for d in await alice.get_dialogs() if d.is_user).entity.id
        alice_id = (await alice.get_me()).id
        # Texts carry their number, so order and duplicates can be checked on Bob's side.
        for number in range(args.count):
            await alice.send_message(bob_id, "catch-up %d" % number)
        report["alice_history_top"] = [m.raw_text for m in await alice.get_messages(bob_id, limit=2)]
    finally:
        await alice.disconnect()
    seen = []
    await bob.connect()
    try:
        report["bob_authorized"] = await bob.is_user_authorized()

        @bob.on(events.NewMessage(incoming=True))
        async def on_new(event):
            seen.append(event.message.raw_text)

        started = asyncio.get_running_loop().time()
        await bob.catch_up()
        deadline = started + 180
        while len(seen) < args.count and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.2)
        report["catch_up_seconds"] = round(asyncio.get_running_loop().time() - started, 1)
        report["bob_seen_count"] = len(seen)
        report["bob_seen_in_order"] = seen == ["catch-up %d" % n for n in range(args.count)]
        report["bob_seen_head"] = seen[:3]
        history = await bob.get_messages(alice_id, limit=1, reverse=True)
        report["bob_first_message"] = history[0].raw_text if history else None
        report["bob_total"] = (await bob.get_messages(alice_id, limit=0)).total
    finally:
        await bob.disconnect()
    return report


def load_key(args):
    with open(args.pem_file) as f:
        pem = f.read()
    end = "-----END RSA PUBLIC KEY-----"
    rsa.add_key(pem[: pem.index(end) + len(end)], old=False)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pem-file", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--tag", default="01")
    parser.add_argument("--phase", choices=["chat", "catch-up"], default="chat")
    parser.add_argument("--count", type=int, default=3000)
    parser.add_argument("--dc-ports", default="", help="1=P,2=P,3=P: every DC's port (sessions made earlier)")
    args = parser.parse_args()
    if os.environ.get("TELETHON_DEBUG"):
        logging.basicConfig(level=logging.DEBUG)
    args.dc_ports = {int(k): int(v) for k, v in (item.split("=") for item in args.dc_ports.split(",") if item)}
    print(json.dumps(asyncio.run(run(args) if args.phase == "chat" else catch_up(args))))


if __name__ == "__main__":
    main()
