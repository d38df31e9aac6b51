"""Telethon 1.45.0 reacting to one of our accounts' messages, and seeing that account react back.

Signs up, finds the target by its number, writes "react to me" and prints {"user_id": N, "hi": ID} on a line of its
own; waits (at most --wait seconds) for the target's next two messages and reacts to the first with 👍
(messages.sendReaction, which makes tg-server push updateMessageReactions to the target; the second message says the
target has the first stored, so the push cannot overtake it) and prints {"reacted": ID, "text": T}. Then waits for
updateMessageReactions on our "react to me" (events.Raw: the target reacted), asks for the message's reactions
(messages.getMessagesReactions) and prints the final report: {"pushed": [[EMOJI, COUNT, CHOSEN_ORDER]], "fetched":
[[EMOJI, COUNT, CHOSEN_ORDER]], "recent": [USER_IDS]}.

Usage: reaction_peer.py --host H --port P --pem-file F --phone 99966XYYYY --target-phone 99966XYYYY [--wait S]
Prints three JSON lines on stdout; exits non-zero on any failure (a wait that times out included).
"""
import asyncio
import json

from telethon import events, functions, types

from peer_client import connect, sign_up, peer_main, import_target


def counts(reactions):
    """[[emoji, count, chosen_order]] of a MessageReactions."""
    return [[r.reaction.emoticon, r.count, r.chosen_order] for r in reactions.results]


async def run(args):
    client = await connect(args.host, args.port, args.pem_file, args.phone)
    try:
        me = await sign_up(client, args.phone, "Remy")
        target = await import_target(client, args.target_phone)
        incoming = asyncio.Queue()
        reacted = asyncio.Queue()

        @client.on(events.NewMessage(chats=[target.id], incoming=True))
        async def on_message(event):
            incoming.put_nowait(event.message)

        hi = await client.send_message(target, "react to me")

        @client.on(events.Raw(types.UpdateMessageReactions))
        async def on_reactions(update):
            if update.msg_id == hi.id and update.reactions.results:
                reacted.put_nowait(update.reactions)

        print(json.dumps({"user_id": me.id, "hi": hi.id}), flush=True)
        message = await asyncio.wait_for(incoming.get(), args.wait)
        await asyncio.wait_for(incoming.get(), args.wait)
        await client(functions.messages.SendReactionRequest(
            peer=target, msg_id=message.id, reaction=[types.ReactionEmoji(emoticon="👍")]))
        print(json.dumps({"reacted": message.id, "text": message.message}), flush=True)
        pushed = await asyncio.wait_for(reacted.get(), args.wait)
        fetched = await client(functions.messages.GetMessagesReactionsRequest(peer=target, id=[hi.id]))
        update = next(u for u in fetched.updates if isinstance(u, types.UpdateMessageReactions))
        recent = [r.peer_id.user_id for r in (update.reactions.recent_reactions or [])]
        return {"pushed": counts(pushed), "fetched": counts(update.reactions), "recent": recent}
    finally:
        await client.disconnect()


if __name__ == "__main__":
    peer_main(run)
