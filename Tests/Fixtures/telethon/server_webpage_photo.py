"""Telethon 1.45.0 and the pictures of tg-server's link previews, captions and scheduled messages' previews.

Alice sends Bob a link to a page with an og:image (served by page_server.py): the preview is an "article" whose
webPage.photo is the picture made a photo, and Bob downloads it (upload.getFile with inputPhotoFileLocation) as a
JPEG of its largest size's dimensions. Pages whose image is too big, is not a picture, or is on a host that is not
allowed get a preview without photo (the last is never fetched). A link to the picture itself is a "photo" preview.
A photo whose caption has a link gets no preview. A message scheduled with a link carries its page (pending when
scheduled, then updateNewScheduledMessage with the page when it arrives; Bob receives the message with it); a scheduled message edited to a link gets its
page (updateNewScheduledMessage) and goes out with it. messages.getWebPage answers the cached page,
webPageNotModified for its hash, and webPageEmpty for a link that gets no preview.

Usage: server_webpage_photo.py --host H --port P --pem-file F --workdir DIR --pages-port Q
Prints one JSON object on stdout; exits non-zero on any failure (a wait that times out included).
"""
import asyncio
import datetime
import io
import json
import os
import sys
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from event_inbox import Inbox  # noqa: E402 (Tests/Fixtures/event_inbox.py)
from fixture_images import jpeg_size, png  # noqa: E402 (Tests/Fixtures/fixture_images.py)

from telethon import errors, events, functions, types

from server_peer import script_main, sign_up_all

WAIT = 20


def photo_fields(media):
    """A message's preview as one line: "type|title|photo|large|WxH" (no photo: "-" and no size), the
    constructor's name when it is not a page, None when there is no media."""
    if not isinstance(media, types.MessageMediaWebPage):
        return None if media is None else type(media).__name__
    page = media.webpage
    if not isinstance(page, types.WebPage):
        return type(page).__name__
    size = ""
    if isinstance(page.photo, types.Photo):
        best = max((s for s in page.photo.sizes if isinstance(s, types.PhotoSize)), key=lambda s: s.w * s.h)
        size = "%dx%d" % (best.w, best.h)
    return "|".join([page.type or "", page.title or "", "photo" if page.photo else "-",
                     "large" if page.has_large_media else "small", size])


async def counts(pages):
    def read():
        with urllib.request.urlopen(pages + "/__count", timeout=10) as answer:
            return json.loads(answer.read())
    return await asyncio.get_running_loop().run_in_executor(None, read)


async def preview(client, url):
    """The preview getWebPagePreview answers for `url` (it waits for the fetch, image included)."""
    answer = await client(functions.messages.GetWebPagePreviewRequest(message="see " + url))
    return answer.media


async def run(args):
    report = {}
    pages = "http://127.0.0.1:%d" % args.pages_port
    (alice, me_alice), (bob, me_bob) = await sign_up_all(args, ["Alice", "Bob"])
    try:
        bob_inbox = Inbox(WAIT)
        alice_inbox = Inbox(WAIT)

        @bob.on(events.NewMessage(incoming=True))
        async def on_message(event):
            bob_inbox.add("message", event.message)

        @alice.on(events.Raw(types.UpdateNewScheduledMessage))
        async def on_scheduled(update):
            alice_inbox.add("scheduled", update)

        await bob.send_message("me", "note to self")
        bob_for_alice = types.InputPeerUser(me_bob.id, me_bob.access_hash)

        # The page with an image: fetched by the preview call, then sent from the cache.
        report["preview"] = photo_fields(await preview(alice, pages + "/with-image"))
        sent = await alice.send_message(bob_for_alice, "pic %s/with-image" % pages)
        report["sent"] = photo_fields(sent.media)
        got = await bob_inbox.wait("message", lambda m: m.message.startswith("pic "))
        report["bob_got"] = photo_fields(got.media)
        data = await bob.download_media(got.media.webpage.photo, file=bytes)
        width, height = jpeg_size(data) or (0, 0)
        report["downloaded"] = "%s %dx%d" % (data[:3].hex(), width, height)

        for key, path in (("huge", "/huge-image"), ("text_image", "/text-image"), ("foreign", "/foreign-image")):
            report[key] = photo_fields(await preview(alice, pages + path))
        report["picture_link"] = photo_fields(await preview(alice, pages + "/picture.png"))

        # A photo with a link in its caption: no preview (the message's media is the photo).
        picture = io.BytesIO(png(64, 48, 1))
        picture.name = "p.png"
        captioned = await alice.send_file(bob_for_alice, picture, caption="caption %s/article" % pages)
        report["caption"] = type(captioned.media).__name__

        # getWebPage: the cached page, not modified for its hash, empty for a link that gets no preview.
        page = await alice(functions.messages.GetWebPageRequest(url=pages + "/with-image", hash=0))
        report["get_web_page"] = photo_fields(types.MessageMediaWebPage(webpage=page.webpage))
        same = await alice(functions.messages.GetWebPageRequest(url=pages + "/with-image", hash=page.webpage.hash))
        report["get_web_page_same"] = type(same.webpage).__name__
        none = await alice(functions.messages.GetWebPageRequest(url="http://localhost:1/x", hash=0))
        report["get_web_page_none"] = type(none.webpage).__name__

        # A scheduled message: its page is being fetched when it is scheduled, and it goes out with it.
        now = datetime.datetime.now(datetime.timezone.utc)
        scheduled = await alice.send_message(
            bob_for_alice, "later %s/scheduled" % pages, schedule=now + datetime.timedelta(seconds=3))
        report["scheduled"] = "from_scheduled=%s %s" % (bool(scheduled.from_scheduled), photo_fields(scheduled.media))
        filled = await alice_inbox.wait("scheduled", lambda u: u.message.id == scheduled.id and isinstance(
            u.message.media, types.MessageMediaWebPage) and isinstance(u.message.media.webpage, types.WebPage))
        report["scheduled_filled"] = photo_fields(filled.message.media)
        arrived = await bob_inbox.wait("message", lambda m: m.message.startswith("later "))
        report["scheduled_arrived"] = photo_fields(arrived.media)

        # A scheduled message edited to a link (messages.editMessage with schedule_date): the answer's
        # updateNewScheduledMessage carries the cached page, and it goes out with it when sent at once.
        later = now + datetime.timedelta(hours=1)
        plain = await alice.send_message(bob_for_alice, "edit me", schedule=later)
        answer = await alice(functions.messages.EditMessageRequest(
            peer=bob_for_alice, id=plain.id, message="edited %s/with-image" % pages, schedule_date=later))
        edited = [u.message for u in answer.updates if isinstance(u, types.UpdateNewScheduledMessage)]
        report["scheduled_edit"] = ["%s %s" % (m.message.split(" ")[0], photo_fields(m.media)) for m in edited]
        await alice(functions.messages.SendScheduledMessagesRequest(peer=bob_for_alice, id=[plain.id]))
        sent_edit = await bob_inbox.wait("message", lambda m: m.message.startswith("edited "))
        report["scheduled_edit_arrived"] = photo_fields(sent_edit.media)

        # A preview is not media a message may be alone: a text edited to nothing is MESSAGE_EMPTY with its preview
        # stored, sent or scheduled alike.
        empty_edits = []
        sent_now = await alice.send_message(bob_for_alice, "now %s/with-image" % pages)
        waiting = await alice.send_message(bob_for_alice, "soon %s/with-image" % pages, schedule=later)
        for request in [
            functions.messages.EditMessageRequest(peer=bob_for_alice, id=sent_now.id, message=""),
            functions.messages.EditMessageRequest(peer=bob_for_alice, id=waiting.id, message="", schedule_date=later),
        ]:
            try:
                await alice(request)
                empty_edits.append("edited")
            except errors.RPCError as error:
                empty_edits.append(type(error).__name__)
        report["empty_edits"] = empty_edits
        report["counts"] = await counts(pages)
        return report
    finally:
        await alice.disconnect()
        await bob.disconnect()


if __name__ == "__main__":
    script_main(run, lambda parser: parser.add_argument("--pages-port", type=int, required=True))
