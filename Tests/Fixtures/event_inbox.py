"""The events one client's handlers received, shared by the Telethon and kurigram interoperability scripts."""

import asyncio


class Inbox:
    """Events one client received, and a way to wait (at most `wait_seconds`) for the next one of a kind."""

    def __init__(self, wait_seconds):
        self.wait_seconds = wait_seconds
        self.items = []
        self.changed = asyncio.Event()

    def add(self, kind, value):
        self.items.append((kind, value))
        self.changed.set()

    async def wait(self, kind, predicate=lambda value: True):
        deadline = asyncio.get_running_loop().time() + self.wait_seconds
        while True:
            for item_kind, value in self.items:
                if item_kind == kind and predicate(value):
                    return value
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                raise TimeoutError("no %s event within %d s; got %r" % (kind, self.wait_seconds, [k for k, _ in self.items]))
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), remaining)
            except asyncio.TimeoutError:
                pass
