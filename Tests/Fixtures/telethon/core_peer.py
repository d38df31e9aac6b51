"""Telethon 1.45.0 as a third user writing to one of our accounts (the Core tests and benchmarks).

--mode groups: signs up, finds the target by its number, creates --chats basic groups with it (messages.createChat)
and sends --per-chat messages into each, --concurrency at a time (while our account is offline).
--mode direct: sends --count messages to the target directly, --interval seconds apart (live delivery).

Usage: core_peer.py --host H --port P --pem-file F --phone 99966XYYYY --target-phone 99966XYYYY --mode groups|direct
Prints one JSON object on stdout; exits non-zero on any failure.
"""
import asyncio
import json
import time

from telethon import functions, types

from peer_client import connect, peer_arguments, sign_up, import_target


async def run(args):
    client = await connect(args.host, args.port, args.pem_file, args.phone)
    report = {}
    try:
        me = await sign_up(client, args.phone, "Tess")
        report["user_id"] = me.id
        target = await import_target(client, args.target_phone)
        report["target_id"] = target.id
        started = time.monotonic()
        sent = 0
        if args.mode == "groups":
            chat_ids = []
            for index in range(args.chats):
                created = await client(functions.messages.CreateChatRequest(users=[target], title="chat %d" % index))
                chat_ids.append(created.updates.chats[0].id)
            report["chat_ids"] = chat_ids
            peers = [types.InputPeerChat(chat_id) for chat_id in chat_ids]
            jobs = [(peer, "msg %d of %s" % (number, peer.chat_id)) for number in range(args.per_chat) for peer in peers]
            for start in range(0, len(jobs), args.concurrency):
                batch = jobs[start:start + args.concurrency]
                await asyncio.gather(*(client.send_message(peer, text) for peer, text in batch))
                sent += len(batch)
        else:
            for number in range(args.count):
                await client.send_message(target, "live %d" % number)
                sent += 1
                await asyncio.sleep(args.interval)
        report["sent"] = sent
        report["seconds"] = time.monotonic() - started
    finally:
        await client.disconnect()
    return report


def main():
    parser = peer_arguments()
    parser.add_argument("--mode", choices=["groups", "direct"], required=True)
    parser.add_argument("--chats", type=int, default=50)
    parser.add_argument("--per-chat", type=int, default=100)
    parser.add_argument("--concurrency", type=int, default=100)
    parser.add_argument("--count", type=int, default=5)
    parser.add_argument("--interval", type=float, default=0.1)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    main()
