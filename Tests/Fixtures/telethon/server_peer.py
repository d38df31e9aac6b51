"""What the tg-server channel scripts (server_channels.py, server_pins.py, server_invites.py, …) share: their
arguments (--host, --port, --pem-file, --workdir, --tag), Telethon clients with a session file each in the work
folder, pointed at DC 2, and the run that prints one JSON report. Signing up and trusting the server's key are
peer_client.py's.
"""
import argparse
import asyncio
import json
import logging
import os

from telethon import TelegramClient
from telethon.sessions import SQLiteSession

from peer_client import load_key as load_key_file
from peer_client import sign_up  # noqa: F401 (re-exported for the scripts)


def make_client(args, name, **options):
    """A client for account `name`, its session in the work folder, on DC 2; `options` go to TelegramClient."""
    session = SQLiteSession(os.path.join(args.workdir, name))
    session.set_dc(2, args.host, args.port)
    settings = dict(api_id=1, api_hash="0" * 32, connection_retries=5, retry_delay=1, timeout=30)
    settings.update(options)
    return TelegramClient(session, **settings)


async def sign_up_all(args, first_names, make=make_client):
    """Trusts the server's key, then connects and signs up one client per name in `first_names`: session file the
    name in lower case, test number 9996620<place><--tag>. Returns [(client, user)] in order."""
    load_key(args)
    signed_up = []
    for place, name in enumerate(first_names):
        client = make(args, name.lower())
        await client.connect()
        signed_up.append((client, await sign_up(client, "9996620%d%s" % (place, args.tag), name)))
    return signed_up


def load_key(args):
    """Trusts the server's key named by --pem-file."""
    load_key_file(args.pem_file)


def script_main(run, extra_arguments=None):
    """Parses the shared arguments (and those `extra_arguments(parser)` adds), runs `run(args)` and prints its
    report as JSON. TELETHON_DEBUG=1 logs Telethon's traffic."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pem-file", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--tag", default="01")
    if extra_arguments:
        extra_arguments(parser)
    args = parser.parse_args()
    if os.environ.get("TELETHON_DEBUG"):
        logging.basicConfig(level=logging.DEBUG)
    print(json.dumps(asyncio.run(run(args))))
