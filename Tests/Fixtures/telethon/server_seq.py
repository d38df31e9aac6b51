"""Telethon 1.45.0 in tg-server's seq sequence, and anonymous forwards (core.telegram.org "Working with updates",
"Privacy").

Alice is signed in twice (the listening client and "alice-other"). Both make changes that live in the seq sequence —
privacy, blocking, drafts, notify settings, a reset of two settings (one updatesCombined) — and the listening client
must receive every one of them, apply them without seeing a gap (Telethon's MessageBox starts a getDifference on a
seq gap; every updates.getDifference it makes is counted) and end with the server's seq. Then Bob hides his forwards
(inputPrivacyKeyForwards, disallow all), writes to Alice, Alice forwards it to Cid, and Cid's copy must name Bob by
from_name with no from_id.

Usage: server_seq.py --host H --port P --pem-file F --workdir DIR [--tag T]
Prints one JSON object on stdout; exits non-zero on any failure (a wait that times out included).
"""
import asyncio
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from event_inbox import Inbox  # noqa: E402 (Tests/Fixtures/event_inbox.py)

from telethon import events, functions, types
from telethon._updates import SessionState
from telethon._updates.messagebox import ENTRY_ACCOUNT

from server_peer import make_client, script_main, sign_up_all

WAIT = 20
SEQ_KINDS = (types.UpdatePrivacy, types.UpdatePeerBlocked, types.UpdateDraftMessage, types.UpdateNotifySettings)


async def run(args):
    report = {}
    (alice, me_alice), (bob, me_bob), (cid, me_cid) = await sign_up_all(args, ["Alice", "Bob", "Cid"])
    other = make_client(args, "alice-other")
    await other.connect()
    phone = "99966200%s" % args.tag
    sent = await other.send_code_request(phone)
    await other.sign_in(phone, phone[5] * 5, phone_code_hash=sent.phone_code_hash)
    try:
        # Telethon reads an account pts of 0 as "no state" and would not track the account: a note to herself moves
        # Alice's pts, and her client loads the state as it does at sign-in.
        await alice.send_message("me", "note to self")
        state = await alice(functions.updates.GetStateRequest())
        alice._message_box.load(
            SessionState(0, 0, 0, state.pts, state.qts, int(state.date.timestamp()), state.seq, 0), [])
        report["tracked"] = ENTRY_ACCOUNT in alice._message_box.map
        report["seq_before"] = alice._message_box.seq

        # Every updates.getDifference the client makes from now on (Telethon's MessageBox asks for one on a gap).
        differences = []
        call = alice._call

        async def counting(sender, request, *rest, **options):
            if isinstance(request, functions.updates.GetDifferenceRequest):
                differences.append(request.pts)
            return await call(sender, request, *rest, **options)

        alice._call = counting
        box = alice._message_box
        inbox = Inbox(WAIT)

        @alice.on(events.Raw(SEQ_KINDS))
        async def on_seq_update(update):
            inbox.add("seq", type(update).__name__)

        bob_for_alice = types.InputPeerUser(me_bob.id, me_bob.access_hash)
        for client in (alice, other, alice, other):
            await client(functions.account.SetPrivacyRequest(
                key=types.InputPrivacyKeyStatusTimestamp(), rules=[types.InputPrivacyValueAllowAll()]))
        await other(functions.contacts.BlockRequest(id=bob_for_alice))
        await alice(functions.contacts.UnblockRequest(id=bob_for_alice))
        await other(functions.messages.SaveDraftRequest(peer=bob_for_alice, message="draft"))
        await alice(functions.messages.SaveDraftRequest(peer=bob_for_alice, message=""))
        for peer in (types.InputNotifyUsers(), types.InputNotifyChats()):
            await other(functions.account.UpdateNotifySettingsRequest(
                peer=peer, settings=types.InputPeerNotifySettings(mute_until=2**31 - 1)))
        await alice(functions.account.ResetNotifySettingsRequest())
        expected = 4 + 2 + 2 + 2 + 2
        await inbox.wait("seq", lambda _: len([k for k, _ in inbox.items if k == "seq"]) >= expected)
        await asyncio.sleep(1)  # anything late or repeated would arrive now
        server = await alice(functions.updates.GetStateRequest())
        report["received"] = sorted(value for kind, value in inbox.items if kind == "seq")
        report["seq_after"] = box.seq
        report["server_seq"] = server.seq
        report["differences"] = differences

        # Anonymous forwarding: Bob hides the link to his account from everybody.
        await bob(functions.account.SetPrivacyRequest(
            key=types.InputPrivacyKeyForwards(), rules=[types.InputPrivacyValueDisallowAll()]))
        cid_inbox = Inbox(WAIT)

        @cid.on(events.NewMessage(incoming=True))
        async def on_message(event):
            cid_inbox.add("message", event.message)

        alice_for_bob = types.InputPeerUser(me_alice.id, me_alice.access_hash)
        await bob.send_message(alice_for_bob, "words of Bob")
        words = None
        for _ in range(100):
            words = next(iter(await alice.get_messages(bob_for_alice, limit=1)), None)
            if words is not None and words.message == "words of Bob":
                break
            await asyncio.sleep(0.1)
        await alice.forward_messages(types.InputPeerUser(me_cid.id, me_cid.access_hash), words)
        got = await cid_inbox.wait("message", lambda m: m.message == "words of Bob")
        report["forwarded"] = {
            "from_name": got.fwd_from.from_name if got.fwd_from else None,
            "from_id": None if not got.fwd_from or got.fwd_from.from_id is None else str(got.fwd_from.from_id),
        }
        return report
    finally:
        for client in (alice, other, bob, cid):
            await client.disconnect()


if __name__ == "__main__":
    script_main(run)
