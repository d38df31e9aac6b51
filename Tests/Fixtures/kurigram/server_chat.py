"""kurigram 2.2.26 (a Pyrogram-family client: `import pyrogram`) as two people talking through tg-server.

Alice has a number of DC 1 (99966 1 ....) but starts on DC 2, so she follows PHONE_MIGRATE_1; Bob's number belongs
to DC 2. Both sign up (send_code, sign_in answering "sign up first", sign_up), Alice takes a username and Bob finds
her by it (get_users with a username, an id and "me"; get_chat). They exchange messages with entities made by
Pyrogram's parsers (markdown one way, HTML the other, a reply), each seen live by a handler; both read their history
and dialogs with unread counts; Bob edits and Alice deletes with revoke, each seen live by the other. Alice (DC 1)
sends a photo that Bob (DC 2) downloads from DC 1, and Bob makes a basic group with create_group where both write.

Pyrogram-family clients pass `inputPeerUser` / `inputPeerSelf` where the schema names `InputUser`
(`pyrogram/methods/users/get_users.py`, `pyrogram/methods/chats/create_group.py`, `get_chat.py`) and open every
session with a `ping` as not content-related (`pyrogram/session/internals/msg_factory.py`): this script is what
proves the server takes both as Telegram does.

Pointing kurigram at tg-server: every DC's address comes from `Client(connection_factory=...)` (a `Connection` that
dials 127.0.0.1 and the DC's port, whatever address kurigram asked for: its first connection goes to Telegram's DC 2,
later ones to help.getConfig's dc_options), and the server's key goes into `pyrogram.crypto.rsa.server_public_keys`
under its fingerprint.

Usage: server_chat.py --host H --ports 1=P,2=P,3=P --pem-file F --workdir DIR [--tag T]
Prints one JSON object on stdout; exits non-zero on any failure.
"""
import argparse
import asyncio
import base64
import hashlib
import io
import json
import logging
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from event_inbox import Inbox  # noqa: E402 (Tests/Fixtures/event_inbox.py)
from fixture_images import jpeg_size, png  # noqa: E402 (Tests/Fixtures/fixture_images.py)

import pyrogram
from pyrogram import Client, filters, raw, types
from pyrogram.connection import Connection
from pyrogram.crypto import rsa
from pyrogram.file_id import FileId
from pyrogram.handlers import DeletedMessagesHandler, EditedMessageHandler, MessageHandler
from pyrogram.session import Session
from pyrogram.storage import UpdateState

# Generous bounds for a loaded two-core machine: how long a live event may take, and kurigram's own timeouts for a
# session's start (ping, initConnection) and for a call's answer (2 s and 15 s by default).
WAIT = 30
Session.START_TIMEOUT = 15
Session.WAIT_TIMEOUT = 30


def code_for(phone):
    """Telegram's test numbers 99966XYYYY: the code is X five times."""
    return phone[5] * 5


def der_integers(der):
    """The INTEGERs of a DER SEQUENCE (PKCS#1 RSAPublicKey: n, e)."""
    def item(data, index):
        length = data[index + 1]
        index += 2
        if length & 0x80:
            count = length & 0x7F
            length = int.from_bytes(data[index:index + count], "big")
            index += count
        return data[index:index + length], index + length

    body, _ = item(der, 0)
    values, index = [], 0
    while index < len(body):
        value, index = item(body, index)
        values.append(int.from_bytes(value, "big"))
    return values


def tl_bytes(data):
    """TL `bytes` serialization (core.telegram.org/mtproto/serialize)."""
    if len(data) < 254:
        head = bytes([len(data)])
    else:
        head = bytes([254]) + len(data).to_bytes(3, "little")
    raw_bytes = head + data
    return raw_bytes + bytes(-len(raw_bytes) % 4)


def trust_key(pem_file):
    """Adds the server's RSA key to kurigram's table, under its fingerprint: the low 64 bits of the SHA-1 of
    `rsa_public_key n:bytes e:bytes` (core.telegram.org/mtproto/auth_key), as a signed little-endian integer."""
    with open(pem_file) as f:
        pem = f.read()
    end = "-----END RSA PUBLIC KEY-----"
    body = pem[pem.index("-----BEGIN RSA PUBLIC KEY-----"):pem.index(end)].splitlines()[1:]
    n, e = der_integers(base64.b64decode("".join(body)))
    as_bytes = lambda value: value.to_bytes((value.bit_length() + 7) // 8, "big")
    digest = hashlib.sha1(tl_bytes(as_bytes(n)) + tl_bytes(as_bytes(e))).digest()
    rsa.server_public_keys[int.from_bytes(digest[-8:], "little", signed=True)] = rsa.PublicKey(n, e)


def local_connection(host, ports):
    """A kurigram `Connection` that reaches each DC of tg-server on `host`."""
    class LocalConnection(Connection):
        def __init__(self, dc_id, server_address, port, *args, **kwargs):
            super().__init__(dc_id, host, ports[dc_id], *args, **kwargs)
    return LocalConnection


def make_client(args, name):
    # No stories, topics, replies or stickers fetched behind the scenes: tg-server serves none of those methods.
    return Client(name, api_id=1, api_hash="0" * 32, in_memory=True, workdir=args.workdir,
                  connection_factory=local_connection(args.host, args.ports), sleep_threshold=60,
                  fetch_replies=False, fetch_topics=False, fetch_stories=False, fetch_stickers=False)


async def sign_up(client, phone, first_name):
    """What `Client.start()` does for a new number, without its prompts."""
    await client.connect()
    sent = await client.send_code(phone)
    if await client.sign_in(phone, sent.phone_code_hash, code_for(phone)) is not False:
        raise RuntimeError("a new number signed in without signing up")
    me = await client.sign_up(phone, sent.phone_code_hash, first_name)
    state = await client.invoke(raw.functions.updates.GetState())
    await client.storage.set_update_state(UpdateState(0, state.pts, state.qts, state.date, state.seq))
    client.me = await client.get_me()
    await client.initialize()
    return me


def watch(client):
    inbox = Inbox(WAIT)

    async def on_new(_, message):
        inbox.add("new", message)

    async def on_edit(_, message):
        inbox.add("edit", message)

    async def on_delete(_, messages):
        inbox.add("delete", sorted(m.id for m in messages))

    client.add_handler(MessageHandler(on_new, filters.incoming))
    client.add_handler(EditedMessageHandler(on_edit))
    client.add_handler(DeletedMessagesHandler(on_delete))
    return inbox


def entities(message):
    return [[e.type.name, e.offset, e.length] + ([e.url] if e.url else [])
            for e in (message.entities or message.caption_entities or [])]


async def dialogs(client):
    return sorted([[d.chat.id, d.unread_messages_count] async for d in client.get_dialogs()])


async def run(args):
    trust_key(args.pem_file)
    alice_phone, bob_phone = "99966100" + args.tag, "99966200" + args.tag
    alice, bob = make_client(args, "alice"), make_client(args, "bob")
    report = {"kurigram": pyrogram.__version__}
    try:
        me_alice = await sign_up(alice, alice_phone, "Alice")
        me_bob = await sign_up(bob, bob_phone, "Bob")
        report["dcs"] = [await alice.storage.dc_id(), await bob.storage.dc_id()]
        report["ids"] = [me_alice.id, me_bob.id]
        alice_inbox, bob_inbox = watch(alice), watch(bob)

        # Usernames, and users found by username, id and "me" (each an inputPeer* where users.getUsers wants an
        # InputUser), and a chat by id (users.getFullUser with an inputPeerUser).
        username = "alice_" + args.tag
        await alice.set_username(username)
        by_name = await bob.get_users(username)
        by_id_and_me = await bob.get_users([me_alice.id, "me"])
        chat = await bob.get_chat(me_alice.id)
        report["users"] = {
            "by_name": [by_name.id, by_name.username],
            "by_id_and_me": [[u.id, u.first_name, u.is_self] for u in by_id_and_me],
            "chat": [chat.id, chat.first_name, chat.username],
        }

        # Bob writes with markdown entities, Alice answers in HTML with a reply; each sees the other's live.
        sent = await bob.send_message(me_alice.id, "**hello** Alice, see `code` and [a link](https://example.com)")
        got = await alice_inbox.wait("new")
        reply = await alice.send_message(
            me_bob.id, "<i>hi</i> Bob", reply_parameters=types.ReplyParameters(message_id=got.id))
        got_reply = await bob_inbox.wait("new")
        report["texts"] = {
            "alice_got": [got.text, entities(got), got.from_user.id],
            "bob_sent": entities(sent),
            "bob_got": [got_reply.text, entities(got_reply), got_reply.reply_to_message_id, sent.id],
        }

        # History and dialogs with unread counts, before and after Alice reads.
        report["history"] = {
            "alice": [[m.id, m.outgoing, m.text] async for m in alice.get_chat_history(me_bob.id, limit=10)],
            "bob": [[m.id, m.outgoing, m.text] async for m in bob.get_chat_history(me_alice.id, limit=10)],
        }
        unread = {"alice_before": await dialogs(alice), "bob": await dialogs(bob)}
        await alice.read_chat_history(me_bob.id)
        unread["alice_after"] = await dialogs(alice)
        report["dialogs"] = unread

        # Bob edits his message; Alice deletes her reply for both.
        await bob.edit_message_text(me_alice.id, sent.id, "**hello** Alice (edited)")
        edited = await alice_inbox.wait("edit")
        await alice.delete_messages(me_bob.id, reply.id, revoke=True)
        deleted = await bob_inbox.wait("delete")
        report["changes"] = {
            "edited": [edited.id, edited.text, entities(edited), got.id],
            "deleted": [deleted, got_reply.id],
        }

        # A photo from Alice (DC 1) that Bob (DC 2) downloads from DC 1.
        picture = io.BytesIO(png(800, 480, 1))
        picture.name = "picture.png"
        await alice.send_photo(me_bob.id, picture, caption="a photo")
        photo = await bob_inbox.wait("new", lambda m: m.caption == "a photo")
        downloaded = await bob.download_media(photo, in_memory=True)
        report["photo"] = {
            "dc": FileId.decode(photo.photo.file_id).dc_id,
            "size": [photo.photo.width, photo.photo.height],
            "jpeg": list(jpeg_size(bytes(downloaded.getbuffer())) or []),
        }

        # A basic group made with create_group (messages.createChat with inputPeerUser members); both write in it.
        group = await bob.create_group("Pair", [me_alice.id])
        await alice.send_message(group.id, "alice here")
        from_alice = await bob_inbox.wait("new", lambda m: m.text == "alice here")
        await bob.send_message(group.id, "bob here")
        from_bob = await alice_inbox.wait("new", lambda m: m.text == "bob here")
        full = await alice.get_chat(group.id)
        report["group"] = {
            "title": [group.title, full.title],
            "type": group.type.name,
            "seen": [[from_alice.chat.id == group.id, from_alice.from_user.id == me_alice.id],
                     [from_bob.chat.id == group.id, from_bob.from_user.id == me_bob.id]],
            "members": sorted([m.user.first_name async for m in alice.get_chat_members(group.id)]),
        }
    finally:
        for client in (alice, bob):
            if client.is_connected:
                try:
                    await asyncio.wait_for(client.stop(), WAIT)
                except Exception as error:  # the report (or the error that ended it) matters, not a clean stop
                    print("stopping %s: %r" % (client.name, error), file=sys.stderr)
    return report


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", required=True)
    parser.add_argument("--ports", required=True, help="1=P,2=P,3=P")
    parser.add_argument("--pem-file", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--tag", default="01")
    args = parser.parse_args()
    args.ports = {int(dc): int(port) for dc, port in (item.split("=") for item in args.ports.split(","))}
    # kurigram appends every error it has no class for to ./unknown_errors.txt: keep that in the work folder, not in
    # whatever folder the test runs from.
    os.chdir(args.workdir)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    main()
