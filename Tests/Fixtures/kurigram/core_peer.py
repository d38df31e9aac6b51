"""kurigram 2.2.26 (a Pyrogram-family client: `import pyrogram`) on the other side of one of our accounts.

One kurigram account, Kira, and our account (the target) go through presence, typing, read receipts, reactions,
drafts, notify settings, a scheduled message, forwards, contacts and blocking in one run. Kira prints one JSON line
per step, {"step": name, ...}, once she has seen what our account did in that step; where she must wait for our
account and nothing reaches her to say so, she waits for the file named after the cue in --cues (written by the
test). Every wait lasts at most --wait seconds.

Steps, in order (what Kira does; what she waits for):
- hello: import_contacts with the target's number, get_contacts, send_message "hi", update_status (online);
  prints her id, the target's, "hi"'s id and her contacts.
- presence: waits for the target's status pushed online, then offline (raw UpdateUserStatus); get_users then reads
  the target's status; update_status(offline=True).
- typing (after the cue "type"): send_chat_action TYPING (every 3 s, as clients repeat it) until the target's
  typing arrives (raw UpdateUserTyping).
- read: waits for the target's "read me", read_chat_history; then waits for raw UpdateReadHistoryOutbox past "hi".
- reactions (after the cue "react"): send_reaction 👍 on "read me"; waits for raw UpdateMessageReactions on "hi",
  then get_messages reads its reactions.
- drafts: raw messages.SaveDraft to the target, then messages.GetAllDrafts.
- notify: update_chat_notifications (muted for an hour, no previews), then raw account.GetNotifySettings.
- scheduled: send_message "later" with schedule_date 4 s ahead, get_scheduled_messages; waits for raw
  UpdateDeleteScheduledMessages at its time, then reads the scheduled list and the chat's last message again.
- forwards: forward_messages of "read me" back to the target; waits for the target's forward of "hi".
- blocked: block_user and get_blocked_message_senders.
- unblocked (after the cue "unblock"): unblock_user, get_blocked_message_senders.
- deleted: delete_contacts of the target twice: the user the first time, None the second (nothing changed).
- back: waits for the target's "back".

Connection and key set-up as in server_chat.py.

Usage: core_peer.py --host H --ports 1=P,2=P,3=P --pem-file F --workdir DIR --cues DIR --phone 99966XYYYY
                    --target-phone 99966XYYYY [--wait S]
Prints one JSON line per step on stdout; exits non-zero on any failure (a wait that times out included).
"""
import argparse
import asyncio
import datetime
import json
import logging
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from event_inbox import Inbox  # noqa: E402 (Tests/Fixtures/event_inbox.py)
from server_chat import make_client, sign_up, trust_key  # noqa: E402 (Tests/Fixtures/kurigram)

from pyrogram import enums, filters, raw, types  # noqa: E402
from pyrogram.handlers import MessageHandler, RawUpdateHandler  # noqa: E402


def say(step, **fields):
    print(json.dumps(dict(step=step, **fields)), flush=True)


async def cue(args, name):
    """Waits until the test writes the file `name` into --cues."""
    path = os.path.join(args.cues, name)
    deadline = asyncio.get_running_loop().time() + args.wait
    while not os.path.exists(path):
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError("no cue %r within %d s" % (name, args.wait))
        await asyncio.sleep(0.1)


def watch(client, wait):
    """Kira's raw updates ("raw") and incoming messages ("new")."""
    inbox = Inbox(wait)

    async def on_raw(_, update, users, chats):
        inbox.add("raw", update)

    async def on_new(_, message):
        inbox.add("new", message)

    # A group of its own: in one group, only the first handler that matches an update runs.
    client.add_handler(RawUpdateHandler(on_raw), group=1)
    client.add_handler(MessageHandler(on_new, filters.incoming))
    return inbox


def reactions(message):
    return [[r.emoji, r.count, r.chosen_order] for r in (message.reactions.reactions if message.reactions else [])]


async def run(args):
    trust_key(args.pem_file)
    kira = make_client(args, "kira")
    try:
        me = await sign_up(kira, args.phone, "Kira")
        inbox = watch(kira, args.wait)

        imported = await kira.import_contacts([types.InputPhoneContact(args.target_phone, "Ann")])
        target = imported.users[0].id
        contacts = await kira.get_contacts()
        hi = await kira.send_message(target, "hi")
        await kira.update_status()
        say("hello", user_id=me.id, target=target, hi=hi.id,
            imported=[type(imported).__name__, len(imported.imported)],
            contacts=[[u.id, u.first_name, u.is_contact] for u in contacts])

        def raw_from_target(kind, predicate=lambda u: True):
            return inbox.wait("raw", lambda u: isinstance(u, kind) and predicate(u))

        # Presence: the target's online then offline, pushed; then read back.
        online = await raw_from_target(
            raw.types.UpdateUserStatus, lambda u: u.user_id == target and isinstance(u.status, raw.types.UserStatusOnline))
        offline = await raw_from_target(
            raw.types.UpdateUserStatus,
            lambda u: u.user_id == target and isinstance(u.status, raw.types.UserStatusOffline))
        user = await kira.get_users(target)
        await kira.update_status(offline=True)
        say("presence", pushed=[online.status.expires > 0, offline.status.was_online],
            status=user.status.name if user.status else None,
            last_online=int(user.last_online_date.timestamp()) if user.last_online_date else None)

        # Typing: Kira's until the target's arrives. Not before the cue: typing is activity, which would bring her
        # back online before the test has seen her offline.
        await cue(args, "type")

        async def keep_typing():
            while True:
                await kira.send_chat_action(target, enums.ChatAction.TYPING)
                await asyncio.sleep(3)

        typing = asyncio.ensure_future(keep_typing())
        try:
            typed = await raw_from_target(raw.types.UpdateUserTyping, lambda u: u.user_id == target)
        finally:
            typing.cancel()
        await kira.send_chat_action(target, enums.ChatAction.CANCEL)
        say("typing", action=type(typed.action).__name__)

        # Read receipts both ways.
        read_me = await inbox.wait("new", lambda m: m.text == "read me")
        read = await kira.read_chat_history(target)
        outbox = await raw_from_target(
            raw.types.UpdateReadHistoryOutbox,
            lambda u: isinstance(u.peer, raw.types.PeerUser) and u.peer.user_id == target and u.max_id >= hi.id)
        say("read", read_me=read_me.id, read=read, outbox_max_id=outbox.max_id)

        # Reactions both ways.
        await cue(args, "react")
        sent_reaction = await kira.send_reaction(target, read_me.id, emoji="👍")
        pushed = await raw_from_target(raw.types.UpdateMessageReactions, lambda u: u.msg_id == hi.id)
        got = await kira.get_messages(target, hi.id)
        say("reactions", sent=sent_reaction, pushed=[[type(r.reaction).__name__, r.count]
                                                      for r in pushed.reactions.results], fetched=reactions(got))

        # A draft: saved, then listed.
        peer = await kira.resolve_peer(target)
        saved = await kira.invoke(raw.functions.messages.SaveDraft(peer=peer, message="a draft"))
        drafts = await kira.invoke(raw.functions.messages.GetAllDrafts())
        say("drafts", saved=saved, answer=type(drafts).__name__,
            drafts=[[type(u).__name__, u.peer.user_id, type(u.draft).__name__, getattr(u.draft, "message", None)]
                    for u in drafts.updates])

        # Notify settings: muted for an hour without previews, then read back.
        mute_until = datetime.datetime.now() + datetime.timedelta(hours=1)
        updated = await kira.update_chat_notifications(target, mute=True, mute_until=mute_until, show_previews=False)
        settings = await kira.invoke(raw.functions.account.GetNotifySettings(peer=raw.types.InputNotifyPeer(peer=peer)))
        say("notify", updated=updated, answer=type(settings).__name__, mute_until=settings.mute_until,
            asked=int(mute_until.timestamp()), show_previews=settings.show_previews, silent=settings.silent)

        # A scheduled message: kurigram parses the answer (updateNewScheduledMessage) and lists it.
        at = datetime.datetime.now().replace(microsecond=0) + datetime.timedelta(seconds=4)
        later = await kira.send_message(target, "later", schedule_date=at)
        listed = await kira.get_scheduled_messages(target)
        # At its time the message leaves the scheduled list (updateDeleteScheduledMessages naming what it became)
        # and is the chat's last, Kira's own, dated then.
        gone = await raw_from_target(raw.types.UpdateDeleteScheduledMessages, lambda u: later.id in u.messages)
        left = await kira.get_scheduled_messages(target)
        last = [m async for m in kira.get_chat_history(target, limit=1)][0]
        say("scheduled", date=int(at.timestamp()), sent=[later.text, int(later.date.timestamp()), later.scheduled],
            listed=[[m.id, m.text] for m in listed], sent_as=gone.sent_messages, left=len(left),
            last=[last.id, last.text, last.outgoing, int(last.date.timestamp())])

        # Forwards both ways.
        forwarded = await kira.forward_messages(target, target, read_me.id)
        back = await inbox.wait("new", lambda m: m.forward_origin is not None)
        origin = lambda m: [type(m.forward_origin).__name__, getattr(m.forward_origin, "sender_user", None) and
                            m.forward_origin.sender_user.id, int(m.forward_origin.date.timestamp())]
        say("forwards", forwarded=[forwarded.text] + origin(forwarded), original_date=int(read_me.date.timestamp()),
            got=[back.text] + origin(back), hi_date=int(hi.date.timestamp()))

        # Blocking: the target's send is refused while it lasts (the test's side).
        blocked = await kira.block_user(target)
        say("blocked", blocked=blocked, senders=[c.id async for c in kira.get_blocked_message_senders()])
        await cue(args, "unblock")
        unblocked = await kira.unblock_user(target)
        say("unblocked", unblocked=unblocked, senders=[c.id async for c in kira.get_blocked_message_senders()])
        got_back = await inbox.wait("new", lambda m: m.text == "back")
        say("back", sender=got_back.from_user.id)

        # delete_contacts answers the user removed, and None when nothing changed (the answer has no updates).
        deleted = await kira.delete_contacts(target)
        again = await kira.delete_contacts(target)
        say("deleted", first=[deleted.id, deleted.is_contact] if deleted else None, again=again)
    finally:
        if kira.is_connected:
            try:
                await asyncio.wait_for(kira.stop(), args.wait)
            except Exception as error:  # the steps (or the error that ended them) matter, not a clean stop
                print("stopping: %r" % error, file=sys.stderr)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", required=True)
    parser.add_argument("--ports", required=True, help="1=P,2=P,3=P")
    parser.add_argument("--pem-file", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--cues", required=True)
    parser.add_argument("--phone", required=True)
    parser.add_argument("--target-phone", required=True)
    parser.add_argument("--wait", type=float, default=30)
    args = parser.parse_args()
    args.ports = {int(dc): int(port) for dc, port in (item.split("=") for item in args.ports.split(","))}
    os.chdir(args.workdir)  # kurigram writes unknown_errors.txt into the current folder
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
