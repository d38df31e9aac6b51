"""Telethon 1.45.0 making a few calls that tg-server's metrics and trace should show (ObservabilityTests).

help.getConfig; help.getNearestDc (flooding once, when the server is told to); help.getAppConfig (400 METHOD_NOT_IMPLEMENTED); a sign-up with the test number --phone (code: its
DC digit five times; the first sign-in answers PHONE_NUMBER_UNOCCUPIED); upload.saveFilePart with 1 KiB of 0xab.

Usage: observe_client.py --host H --port P --pem-file F --session PATH --phone 99966XYYYY
Prints one JSON object on stdout (the code used, the auth key as hex, what each step answered); exits non-zero on
any failure.
"""
import argparse
import asyncio
import json
import random
import sys

import telethon
from telethon import TelegramClient, errors, functions
from telethon.crypto import rsa
from telethon.network import connection
from telethon.sessions import SQLiteSession

CONNECTION_RETRIES = 5  # as in mtproto_interop.py: Telethon's 1-in-256 key-exchange retry


async def main(args):
    with open(args.pem_file) as f:
        pem = f.read()
    end = "-----END RSA PUBLIC KEY-----"
    rsa.add_key(pem[: pem.index(end) + len(end)], old=False)
    session = SQLiteSession(args.session)
    session.set_dc(2, args.host, args.port)
    client = TelegramClient(
        session, api_id=1, api_hash="0" * 32, connection=connection.ConnectionTcpIntermediate,
        receive_updates=False, connection_retries=CONNECTION_RETRIES, retry_delay=1, timeout=30)
    await client.connect()
    report = {}
    try:
        config = await client(functions.help.GetConfigRequest())
        report["this_dc"] = config.this_dc
        # With --test-flood-wait help.getNearestDc=1 the first call answers FLOOD_WAIT_1; Telethon sleeps and retries.
        report["nearest_dc"] = (await client(functions.help.GetNearestDcRequest())).nearest_dc
        try:
            await client(functions.help.GetAppConfigRequest(hash=0))
            report["unimplemented"] = None
        except errors.RPCError as error:
            report["unimplemented"] = error.message
        code = args.phone[5] * 5
        sent = await client.send_code_request(args.phone)
        try:
            await client.sign_in(args.phone, code, phone_code_hash=sent.phone_code_hash)
            raise RuntimeError("a new number signed in without signing up")
        except errors.PhoneNumberUnoccupiedError:
            pass
        result = await client(functions.auth.SignUpRequest(args.phone, sent.phone_code_hash, "Olga", ""))
        report["user_id"] = result.user.id
        file_id = random.randrange(1, 1 << 62)
        report["saved_part"] = await client(functions.upload.SaveFilePartRequest(file_id, 0, bytes([0xAB]) * 1024))
        report["code"] = code
        report["auth_key"] = client.session.auth_key.key.hex()
    finally:
        await client.disconnect()
    print(json.dumps(report))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    for name in ("--host", "--pem-file", "--session", "--phone"):
        parser.add_argument(name, required=True)
    parser.add_argument("--port", type=int, required=True)
    try:
        asyncio.run(main(parser.parse_args()))
    except Exception as error:  # report, then fail
        print(json.dumps({"error": repr(error)}))
        sys.exit(1)
