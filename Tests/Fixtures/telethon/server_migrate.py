"""Telethon 1.45.0 migrates a basic group to a supergroup on tg-server (messages.migrateChat).

Alice makes a basic group with Bob, who writes there; Alice migrates it. Bob finds the supergroup among his dialogs
(with the group's title, Alice its creator), sees where it came from (migrated_from_chat_id) and that the group is
deactivated and migrated to it; his next message goes to the supergroup, where Alice's client gets it live; the old
group refuses him with ChatIdInvalidError.

Usage: server_migrate.py --host H --port P --pem-file F --workdir DIR [--tag T]
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

    @client.on(events.NewMessage())
    async def on_new(event):
        inbox.add("new", event.message)

    return inbox


async def run(args):
    report = {}
    (alice, _), (bob, me_bob) = await sign_up_all(args, ["Alice", "Bob"])
    try:
        alice_inbox = watch(alice)
        bob_input = types.InputUser(me_bob.id, me_bob.access_hash)
        created = await alice(functions.messages.CreateChatRequest(users=[bob_input], title="Club"))
        updates = getattr(created, "updates", created)
        chat = updates.chats[0]
        await bob.get_dialogs()
        await bob.send_message(types.PeerChat(chat.id), "before")

        migrated = await alice(functions.messages.MigrateChatRequest(chat.id))
        channel = next(c for c in migrated.chats if isinstance(c, types.Channel))
        old = next(c for c in migrated.chats if isinstance(c, types.Chat))
        report["migrated"] = [channel.megagroup, channel.creator, channel.title, bool(old.deactivated),
                              old.migrated_to.channel_id == channel.id]
        actions = [type(u.message.action).__name__ for u in migrated.updates
                   if isinstance(u, (types.UpdateNewChannelMessage, types.UpdateNewMessage))
                   and isinstance(u.message, types.MessageService)]
        report["actions"] = actions

        dialogs = await bob.get_dialogs()
        bob_channel = next(d.entity for d in dialogs if d.is_channel and d.entity.id == channel.id)
        report["bob_sees"] = [bob_channel.title, bool(bob_channel.megagroup), bool(bob_channel.creator)]
        full = await bob(functions.channels.GetFullChannelRequest(bob_channel))
        report["bob_migrated_from"] = full.full_chat.migrated_from_chat_id == chat.id
        await bob.send_message(bob_channel, "after")
        got = await alice_inbox.wait("new", lambda m: m.raw_text == "after")
        report["alice_got"] = got.chat_id == -1000000000000 - channel.id
        try:
            await bob.send_message(types.PeerChat(chat.id), "too late")
            report["old_group"] = None
        except errors.RPCError as error:
            report["old_group"] = type(error).__name__
    finally:
        await alice.disconnect()
        await bob.disconnect()
    return report


if __name__ == "__main__":
    script_main(run)
