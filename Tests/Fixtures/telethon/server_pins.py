"""Telethon 1.45.0 pins messages on tg-server (messages.updatePinnedMessage, messages.unpinAllMessages).

Alice makes a public supergroup, Bob joins by username. Alice pins a message with Telethon's pin_message: the answer
is the messageActionPinMessage service message replying to it, and Bob's client gets updatePinnedChannelMessages
live; Bob sees the pinned flag and pinned_msg_id. In a private chat Alice pins for both sides: Bob gets
updatePinnedMessages with Alice as the peer; a one-sided pin by Bob reaches nobody else. unpin_message without a
message (messages.unpinAllMessages) clears the supergroup's pins, Bob sees it live. Bob, restricted from pinning,
is refused with CHAT_ADMIN_REQUIRED.

Usage: server_pins.py --host H --port P --pem-file F --workdir DIR [--tag T]
Prints one JSON object on stdout; exits non-zero on any failure.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from event_inbox import Inbox  # noqa: E402 (Tests/Fixtures/event_inbox.py)

from telethon import events, errors, functions, types

from server_peer import script_main, sign_up_all

WAIT = 20


def watch(client):
    inbox = Inbox(WAIT)

    @client.on(events.Raw(types.UpdatePinnedChannelMessages))
    async def on_channel_pin(update):
        inbox.add("channel_pin", update)

    @client.on(events.Raw(types.UpdatePinnedMessages))
    async def on_pin(update):
        inbox.add("pin", update)

    return inbox


async def run(args):
    report = {}
    (alice, me_alice), (bob, me_bob) = await sign_up_all(args, ["Alice", "Bob"])
    try:
        bob_inbox = watch(bob)
        # Telethon reads an account pts of 0 as "no state"; a note to himself moves Bob's.
        await bob.send_message("me", "note to self")

        created = await alice(functions.channels.CreateChannelRequest(title="Pins", about="", megagroup=True))
        group = created.chats[0]
        name = "pins_" + args.tag
        await alice(functions.channels.UpdateUsernameRequest(group, name))
        bob_group = await bob.get_entity("@" + name)
        await bob(functions.channels.JoinChannelRequest(bob_group))
        rules = await alice.send_message(group, "the rules")

        # pin_message answers the service message (Telethon pins silently unless notify=True).
        service = await alice.pin_message(group, rules)
        report["service"] = [type(service).__name__, type(getattr(service, "action", None)).__name__,
                             getattr(service, "reply_to_msg_id", None) == rules.id, bool(getattr(service, "silent", False))]
        update = await bob_inbox.wait("channel_pin", lambda u: u.pinned)
        report["bob_channel_pin"] = [update.channel_id == group.id, update.messages == [rules.id], update.pinned]
        full = await bob(functions.channels.GetFullChannelRequest(bob_group))
        report["bob_pinned_msg_id"] = full.full_chat.pinned_msg_id == rules.id
        seen = await bob.get_messages(bob_group, ids=rules.id)
        report["bob_sees_flag"] = bool(seen.pinned)
        pinned = await bob.get_messages(bob_group, filter=types.InputMessagesFilterPinned(), limit=10)
        report["bob_pinned_list"] = [m.raw_text for m in pinned]

        # A private chat: Alice pins for both; Bob pins one-sidedly.
        bob_as_alice_sees = types.InputPeerUser(me_bob.id, me_bob.access_hash)
        hello = await alice.send_message(bob_as_alice_sees, "hello Bob")
        service = await alice.pin_message(bob_as_alice_sees, hello, pm_oneside=False)
        report["private_service"] = type(getattr(service, "action", None)).__name__
        update = await bob_inbox.wait("pin", lambda u: u.pinned)
        report["bob_private_pin"] = [isinstance(update.peer, types.PeerUser) and update.peer.user_id == me_alice.id,
                                     len(update.messages) == 1]
        full_user = await bob(functions.users.GetFullUserRequest(me_alice.id))
        report["bob_user_pinned"] = full_user.full_user.pinned_msg_id == update.messages[0]
        answer = await bob(functions.messages.UpdatePinnedMessageRequest(
            peer=me_alice.id, id=update.messages[0], unpin=True, pm_oneside=True))
        report["bob_one_sided_unpin"] = [type(u).__name__ for u in answer.updates]
        full_user = await alice(functions.users.GetFullUserRequest(me_bob.id))
        report["alice_still_pinned"] = full_user.full_user.pinned_msg_id == hello.id

        # Unpin everything in the supergroup (Telethon: unpin_message without a message).
        await alice.unpin_message(group)
        update = await bob_inbox.wait("channel_pin", lambda u: not u.pinned)
        report["bob_channel_unpin"] = update.messages == [rules.id]

        # Restricted from pinning: CHAT_ADMIN_REQUIRED.
        await alice.edit_permissions(group, me_bob.id, pin_messages=False)
        try:
            await bob.pin_message(bob_group, rules)
            report["restricted"] = None
        except errors.RPCError as error:
            report["restricted"] = type(error).__name__
    finally:
        await alice.disconnect()
        await bob.disconnect()
    return report


if __name__ == "__main__":
    script_main(run)
