"""Telethon 1.45.0 meets slow mode, signatures and default rights on tg-server (channels.toggleSlowMode,
channels.toggleSignatures, messages.editChatDefaultBannedRights).

Alice makes a public supergroup with a 60-second slow mode; Bob joins and posts once, the second post is refused with
SlowModeWaitError carrying the seconds left; Alice, an admin, is not held back. Alice turns signatures on in a public
broadcast channel and Bob's client gets her post live with post_author. Alice takes sending from members by default
(Telethon's edit_permissions without a user): Bob is refused with ChatWriteForbiddenError. Alice sets the broadcast
channel's photo (channels.editPhoto): Bob's client sees the photo change live and downloads it. Alice makes a basic
group with Bob and sets its photo (messages.editChatPhoto): Bob sees it live and downloads it. Then, Bob away, Alice
takes sending from the group's members (updateChatDefaultBannedRights, no pts): Bob's catch_up() hears of it through
updates.getDifference, and his next message there is refused.

Usage: server_settings.py --host H --port P --pem-file F --workdir DIR [--tag T]
Prints one JSON object on stdout; exits non-zero on any failure.
"""
import asyncio
import os
import struct
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from event_inbox import Inbox  # noqa: E402 (Tests/Fixtures/event_inbox.py)

from telethon import events, errors, functions, types

from server_peer import script_main, sign_up_all
from server_peer import make_client as make_shared_client


def make_client(args, name):
    # flood_sleep_threshold=0: Telethon would otherwise sleep through SLOWMODE_WAIT_60 and retry.
    return make_shared_client(args, name, flood_sleep_threshold=0)


WAIT = 20


def png(width, height):
    """A small RGB PNG made here (no imaging library needed)."""
    rows = b"".join(b"\x00" + bytes(v for x in range(width) for v in (x % 256, y % 256, 90)) for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def watch(client):
    inbox = Inbox(WAIT)

    @client.on(events.NewMessage())
    async def on_new(event):
        inbox.add("new", event.message)

    @client.on(events.ChatAction())
    async def on_action(event):
        inbox.add("action", event)

    return inbox


async def run(args):
    report = {}
    (alice, _), (bob, me_bob) = await sign_up_all(args, ["Alice", "Bob"], make=make_client)
    try:
        bob_inbox = watch(bob)
        await bob.send_message("me", "note to self")

        created = await alice(functions.channels.CreateChannelRequest(title="Slow", about="", megagroup=True))
        group = created.chats[0]
        await alice(functions.channels.UpdateUsernameRequest(group, "slow_" + args.tag))
        bob_group = await bob.get_entity("@slow_" + args.tag)
        await bob(functions.channels.JoinChannelRequest(bob_group))
        updates = await alice(functions.channels.ToggleSlowModeRequest(group, 60))
        report["slowmode_enabled"] = bool(updates.chats[0].slowmode_enabled)
        await bob.send_message(bob_group, "first")
        try:
            await bob.send_message(bob_group, "second")
            report["bob_waits"] = None
        except errors.SlowModeWaitError as error:
            report["bob_waits"] = [type(error).__name__, error.seconds]
        await alice.send_message(group, "admin one")
        await alice.send_message(group, "admin two")
        report["alice_not_held"] = True
        full = await bob(functions.channels.GetFullChannelRequest(bob_group))
        report["slowmode_seconds"] = full.full_chat.slowmode_seconds

        created = await alice(functions.channels.CreateChannelRequest(title="Signed", about="", broadcast=True))
        news = created.chats[0]
        await alice(functions.channels.UpdateUsernameRequest(news, "signed_" + args.tag))
        bob_news = await bob.get_entity("@signed_" + args.tag)
        await bob(functions.channels.JoinChannelRequest(bob_news))
        updates = await alice(functions.channels.ToggleSignaturesRequest(news, signatures_enabled=True))
        report["signatures"] = bool(updates.chats[0].signatures)
        await alice.send_message(news, "signed post")
        got = await bob_inbox.wait("new", lambda m: m.raw_text == "signed post")
        report["post_author"] = got.post_author

        await alice.edit_permissions(group, send_messages=False)
        try:
            await bob.send_message(bob_group, "may I?")
            report["bob_refused"] = None
        except errors.RPCError as error:
            report["bob_refused"] = type(error).__name__
        entity = await bob.get_entity(bob_group.id)
        report["default_send_messages"] = bool(entity.default_banned_rights.send_messages)

        uploaded = await alice.upload_file(png(160, 120), file_name="photo.png")
        await alice(functions.channels.EditPhotoRequest(news, types.InputChatUploadedPhoto(file=uploaded)))
        event = await bob_inbox.wait("action", lambda e: e.new_photo)
        report["bob_saw_photo"] = type(event.action_message.action).__name__
        downloaded = await bob.download_profile_photo(await bob.get_entity(bob_news.id), file=bytes)
        report["bob_downloaded"] = bool(downloaded) and downloaded[:2] == b"\xff\xd8"

        # A basic group's photo (messages.editChatPhoto): Bob sees it live and downloads it as a member.
        bob_input = types.InputUser(me_bob.id, me_bob.access_hash)
        created = await alice(functions.messages.CreateChatRequest(users=[bob_input], title="Home"))
        home = getattr(created, "updates", created).chats[0]
        await bob.get_dialogs()
        uploaded = await alice.upload_file(png(120, 90), file_name="home.png")
        await alice(functions.messages.EditChatPhotoRequest(home.id, types.InputChatUploadedPhoto(file=uploaded)))
        event = await bob_inbox.wait("action", lambda e: e.new_photo and e.chat_id == -home.id)
        report["bob_saw_group_photo"] = type(event.action_message.action).__name__
        downloaded = await bob.download_profile_photo(await bob.get_entity(types.PeerChat(home.id)), file=bytes)
        report["bob_downloaded_group_photo"] = bool(downloaded) and downloaded[:2] == b"\xff\xd8"
    finally:
        await alice.disconnect()
        await bob.disconnect()

    # Bob away while Alice takes sending from the group's members: the update carries no pts, and Telethon's own
    # catch_up() still hears of it (updates.getDifference's other_updates, the group in chats).
    alice = make_client(args, "alice")
    await alice.connect()
    try:
        await alice(functions.messages.EditChatDefaultBannedRightsRequest(
            types.InputPeerChat(home.id), types.ChatBannedRights(until_date=None, send_messages=True)))
        bob = make_shared_client(args, "bob", flood_sleep_threshold=0, catch_up=True)
        seen = []

        @bob.on(events.Raw(types.UpdateChatDefaultBannedRights))
        async def on_rights(update):
            seen.append(update)

        await bob.connect()
        await bob.catch_up()
        deadline = asyncio.get_running_loop().time() + WAIT
        while not seen and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.2)
        report["bob_caught_up_rights"] = [
            [update.peer.chat_id == home.id, bool(update.default_banned_rights.send_messages)] for update in seen]
        try:
            await bob.send_message(types.PeerChat(home.id), "may I?")
            report["bob_refused_in_group"] = None
        except errors.RPCError as error:
            report["bob_refused_in_group"] = type(error).__name__
        await bob.disconnect()
    finally:
        await alice.disconnect()
    return report


if __name__ == "__main__":
    script_main(run)
