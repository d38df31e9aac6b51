"""Telethon 1.45.0 and tg-server's link previews (core.telegram.org "Link previews").

Alice asks messages.getWebPagePreview for a text with an allowed link (the page served by page_server.py): a
messageMediaWebPage with the page's title, description and site name. She sends that link to Bob: her answer and
Bob's copy carry the webPage (cached: no second fetch). She sends a slow page's link: the message carries
webPagePending, then Bob gets updateWebPage with the page and his stored copy has it. A link sent with
link_preview=False (no_webpage) and a link on a host that is not allowed get no preview and are never fetched.
Alice edits a message to a slow page's link: the edit carries webPagePending, then Bob gets updateWebPage. In a
broadcast channel Alice made and Bob was added to, a slow page's post carries webPagePending, then Bob gets
updateChannelWebPage with the page in the channel's pts sequence, and the post Bob reads has it.

Usage: server_webpage.py --host H --port P --pem-file F --workdir DIR --pages-port Q
Prints one JSON object on stdout; exits non-zero on any failure (a wait that times out included).
"""
import asyncio
import json
import os
import sys
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from event_inbox import Inbox  # noqa: E402 (Tests/Fixtures/event_inbox.py)

from telethon import events, functions, types

from server_peer import script_main, sign_up_all

WAIT = 20


def page_fields(media):
    """[constructor, title, description, site_name] of a message's media (None when it has none)."""
    if media is None:
        return None
    if not isinstance(media, types.MessageMediaWebPage):
        return [type(media).__name__]
    page = media.webpage
    if isinstance(page, types.WebPage):
        return [type(page).__name__, page.title, page.description, page.site_name]
    return [type(page).__name__]


async def counts(pages):
    def read():
        with urllib.request.urlopen(pages + "/__count", timeout=10) as answer:
            return json.loads(answer.read())
    return await asyncio.get_running_loop().run_in_executor(None, read)


async def run(args):
    report = {}
    pages = "http://127.0.0.1:%d" % args.pages_port
    (alice, me_alice), (bob, me_bob) = await sign_up_all(args, ["Alice", "Bob"])
    try:
        bob_inbox = Inbox(WAIT)

        @bob.on(events.Raw(types.UpdateWebPage))
        async def on_web_page(update):
            bob_inbox.add("web_page", update)

        @bob.on(events.Raw(types.UpdateChannelWebPage))
        async def on_channel_web_page(update):
            bob_inbox.add("channel_web_page", update)

        @bob.on(events.NewMessage(incoming=True))
        async def on_message(event):
            bob_inbox.add("message", event.message)

        # Telethon reads an account pts of 0 as "no state"; a note to himself moves Bob's.
        await bob.send_message("me", "note to self")
        bob_for_alice = types.InputPeerUser(me_bob.id, me_bob.access_hash)

        preview = await alice(functions.messages.GetWebPagePreviewRequest(message="look at %s/article please" % pages))
        report["preview"] = [type(preview).__name__] + (page_fields(preview.media) or [])

        sent = await alice.send_message(bob_for_alice, "read %s/article" % pages)
        report["sent"] = page_fields(sent.media)
        got = await bob_inbox.wait("message", lambda m: m.message.startswith("read "))
        web_page = got.web_preview
        report["bob_got"] = [web_page.title, web_page.description, web_page.site_name, web_page.url,
                             web_page.display_url] if web_page else None

        slow = await alice.send_message(bob_for_alice, "slow %s/slow" % pages)
        report["slow_sent"] = page_fields(slow.media)
        got_slow = await bob_inbox.wait("message", lambda m: m.message.startswith("slow "))
        report["slow_bob_got"] = page_fields(got_slow.media)
        pending_id = got_slow.media.webpage.id
        update = await bob_inbox.wait("web_page", lambda u: u.webpage.id == pending_id)
        report["slow_update"] = [type(update.webpage).__name__, update.webpage.title, update.pts_count]
        stored = await bob.get_messages(types.InputPeerUser(me_alice.id, me_alice.access_hash), ids=got_slow.id)
        report["slow_stored"] = page_fields(stored.media)

        edited = await alice.edit_message(bob_for_alice, sent.id, "now %s/slow-edit" % pages)
        report["edit_sent"] = page_fields(edited.media)
        edit_page = edited.media.webpage.id
        edit_update = await bob_inbox.wait("web_page", lambda u: u.webpage.id == edit_page)
        report["edit_update"] = [type(edit_update.webpage).__name__, edit_update.webpage.title]
        stored_edit = await bob.get_messages(types.InputPeerUser(me_alice.id, me_alice.access_hash), ids=got.id)
        report["edit_stored"] = page_fields(stored_edit.media)

        no_preview = await alice.send_message(bob_for_alice, "%s/plain" % pages, link_preview=False)
        report["no_webpage"] = page_fields(no_preview.media)

        forbidden = "http://localhost:%d/forbidden" % args.pages_port
        refused = await alice.send_message(bob_for_alice, "see " + forbidden)
        report["forbidden_sent"] = page_fields(refused.media)
        refused_preview = await alice(functions.messages.GetWebPagePreviewRequest(message=forbidden))
        report["forbidden_preview"] = page_fields(refused_preview.media)
        created = await alice(functions.channels.CreateChannelRequest(title="Links", about="", broadcast=True))
        channel = created.chats[0]
        await alice(functions.channels.InviteToChannelRequest(channel, [bob_for_alice]))
        post = await alice.send_message(channel, "post %s/slow-post" % pages)
        report["post_sent"] = page_fields(post.media)
        channel_update = await bob_inbox.wait(
            "channel_web_page", lambda u: u.channel_id == channel.id and isinstance(u.webpage, types.WebPage))
        report["post_update"] = [type(channel_update.webpage).__name__, channel_update.webpage.title,
                                 channel_update.pts_count]
        seen = await bob.get_messages(types.PeerChannel(channel.id), ids=post.id)
        report["post_seen"] = page_fields(seen.media)
        report["counts"] = await counts(pages)
        return report
    finally:
        await alice.disconnect()
        await bob.disconnect()


if __name__ == "__main__":
    script_main(run, lambda parser: parser.add_argument("--pages-port", type=int, required=True))
