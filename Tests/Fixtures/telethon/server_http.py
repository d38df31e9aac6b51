"""Telethon 1.45.0 over MTProto's HTTP transport (ConnectionHttp) against tg-server, on the same port as TCP.

Carol connects over HTTP: key exchange, help.getConfig, sign-up with a test number (code X five times). Dave signs up
over TCP. Carol finds Dave by his number and sends him a message; Dave reads it back from his history. Carol then
reads her own history over HTTP.

Telethon 1.45's HttpPacketCodec.read_packet compares a byte (an int in Python 3) with b'\n' (`line[-1] != b'\n'`),
which is always true, so it refuses every response line before reading it; this script replaces that one method
with the same logic and the comparison fixed (`line[-1:]`). Everything else is Telethon's.

Usage: server_http.py --host H --port P --pem-file F --workdir DIR
Prints one JSON object on stdout; exits non-zero on any failure.
"""
import argparse
import asyncio
import json
import os

from telethon import TelegramClient, errors, functions, types
from telethon.crypto import rsa
from telethon.network import connection
from telethon.network.connection.http import HttpPacketCodec
from telethon.sessions import SQLiteSession


async def read_packet(self, reader):
    """Telethon's own HttpPacketCodec.read_packet with its bytes comparison fixed."""
    while True:
        line = await reader.readline()
        if not line or line[-1:] != b'\n':
            raise asyncio.IncompleteReadError(line, None)
        if line.lower().startswith(b'content-length: '):
            await reader.readexactly(2)
            length = int(line[16:-2])
            return await reader.readexactly(length)


HttpPacketCodec.read_packet = read_packet


def code_for(phone):
    return phone[5] * 5


async def sign_up(client, phone, first_name):
    sent = await client.send_code_request(phone)
    try:
        await client.sign_in(phone, code_for(phone), phone_code_hash=sent.phone_code_hash)
        raise RuntimeError("a new number signed in without signing up")
    except errors.PhoneNumberUnoccupiedError:
        pass
    result = await client(functions.auth.SignUpRequest(phone, sent.phone_code_hash, first_name, ""))
    return await client._on_login(result.user)


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pem-file", required=True)
    parser.add_argument("--workdir", required=True)
    args = parser.parse_args()
    pem = open(args.pem_file).read()
    rsa.add_key(pem[: pem.index("-----END RSA PUBLIC KEY-----") + 28], old=False)

    def client(name, conn):
        session = SQLiteSession(os.path.join(args.workdir, name))
        session.set_dc(2, args.host, args.port)
        return TelegramClient(session, api_id=1, api_hash="0" * 32, connection=conn, connection_retries=5, retry_delay=1,
                              timeout=30, receive_updates=False)

    carol = client("carol-http", connection.ConnectionHttp)
    dave = client("dave-tcp", connection.ConnectionTcpAbridged)
    report = {}
    await asyncio.wait_for(carol.connect(), 60)
    config = await asyncio.wait_for(carol(functions.help.GetConfigRequest()), 30)
    report["this_dc"] = config.this_dc
    me = await asyncio.wait_for(sign_up(carol, "9996628001", "Carol"), 60)
    report["carol_id"] = me.id
    await asyncio.wait_for(dave.connect(), 60)
    him = await asyncio.wait_for(sign_up(dave, "9996628002", "Dave"), 60)
    report["dave_id"] = him.id
    imported = await asyncio.wait_for(carol(functions.contacts.ImportContactsRequest(
        [types.InputPhoneContact(client_id=1, phone="9996628002", first_name="Dave", last_name="")])), 30)
    dave_user = imported.users[0]
    for n in range(5):
        await asyncio.wait_for(carol.send_message(dave_user, "over http %d" % n), 30)
    dialogs = await asyncio.wait_for(dave.get_dialogs(), 30)
    carol_entity = next(d.entity for d in dialogs if d.id == me.id)
    got = await asyncio.wait_for(dave.get_messages(carol_entity, limit=10), 30)
    report["dave_got"] = [m.message for m in reversed(got)]
    mine = await asyncio.wait_for(carol.get_messages(dave_user, limit=10), 30)
    report["carol_sees"] = len(mine)
    await carol.disconnect()
    await dave.disconnect()
    print(json.dumps(report))


asyncio.run(main())
