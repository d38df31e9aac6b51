"""mtproto_interop.py's client through a relay that spoils the server's first dh_gen_ok: Telethon must retry.

Usage: retry_check.py --host H --port P --pem-file F --transport intermediate --session PATH

The relay sits between Telethon and tg-server on 127.0.0.1 and flips one byte of new_nonce_hash1 in the first
dh_gen_ok the server sends, so Telethon fails that exchange exactly as it does for an auth key with a leading zero
byte (SecurityError "Step 3 invalid new nonce hash", see mtproto_interop.py). The intermediate transport is used
because its frames are plain: a 4-byte little-endian length, then the unencrypted message (auth_key_id 0, msg_id,
length, body; MTProto "Mobile Protocol: Detailed Description", unencrypted messages). Prints the interop report
plus "corrupted", the number of answers changed; exits non-zero when the client failed.
"""
import asyncio
import json
import struct

import mtproto_interop

DH_GEN_OK = struct.pack("<I", 0x3BCBF734)
# In an unencrypted message: auth_key_id (8), msg_id (8), length (4), then the body; in dh_gen_ok's body the
# constructor (4), nonce (16) and server_nonce (16) come before new_nonce_hash1.
BODY = 20
NEW_NONCE_HASH1 = BODY + 4 + 16 + 16


class Relay:
    def __init__(self, host, port):
        self.target = (host, port)
        self.corrupted = 0

    async def client_connected(self, client_reader, client_writer):
        server_reader, server_writer = await asyncio.open_connection(*self.target)
        try:
            await asyncio.gather(
                self.pump(client_reader, server_writer, spoil=False),
                self.pump(server_reader, client_writer, spoil=True),
                return_exceptions=True)
        except asyncio.CancelledError:  # the relay is shutting down
            pass

    async def pump(self, reader, writer, spoil):
        try:
            while True:
                if not spoil:
                    data = await reader.read(65536)
                    if not data:
                        break
                    writer.write(data)
                else:
                    header = await reader.readexactly(4)
                    frame = bytearray(await reader.readexactly(struct.unpack("<I", header)[0]))
                    if (self.corrupted == 0 and frame[:8] == bytes(8)
                            and frame[BODY:BODY + 4] == DH_GEN_OK and len(frame) >= NEW_NONCE_HASH1 + 16):
                        frame[NEW_NONCE_HASH1] ^= 0xFF
                        self.corrupted += 1
                    writer.write(header + frame)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()


async def main():
    args = mtproto_interop.parse_arguments(transports=["intermediate"])
    relay = Relay(args.host, args.port)
    server = await asyncio.start_server(relay.client_connected, "127.0.0.1", 0)
    args.host, args.port = "127.0.0.1", server.sockets[0].getsockname()[1]
    try:
        result = await mtproto_interop.report(args)
    finally:
        server.close()
    result["corrupted"] = relay.corrupted
    print(json.dumps(result))


if __name__ == "__main__":
    mtproto_interop.run(main)
