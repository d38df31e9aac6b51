"""Pages for tg-server's link previews, served on 127.0.0.1 by Python's http.server, counting every request.

Prints "port P" on its first line, then serves until killed:
  /article    Open Graph tags (og:title, og:description, og:site_name)
  /plain      only <title> and <meta name="description">
  /slow       /article's tags, answered after a second (so a message sent with it waits for its page)
  /slow-post  the same, for a channel post's link
  /slow-edit  the same, for an edited message's link
  /forbidden  a page that must never be fetched (the tests link it through a host that is not allowed)
  /with-image      /article's tags and og:image "picture.png" (relative: resolved against the page)
  /picture.png     a 640x480 PNG of one colour, PICTURE_RGB
  /huge-image      og:image "/huge.png", an answer of 6 MB (over tg-server's 5 MB image bound)
  /text-image      og:image "/text.png", which answers HTML
  /foreign-image   og:image on localhost (a host the tests do not allow): /foreign.png must never be fetched
  /scheduled       /article's tags, answered after a second (a scheduled message's link)
  /__count    the number of requests of every other path so far, as JSON (not counted itself)
Usage: page_server.py
"""
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from fixture_images import solid_png  # noqa: E402 (Tests/Fixtures/fixture_images.py)

ARTICLE = b"""<!doctype html><html><head>
<title>Ignored title</title>
<meta property="og:title" content="Telegraph &amp; friends">
<meta property="og:description" content="A page about link previews.">
<meta property="og:site_name" content="Example Site">
</head><body>body</body></html>"""

PLAIN = b"""<html><head><title>Plain page</title>
<meta name="description" content="Only a title and a description."></head></html>"""

PICTURE_RGB = (200, 30, 40)
PICTURE = solid_png(640, 480, PICTURE_RGB)
HUGE = b"\x89PNG\r\n\x1a\n" + bytes(6 << 20)


def with_image(image):
    """/article's tags and an og:image."""
    return ARTICLE.replace(b"</head>", b'<meta property="og:image" content="' + image + b'"></head>')


COUNTS = {}
LOCK = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path == "/__count":
            with LOCK:
                body = json.dumps(COUNTS).encode()
            return self.answer(body, "application/json")
        with LOCK:
            COUNTS[self.path] = COUNTS.get(self.path, 0) + 1
        if self.path in ("/slow", "/slow-post", "/slow-edit", "/scheduled"):
            time.sleep(1)
        pictures = {"/picture.png": PICTURE, "/huge.png": HUGE, "/foreign.png": PICTURE}
        if self.path in pictures:
            return self.answer(pictures[self.path], "image/png")
        port = self.server.server_address[1]
        page = {"/article": ARTICLE, "/slow": ARTICLE, "/slow-post": ARTICLE, "/slow-edit": ARTICLE, "/plain": PLAIN,
                "/forbidden": ARTICLE, "/scheduled": ARTICLE, "/text.png": PLAIN,
                "/with-image": with_image(b"picture.png"), "/huge-image": with_image(b"/huge.png"),
                "/text-image": with_image(b"/text.png"),
                "/foreign-image": with_image(b"http://localhost:%d/foreign.png" % port)}.get(self.path)
        if page is None:
            self.send_error(404)
            return
        self.answer(page, "text/html; charset=utf-8")

    def answer(self, body, content_type):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print("port", server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
