"""Telethon 1.45.0 sending a poll, a location, a contact and a die to one of our accounts, voting in its poll, and
seeing it vote in ours.

Signs up, finds the target by its number and sends it a poll ("Ăn gì?": Phở, Bún chả, Bánh mì), a location, a contact
and a 🎲; prints {"user_id": N, "poll": ID, "poll_id": POLL, "geo": ID, "contact": ID, "dice": ID, "dice_value": V} on a
line of its own. Waits (at most --wait seconds) for the target's poll, votes for its second answer
(messages.sendVote, which makes tg-server push updateMessagePoll to the target) and prints {"voted": ID, "question":
Q}. Then waits for updateMessagePoll on its own poll with a vote in it (events.Raw: the target voted), asks for the
results (messages.getPollResults) and prints the final report: {"pushed": [COUNTS], "fetched": [COUNTS],
"chosen": [BOOLS]}.

Usage: poll_peer.py --host H --port P --pem-file F --phone 99966XYYYY --target-phone 99966XYYYY [--wait S]
Prints three JSON lines on stdout; exits non-zero on any failure (a wait that times out included).
"""
import asyncio
import json

from telethon import events, functions, types

from peer_client import connect, sign_up, peer_main, import_target


def counts(results):
    """The voters of each answer of a PollResults, in the answers' order."""
    return [r.voters or 0 for r in (results.results or [])]


async def run(args):
    client = await connect(args.host, args.port, args.pem_file, args.phone)
    try:
        me = await sign_up(client, args.phone, "Remy")
        target = await import_target(client, args.target_phone)
        polls = asyncio.Queue()
        voted = asyncio.Queue()

        @client.on(events.NewMessage(chats=[target.id], incoming=True))
        async def on_message(event):
            if isinstance(event.message.media, types.MessageMediaPoll):
                polls.put_nowait(event.message)

        answers = [types.PollAnswer(types.TextWithEntities(text, []), str(i).encode())
                   for i, text in enumerate(["Phở", "Bún chả", "Bánh mì"])]
        poll = types.Poll(id=0, question=types.TextWithEntities("Ăn gì?", []), answers=answers, hash=0)
        sent_poll = await client.send_message(target, file=types.InputMediaPoll(poll=poll))
        geo = await client.send_message(
            target, file=types.InputMediaGeoPoint(types.InputGeoPoint(lat=21.0285, long=105.8542)))
        contact = await client.send_message(
            target, file=types.InputMediaContact(phone_number="+84 24 3825 5555", first_name="Lan", last_name="Trần",
                                                 vcard=""))
        dice = await client.send_message(target, file=types.InputMediaDice(emoticon="🎲"))
        poll_id = sent_poll.media.poll.id

        @client.on(events.Raw(types.UpdateMessagePoll))
        async def on_poll(update):
            if update.poll_id == poll_id and sum(counts(update.results)) > 0:
                voted.put_nowait(update.results)

        print(json.dumps({"user_id": me.id, "poll": sent_poll.id, "poll_id": poll_id, "geo": geo.id,
                          "contact": contact.id, "dice": dice.id, "dice_value": dice.media.value}), flush=True)
        theirs = await asyncio.wait_for(polls.get(), args.wait)
        option = theirs.media.poll.answers[1].option
        await client(functions.messages.SendVoteRequest(peer=target, msg_id=theirs.id, options=[option]))
        print(json.dumps({"voted": theirs.id, "question": theirs.media.poll.question.text}), flush=True)
        pushed = await asyncio.wait_for(voted.get(), args.wait)
        fetched = await client(functions.messages.GetPollResultsRequest(peer=target, msg_id=sent_poll.id, poll_hash=0))
        update = next(u for u in fetched.updates if isinstance(u, types.UpdateMessagePoll))
        return {"pushed": counts(pushed), "fetched": counts(update.results),
                "chosen": [bool(r.chosen) for r in update.results.results]}
    finally:
        await client.disconnect()


if __name__ == "__main__":
    peer_main(run)
