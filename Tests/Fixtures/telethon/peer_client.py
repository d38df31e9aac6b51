"""What the Core tests' Telethon peers share: trusting tg-server's key, connecting, signing up a test number."""
import argparse
import asyncio
import json

from telethon import TelegramClient, errors, functions, types
from telethon.crypto import rsa
from telethon.sessions import MemorySession


def load_key(path):
    """Trusts the server's RSA key (PKCS#1 PEM) for the auth-key exchange."""
    with open(path) as f:
        pem = f.read()
    end = "-----END RSA PUBLIC KEY-----"
    rsa.add_key(pem[: pem.index(end) + len(end)], old=False)


async def connect(host, port, pem_file, phone):
    """A connected client for test number `phone` (its DC is the number's sixth digit), trusting the server's key."""
    load_key(pem_file)
    session = MemorySession()
    session.set_dc(int(phone[5]), host, port)
    client = TelegramClient(session, api_id=1, api_hash="0" * 32, connection_retries=5, retry_delay=1, timeout=30)
    await client.connect()
    return client


async def sign_up(client, phone, first_name):
    """Signs up test number `phone` (99966XYYYY: code X five times), which must be new; returns the user."""
    sent = await client.send_code_request(phone)
    try:
        await client.sign_in(phone, phone[5] * 5, phone_code_hash=sent.phone_code_hash)
        raise RuntimeError("a new number signed in without signing up")
    except errors.PhoneNumberUnoccupiedError:
        pass
    result = await client(functions.auth.SignUpRequest(phone, sent.phone_code_hash, first_name, ""))
    return await client._on_login(result.user)


async def import_target(client, phone):
    """Adds `phone` (our account on the other side) to the contacts and returns its user."""
    imported = await client(functions.contacts.ImportContactsRequest(
        [types.InputPhoneContact(client_id=1, phone=phone, first_name="Target", last_name="")]))
    return imported.users[0]


def peer_arguments():
    """The arguments every Telethon peer script takes: tg-server's host, port and key, the number to sign up as and
    the number of our account on the other side."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pem-file", required=True)
    parser.add_argument("--phone", required=True)
    parser.add_argument("--target-phone", required=True)
    return parser


def peer_main(run):
    """Parses `peer_arguments()` and `--wait` (seconds, 30 by default), runs `run(args)` and prints its report as
    JSON: the entry point of every peer script the Core tests start."""
    parser = peer_arguments()
    parser.add_argument("--wait", type=float, default=30)
    print(json.dumps(asyncio.run(run(parser.parse_args()))), flush=True)
