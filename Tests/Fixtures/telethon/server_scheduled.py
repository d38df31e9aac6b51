"""Telethon 1.45.0 schedules messages on tg-server (core.telegram.org "Scheduled messages").

Alice schedules "in two seconds" for Bob with Telethon's send_message(..., schedule=...) (messages.sendMessage with
schedule_date): the answer is the scheduled message (from updateNewScheduledMessage), listed by
messages.getScheduledHistory, and Bob has nothing yet. She schedules "next week" and deletes it
(messages.deleteScheduledMessages). When the first one's time comes Bob gets it live as a normal message and Alice
gets updateDeleteScheduledMessages naming the id it was sent as; her scheduled list is then empty. A date more than
365 days ahead is refused with SCHEDULE_DATE_TOO_LATE.

Usage: server_scheduled.py --host H --port P --pem-file F --workdir DIR [--tag T]
Prints one JSON object on stdout; exits non-zero on any failure (a wait that times out included).
"""
import datetime
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from event_inbox import Inbox  # noqa: E402 (Tests/Fixtures/event_inbox.py)

from telethon import errors, events, functions, types

from server_peer import script_main, sign_up_all

WAIT = 20


async def run(args):
    report = {}
    (alice, me_alice), (bob, me_bob) = await sign_up_all(args, ["Alice", "Bob"])
    try:
        alice_inbox = Inbox(WAIT)
        bob_inbox = Inbox(WAIT)

        @alice.on(events.Raw(types.UpdateDeleteScheduledMessages))
        async def on_deleted(update):
            alice_inbox.add("deleted", update)

        @bob.on(events.NewMessage(incoming=True))
        async def on_message(event):
            bob_inbox.add("message", event.message)

        # Telethon reads an account pts of 0 as "no state"; a note to himself moves Bob's.
        await bob.send_message("me", "note to self")
        bob_for_alice = types.InputPeerUser(me_bob.id, me_bob.access_hash)
        alice_for_bob = types.InputPeerUser(me_alice.id, me_alice.access_hash)
        now = datetime.datetime.now(datetime.timezone.utc)
        soon = await alice.send_message(bob_for_alice, "in two seconds", schedule=now + datetime.timedelta(seconds=2))
        report["scheduled"] = [type(soon).__name__, bool(soon.from_scheduled), bool(soon.out)]
        later = await alice.send_message(bob_for_alice, "next week", schedule=now + datetime.timedelta(days=7))
        listed = await alice(functions.messages.GetScheduledHistoryRequest(peer=bob_for_alice, hash=0))
        report["listed"] = sorted(m.message for m in listed.messages)
        report["bob_before"] = [m.message for m in await bob.get_messages(alice_for_bob, limit=10)]
        await alice(functions.messages.DeleteScheduledMessagesRequest(peer=bob_for_alice, id=[later.id]))
        listed = await alice(functions.messages.GetScheduledHistoryRequest(peer=bob_for_alice, hash=0))
        report["after_delete"] = [m.message for m in listed.messages]
        try:
            await alice.send_message(bob_for_alice, "far", schedule=now + datetime.timedelta(days=400))
            report["too_late"] = None
        except errors.RPCError as error:
            report["too_late"] = type(error).__name__

        got = await bob_inbox.wait("message", lambda m: m.message == "in two seconds")
        report["bob_got"] = [got.message, bool(got.out)]
        deleted = await alice_inbox.wait("deleted", lambda u: soon.id in u.messages)
        sent = await alice.get_messages(bob_for_alice, limit=1)
        report["alice_deleted"] = [list(deleted.messages) == [soon.id], list(deleted.sent_messages or []) == [sent[0].id],
                                   sent[0].message]
        listed = await alice(functions.messages.GetScheduledHistoryRequest(peer=bob_for_alice, hash=0))
        report["finally"] = [m.message for m in listed.messages]
        return report
    finally:
        await alice.disconnect()
        await bob.disconnect()


if __name__ == "__main__":
    script_main(run)
