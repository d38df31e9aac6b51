#!/usr/bin/env python3
"""alexbers' mtprotoproxy (1.0.6, installed into the venv by `make deps`) in front of a local tg-server.

The proxy's client side — the obfuscated2 handshake for plain and dd secrets, the fake-TLS handshake for ee secrets,
the relay — is what the tests put between our client and tg-server. Two things of the proxy's own are replaced,
because it is built for Telegram's real network: its main() predates Python 3.10 (it passes `loop=` to
`asyncio.start_server`), and it reaches Telegram's data centers at fixed addresses on port 443. Here its
data-center table points at 127.0.0.k for DC k, mapped to the tg-server ports given, and it listens on
127.0.0.1 only; it never looks up a public address or masks bad clients to a real host.

Usage: mtprotoproxy_local.py --port PORT --secret HEX [--secret HEX …] --dc 1=PORT --dc 2=PORT --dc 3=PORT
       [--tls-domain DOMAIN]
Prints `ready PORT` once it listens (PORT 0 picks a free one); stops on SIGTERM.
"""
import argparse
import asyncio
import importlib.util
import os
import sys
import tempfile


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--secret", action="append", required=True, help="a 16-byte key in hex")
    parser.add_argument("--dc", action="append", required=True, help="DC=PORT of tg-server")
    parser.add_argument("--tls-domain", default="example.com")
    args = parser.parse_args()
    ports = {int(dc): int(port) for dc, port in (item.split("=") for item in args.dc)}

    script = os.path.join(os.path.dirname(sys.executable), "mtprotoproxy.py")
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as config:
        config.write("PORT = %d\nUSERS = %r\nMASK = False\nTLS_DOMAIN = %r\nLISTEN_ADDR_IPV4 = '127.0.0.1'\n"
                     "LISTEN_ADDR_IPV6 = ''\nSTATS_PRINT_PERIOD = 86400\nAD_TAG = ''\n"
                     % (args.port, {"user%d" % i: s for i, s in enumerate(args.secret)}, args.tls_domain))
    sys.argv = [script, config.name]  # the module exits at import when it has no arguments
    spec = importlib.util.spec_from_file_location("mtprotoproxy", script)
    proxy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(proxy)
    proxy.init_config()
    os.unlink(config.name)
    proxy.init_stats()

    proxy.TG_DATACENTERS_V4 = ["127.0.0.%d" % dc for dc in range(1, 6)]
    connect = proxy.open_connection_tryer

    async def open_local(addr, port, limit, timeout, max_attempts=3):
        dc = int(addr.rsplit(".", 1)[1])
        if dc not in ports:
            raise ConnectionRefusedError("no tg-server port for DC %d" % dc)
        return await connect("127.0.0.1", ports[dc], limit, timeout, max_attempts)

    proxy.open_connection_tryer = open_local

    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    server = loop.run_until_complete(asyncio.start_server(
        proxy.handle_client_wrapper, "127.0.0.1", args.port, limit=proxy.get_to_tg_bufsize()))
    print("ready %d" % server.sockets[0].getsockname()[1], flush=True)
    try:
        loop.run_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
