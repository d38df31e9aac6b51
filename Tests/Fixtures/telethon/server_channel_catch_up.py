"""Telethon 1.45.0 as a supergroup member who is away while thousands of posts are made, then catches up with its own
catch_up() (updates.getDifference names the supergroup with updateChannelTooLong; Telethon's MessageBox then fetches
updates.getChannelDifference pages until the last is final).

Two phases, one session file in the work folder between them:
  --phase join      signs up Bob (9996620<0><tag>), finds the public supergroup @--username and joins it, writes a
                    note to himself (Telethon reads an account pts of 0 as "no state"), and disconnects, saving his
                    update state (catch_up=True). Prints {"user_id": n, "channel_id": n}.
  --phase catch-up  comes back with that session, calls catch_up() and collects every new message of the supergroup
                    until --count posts arrived (or 60 s passed). Prints {"ids": [...], "texts": [...],
                    "difference_requests": n, "seconds": s}: the posts in the order Telethon handed them over, how many
                    updates.getChannelDifference calls it made for the supergroup, and the time from connecting to the
                    last post.

Usage: server_channel_catch_up.py --host H --port P --pem-file F --workdir DIR [--tag T] --phase join|catch-up
                                  --username NAME [--count N]
"""
import asyncio
import time

from telethon import events, functions
from telethon._updates import messagebox

from server_peer import load_key, make_client, script_main, sign_up


async def join(args):
    load_key(args)
    bob = make_client(args, "bob", catch_up=True)
    await bob.connect()
    try:
        me = await sign_up(bob, "99966200" + args.tag, "Bob")
        await bob.send_message("me", "note to self")
        group = await bob.get_entity("@" + args.username)
        await bob(functions.channels.JoinChannelRequest(group))
        return {"user_id": me.id, "channel_id": group.id}
    finally:
        await bob.disconnect()


async def catch_up(args):
    load_key(args)
    bob = make_client(args, "bob", catch_up=True)
    ids, texts = [], []

    @bob.on(events.NewMessage())
    async def on_new(event):
        if event.message.raw_text.startswith("post "):
            ids.append(event.message.id)
            texts.append(event.message.raw_text)

    requests = []
    fetch = messagebox.MessageBox.get_channel_difference

    def counted(self, chat_hashes):
        request = fetch(self, chat_hashes)
        if request is not None:
            requests.append(request.channel.channel_id)
        return request

    messagebox.MessageBox.get_channel_difference = counted
    started = time.perf_counter()
    await bob.connect()
    try:
        await bob.catch_up()
        deadline = asyncio.get_running_loop().time() + 60
        while len(ids) < args.count and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
        seconds = time.perf_counter() - started
        return {"ids": ids, "texts": texts, "difference_requests": len(requests), "seconds": seconds}
    finally:
        await bob.disconnect()


async def run(args):
    return await (join(args) if args.phase == "join" else catch_up(args))


def arguments(parser):
    parser.add_argument("--phase", choices=["join", "catch-up"], required=True)
    parser.add_argument("--username", required=True)
    parser.add_argument("--count", type=int, default=5000)


if __name__ == "__main__":
    script_main(run, arguments)
