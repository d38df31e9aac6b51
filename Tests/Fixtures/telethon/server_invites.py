"""Telethon 1.45.0 joins by invite link on tg-server (messages.exportChatInvite, checkChatInvite, importChatInvite,
hideChatJoinRequest, editExportedChatInvite).

Alice makes a private supergroup and exports a link; Bob checks it (chatInvite with the title), joins by it, and
Alice's client sees the messageActionChatJoinedByLink service message live. A link that asks first answers Carol's
import with INVITE_REQUEST_SENT; Alice approves the request and Carol is in. A revoked link answers
INVITE_HASH_EXPIRED, a made-up one INVITE_HASH_INVALID.

Usage: server_invites.py --host H --port P --pem-file F --workdir DIR [--tag T]
Prints one JSON object on stdout; exits non-zero on any failure.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from event_inbox import Inbox  # noqa: E402 (Tests/Fixtures/event_inbox.py)

from telethon import events, errors, functions, types

from server_peer import script_main, sign_up_all

WAIT = 20


def link_hash(link):
    return link.rsplit("/", 1)[-1].lstrip("+")


async def error_name(coroutine):
    try:
        await coroutine
        return None
    except errors.RPCError as error:
        return type(error).__name__


async def run(args):
    report = {}
    (alice, _), (bob, me_bob), (carol, me_carol) = await sign_up_all(args, ["Alice", "Bob", "Carol"])
    try:
        alice_inbox = Inbox(WAIT)

        @alice.on(events.ChatAction())
        async def on_action(event):
            alice_inbox.add("action", event)

        created = await alice(functions.channels.CreateChannelRequest(title="Club", about="members", megagroup=True))
        group = created.chats[0]
        invite = await alice(functions.messages.ExportChatInviteRequest(group, title="open door"))
        report["link"] = [invite.link.startswith("https://t.me/+"), len(link_hash(invite.link)), invite.title]

        checked = await bob(functions.messages.CheckChatInviteRequest(link_hash(invite.link)))
        report["checked"] = [type(checked).__name__, checked.title, checked.megagroup, checked.participants_count]
        joined = await bob(functions.messages.ImportChatInviteRequest(link_hash(invite.link)))
        updates = getattr(joined, "updates", joined)
        report["bob_joined"] = [type(c).__name__ for c in updates.chats]
        event = await alice_inbox.wait("action", lambda e: e.user_joined or e.user_added)
        report["alice_saw"] = [type(event.action_message.action).__name__, event.user_id == me_bob.id]
        again = await bob(functions.messages.CheckChatInviteRequest(link_hash(invite.link)))
        report["bob_again"] = type(again).__name__

        # A link that asks first.
        asking = await alice(functions.messages.ExportChatInviteRequest(group, request_needed=True))
        report["carol_request"] = await error_name(
            carol(functions.messages.ImportChatInviteRequest(link_hash(asking.link))))
        pending = await alice(functions.messages.GetChatInviteImportersRequest(
            group, offset_date=0, offset_user=types.InputUserEmpty(), limit=10, requested=True))
        report["pending"] = [p.user_id == me_carol.id for p in pending.importers]
        carol_user = next(u for u in pending.users if u.id == me_carol.id)
        await alice(functions.messages.HideChatJoinRequestRequest(group, carol_user, approved=True))
        full = await alice(functions.channels.GetFullChannelRequest(group))
        report["members"] = full.full_chat.participants_count

        # Revoked and made-up links.
        await alice(functions.messages.EditExportedChatInviteRequest(group, invite.link, revoked=True))
        report["revoked"] = await error_name(
            carol(functions.messages.CheckChatInviteRequest(link_hash(invite.link))))
        report["made_up"] = await error_name(carol(functions.messages.CheckChatInviteRequest("AAAAAAAAAAAAAAAAAAAAAA")))
    finally:
        for client in (alice, bob, carol):
            await client.disconnect()
    return report


if __name__ == "__main__":
    script_main(run)
