"""What the Telethon benchmark scripts share: trusting tg-server's key and a signed-in client on 127.0.0.1."""
import argparse
import asyncio
import json
import sys

from telethon import TelegramClient, errors, functions, types
from telethon.crypto import rsa
from telethon.sessions import MemorySession


async def connect(port, pem_file, phone, receive_updates=False):
    """A client of test number `phone` (99966XYYYY: DC X, code X five times), signed in, or signed up as Tess;
    with `receive_updates`, one that handles the updates the server pushes (Telethon's default)."""
    pem = open(pem_file).read()
    rsa.add_key(pem[: pem.index("-----END RSA PUBLIC KEY-----") + 28], old=False)
    session = MemorySession()
    session.set_dc(int(phone[5]), "127.0.0.1", port)
    client = TelegramClient(session, 1, "0" * 32, receive_updates=receive_updates)
    await client.connect()
    sent = await client.send_code_request(phone)
    try:
        await client.sign_in(phone, phone[5] * 5, phone_code_hash=sent.phone_code_hash)
    except errors.PhoneNumberUnoccupiedError:
        result = await client(functions.auth.SignUpRequest(phone, sent.phone_code_hash, "Tess", ""))
        await client._on_login(result.user)
    return client


def bench_arguments(target=True):
    """The arguments every Telethon benchmark script takes: tg-server's port and key, the number to sign in as and,
    with `target`, the number of the account it works with."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pem-file", required=True)
    parser.add_argument("--phone", required=True)
    if target:
        parser.add_argument("--target-phone", required=True)
    return parser


async def find_target(client, phone):
    """The account with number `phone` as an input peer (contacts.importContacts); exits if nobody has it."""
    imported = await client(functions.contacts.ImportContactsRequest(
        [types.InputPhoneContact(client_id=1, phone=phone, first_name="Target", last_name="")]))
    if not imported.users:
        raise SystemExit("the target %s has not signed up" % phone)
    return types.InputPeerUser(imported.users[0].id, imported.users[0].access_hash)


async def serve_commands(client, answer):
    """BenchmarkSupport's PeerProcess protocol: reads one JSON command per line on stdin, writes `await
    answer(command)` as one JSON line, until stdin closes; then disconnects `client`."""
    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            break
        sys.stdout.write(json.dumps(await answer(json.loads(line))) + "\n")
        sys.stdout.flush()
    await client.disconnect()


def serve_as(answer):
    """The `main` of a peer that signs in as a bench user and serves commands (`--serve --port P --pem-file F --phone
    N`): connects, then answers each command with `await answer(client, command)` (`serve_commands`)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--serve", action="store_true", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pem-file", required=True)
    parser.add_argument("--phone", required=True)
    args = parser.parse_args()

    async def run():
        client = await connect(args.port, args.pem_file, args.phone)
        await serve_commands(client, lambda command: answer(client, command))

    asyncio.run(run())
