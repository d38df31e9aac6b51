"""Telethon 1.45.0 through an MTProxy to tg-server.

Signs up a new account through the proxy, asks who it is, sends a message to its own Saved Messages and reads it
back: a key exchange, a sign-up and calls, all relayed. --mode picks Telethon's own MTProxy connection
(`ConnectionTcpMTProxyAbridged` for a plain secret, `ConnectionTcpMTProxyRandomizedIntermediate` for dd) or, for
ee (fake-TLS), TelethonFakeTLS's `ConnectionTcpMTProxyFakeTLS`.

Usage: mtproxy_client.py --proxy-port P --secret HEX --mode plain|dd|ee --phone N --host H --pem-file F --workdir D
Prints one JSON object on stdout; exits non-zero on any failure.
"""
import argparse
import asyncio
import json
import logging
import os

from telethon import TelegramClient, errors, functions
from telethon.crypto import rsa
from telethon.network.connection import ConnectionTcpMTProxyAbridged, ConnectionTcpMTProxyRandomizedIntermediate
from telethon.sessions import MemorySession


def code_for(phone):
    """Telegram's test numbers 99966XYYYY: the code is X five times."""
    return phone[5] * 5


async def run(args):
    if args.mode == "ee":
        from TelethonFakeTLS import ConnectionTcpMTProxyFakeTLS as connection
    elif args.mode == "dd":
        connection = ConnectionTcpMTProxyRandomizedIntermediate
    else:
        connection = ConnectionTcpMTProxyAbridged
    # TelethonFakeTLS takes an ee secret without its "ee"; Telethon's own classes take the hex as links carry it.
    secret = args.secret[2:] if args.mode == "ee" else args.secret
    session = MemorySession()
    session.set_dc(2, args.host, 1)  # the proxy is dialled, the DC id goes in its header
    client = TelegramClient(session, api_id=1, api_hash="0" * 32, connection=connection,
                            proxy=(args.host, args.proxy_port, secret), connection_retries=2, retry_delay=1,
                            timeout=20, receive_updates=False)
    await asyncio.wait_for(client.connect(), 30)
    sent = await client.send_code_request(args.phone)
    try:
        await client.sign_in(args.phone, code_for(args.phone), phone_code_hash=sent.phone_code_hash)
    except errors.PhoneNumberUnoccupiedError:
        await client(functions.auth.SignUpRequest(args.phone, sent.phone_code_hash, "Proxied", ""))
    me = await client.get_me()
    await client.send_message("me", "through mtproxy %s" % args.mode)
    last = (await client.get_messages("me", limit=1))[0]
    await client.disconnect()
    return {"mode": args.mode, "phone": me.phone, "text": last.message}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--proxy-port", type=int, required=True)
    parser.add_argument("--secret", required=True)
    parser.add_argument("--mode", choices=["plain", "dd", "ee"], required=True)
    parser.add_argument("--phone", required=True)
    parser.add_argument("--host", required=True)
    parser.add_argument("--pem-file", required=True)
    parser.add_argument("--workdir", required=True)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    with open(args.pem_file) as f:
        pem = f.read()
    end = "-----END RSA PUBLIC KEY-----"
    rsa.add_key(pem[: pem.index(end) + len(end)], old=False)
    print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    main()
