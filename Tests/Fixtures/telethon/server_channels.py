"""Telethon 1.45.0 in supergroups and broadcast channels on tg-server.

Alice creates a supergroup and a broadcast channel and makes both public; Bob finds each by its username and joins.
Posts arrive live both ways in the supergroup (events.NewMessage); a broadcast post reaches Bob without an author and
with views; Bob may not post there. Then Bob goes offline while Alice posts --count messages in the supergroup; Bob
comes back with his saved session (catch_up=True) and calls catch_up(): updates.getDifference names the supergroup
(updateChannelTooLong), Telethon fetches updates.getChannelDifference in pages of 100 and hands Bob every post once,
in order; the next post then arrives live.

Usage: server_channels.py --host H --port P --pem-file F --workdir DIR [--tag T] [--count N]
Prints one JSON object on stdout; exits non-zero on any failure.
"""
import asyncio
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from event_inbox import Inbox  # noqa: E402 (Tests/Fixtures/event_inbox.py)

from telethon import events, errors, functions, types
from telethon._updates import messagebox

from server_peer import load_key, script_main, sign_up
from server_peer import make_client as make_shared_client


def make_client(args, name):
    # catch_up=True: the offline member catches up with Telethon's own catch_up().
    return make_shared_client(args, name, catch_up=True)


WAIT = 20


def watch(client):
    inbox = Inbox(WAIT)

    @client.on(events.NewMessage())
    async def on_new(event):
        inbox.add("new", event.message)

    return inbox


async def run(args):
    load_key(args)
    alice_phone, bob_phone = "99966200" + args.tag, "99966201" + args.tag
    alice = make_client(args, "alice")
    bob = make_client(args, "bob")
    await alice.connect()
    await bob.connect()
    report = {}
    try:
        await sign_up(alice, alice_phone, "Alice")
        me_bob = await sign_up(bob, bob_phone, "Bob")
        alice_inbox, bob_inbox = watch(alice), watch(bob)
        # Telethon 1.45 reads an account pts of 0 as "no saved state" (messagebox NO_SEQ) and then starts afresh,
        # dropping the channel states it saved too; everything Bob gets below is in channels, which leaves his
        # account pts at 0 (tg-server starts it there), so a note to himself first moves it.
        await bob.send_message("me", "note to self")

        created = await alice(functions.channels.CreateChannelRequest(title="Supergroup", about="talk", megagroup=True))
        group = created.chats[0]
        created = await alice(functions.channels.CreateChannelRequest(title="News", about="posts", broadcast=True))
        news = created.chats[0]
        report["created"] = [[c.megagroup, c.broadcast, c.creator, c.title] for c in (group, news)]
        group_name, news_name = "group_" + args.tag, "news_" + args.tag
        report["username_set"] = [
            await alice(functions.channels.UpdateUsernameRequest(group, group_name)),
            await alice(functions.channels.UpdateUsernameRequest(news, news_name)),
        ]

        # Bob finds both by username, with his own access hashes, and joins.
        bob_group = await bob.get_entity("@" + group_name)
        bob_news = await bob.get_entity("@" + news_name)
        report["bob_found"] = [bob_group.id == group.id, bob_news.id == news.id, bob_group.left,
                               bob_group.access_hash != group.access_hash]
        await bob(functions.channels.JoinChannelRequest(bob_group))
        await bob(functions.channels.JoinChannelRequest(bob_news))
        full = await bob(functions.channels.GetFullChannelRequest(bob_group))
        report["participants"] = full.full_chat.participants_count

        # Live, both ways, in the supergroup.
        await alice.send_message(group, "hello group")
        got = await bob_inbox.wait("new", lambda m: m.raw_text == "hello group")
        report["bob_got"] = [got.raw_text, got.sender_id, got.chat_id, got.id]
        await bob.send_message(bob_group, "hi from bob")
        got = await alice_inbox.wait("new", lambda m: m.raw_text == "hi from bob")
        report["alice_got"] = [got.raw_text, got.sender_id == me_bob.id, got.out]

        # A broadcast post: no author, views; Bob may not post.
        await alice.send_message(news, "breaking news")
        got = await bob_inbox.wait("new", lambda m: m.raw_text == "breaking news")
        report["bob_got_post"] = [got.post, got.from_id is None, got.views is not None]
        try:
            await bob.send_message(bob_news, "may I?")
            report["bob_post_refused"] = None
        except errors.ChatWriteForbiddenError as error:
            report["bob_post_refused"] = type(error).__name__
        history = await bob.get_messages(bob_group, limit=10)
        report["bob_history"] = [m.raw_text for m in reversed(history) if m.raw_text]
        dialogs = await bob.get_dialogs()
        report["bob_dialogs"] = sorted(d.name for d in dialogs if d.is_channel)

        # Members and rights through Telethon's own helpers (channels.getParticipants pages, channels.editAdmin).
        report["participants_names"] = sorted(u.first_name for u in await alice.get_participants(group))
        await alice.edit_admin(group, me_bob.id, delete_messages=True, title="mod")
        admins = await alice.get_participants(group, filter=types.ChannelParticipantsAdmins())
        report["admins"] = sorted(
            [u.first_name, type(u.participant).__name__, getattr(u.participant, "rank", None)] for u in admins)
        try:
            await bob.edit_admin(bob_group, me_bob.id, add_admins=True)
            report["bob_promoting_himself"] = None
        except errors.RPCError as error:
            report["bob_promoting_himself"] = type(error).__name__
    finally:
        await alice.disconnect()
        await bob.disconnect()

    # Bob offline; Alice posts; Bob comes back and catches up on the supergroup.
    alice = make_client(args, "alice")
    await alice.connect()
    try:
        group = await alice.get_entity(group.id)
        for n in range(args.count):
            await alice.send_message(group, "offline %d" % n)
        bob = make_client(args, "bob")
        seen = []

        @bob.on(events.NewMessage(chats=group.id))
        async def on_catch_up(event):
            seen.append(event.message.raw_text)

        # Count the updates.getChannelDifference requests Telethon's MessageBox makes (only Bob has a gap).
        requests = []
        fetch = messagebox.MessageBox.get_channel_difference

        def counted(self, chat_hashes):
            request = fetch(self, chat_hashes)
            if request is not None:
                requests.append([request.channel.channel_id, request.pts])
            return request

        messagebox.MessageBox.get_channel_difference = counted
        await bob.connect()
        # catch_up: updates.getDifference names the supergroup (updateChannelTooLong), and Telethon fetches its
        # updates.getChannelDifference pages.
        await bob.catch_up()
        deadline = asyncio.get_running_loop().time() + 60
        while len(seen) < args.count and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.2)
        report["caught_up_before_live"] = len(seen)
        await alice.send_message(group, "back online")
        while (not seen or seen[-1] != "back online") and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.2)
        expected = ["offline %d" % n for n in range(args.count)] + ["back online"]
        report["caught_up"] = len(seen)
        report["caught_up_in_order"] = seen == expected
        report["caught_up_head"] = seen[:3]
        report["caught_up_tail"] = seen[-2:]
        report["difference_requests"] = [pts for channel, pts in requests if channel == group.id]
        report["other_difference_requests"] = [channel for channel, pts in requests if channel != group.id]
        await bob.disconnect()
    finally:
        await alice.disconnect()
    return report


if __name__ == "__main__":
    script_main(run, lambda parser: parser.add_argument("--count", type=int, default=300))
