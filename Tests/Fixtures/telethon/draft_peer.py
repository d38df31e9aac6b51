"""Telethon 1.45.0 as another device of one of our accounts, saving a draft there and seeing that account's drafts.

Signs in to the existing account --phone (code X five times), finds --target-phone's user, saves the draft
"from telethon" in that chat (messages.saveDraft, which tg-server pushes to the account's sessions, this one included, as
updateDraftMessage in the seq sequence) and prints {"user_id": N, "saved": TEXT} on a line of its own. Then waits (at most --wait seconds)
for updateDraftMessage naming that chat with another text (events.Raw: our client saved a draft), prints
{"seen": TEXT, "all_drafts": [TEXTS of messages.getAllDrafts]}; then waits for draftMessageEmpty in that chat (our
client sent a message there, which clears the draft) and prints the final report {"cleared": true, "dialog_draft": the
chat's dialog.draft text or null}.

Usage: draft_peer.py --host H --port P --pem-file F --phone 99966XYYYY --target-phone 99966XYYYY [--wait S]
Prints three JSON lines on stdout; exits non-zero on any failure (a wait that times out included).
"""
import asyncio
import json

from telethon import events, functions, types

from peer_client import connect, peer_main, import_target


async def run(args):
    client = await connect(args.host, args.port, args.pem_file, args.phone)
    try:
        sent = await client.send_code_request(args.phone)
        me = await client.sign_in(args.phone, args.phone[5] * 5, phone_code_hash=sent.phone_code_hash)
        target = await import_target(client, args.target_phone)
        changes = asyncio.Queue()

        @client.on(events.Raw(types.UpdateDraftMessage))
        async def on_draft(update):
            if isinstance(update.peer, types.PeerUser) and update.peer.user_id == target.id:
                changes.put_nowait(update.draft)

        await client(functions.messages.SaveDraftRequest(peer=target, message="from telethon"))
        print(json.dumps({"user_id": me.id, "saved": "from telethon"}), flush=True)

        # The server sends our own change back to this session too (it is in the account's seq sequence): skip it.
        seen = await asyncio.wait_for(changes.get(), args.wait)
        while not isinstance(seen, types.DraftMessage) or seen.message == "from telethon":
            seen = await asyncio.wait_for(changes.get(), args.wait)
        everything = await client(functions.messages.GetAllDraftsRequest())
        texts = [u.draft.message for u in everything.updates
                 if isinstance(u, types.UpdateDraftMessage) and isinstance(u.draft, types.DraftMessage)]
        print(json.dumps({"seen": seen.message, "all_drafts": texts}), flush=True)

        cleared = await asyncio.wait_for(changes.get(), args.wait)
        while not isinstance(cleared, types.DraftMessageEmpty):
            cleared = await asyncio.wait_for(changes.get(), args.wait)
        dialogs = await client(functions.messages.GetPeerDialogsRequest(peers=[target]))
        draft = dialogs.dialogs[0].draft
        return {"cleared": True, "dialog_draft": draft.message if isinstance(draft, types.DraftMessage) else None}
    finally:
        await client.disconnect()


if __name__ == "__main__":
    peer_main(run)
