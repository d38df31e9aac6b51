"""Telethon 1.45.0 as another device of one of our accounts, muting a chat there and seeing that account's unmute.

Signs in to the existing account --phone (code X five times), finds --target-phone's user, mutes that chat forever
(account.updateNotifySettings with mute_until 2147483647, which tg-server pushes to the account's sessions as
updateNotifySettings) and prints {"user_id": N, "muted": 2147483647} on a line of its own. Then waits (at most --wait
seconds) for updateNotifySettings naming that chat with no mute (events.Raw: our client unmuted it) and prints the
final report {"unmuted": true, "get_notify_settings": mute_until of account.getNotifySettings or null,
"dialog_mute_until": the chat's dialog.notify_settings.mute_until, or null (also without a dialog)}.

Usage: mute_peer.py --host H --port P --pem-file F --phone 99966XYYYY --target-phone 99966XYYYY [--wait S]
Prints two JSON lines on stdout; exits non-zero on any failure (a wait that times out included).
"""
import asyncio
import json

from telethon import events, functions, types

from peer_client import connect, peer_arguments, import_target

FOREVER = 2147483647


async def run(args):
    client = await connect(args.host, args.port, args.pem_file, args.phone)
    try:
        sent = await client.send_code_request(args.phone)
        me = await client.sign_in(args.phone, args.phone[5] * 5, phone_code_hash=sent.phone_code_hash)
        target = await import_target(client, args.target_phone)
        changes = asyncio.Queue()

        @client.on(events.Raw(types.UpdateNotifySettings))
        async def on_settings(update):
            peer = update.peer
            if isinstance(peer, types.NotifyPeer) and isinstance(peer.peer, types.PeerUser) \
                    and peer.peer.user_id == target.id:
                changes.put_nowait(update.notify_settings)

        await client(functions.account.UpdateNotifySettingsRequest(
            peer=types.InputNotifyPeer(peer=target), settings=types.InputPeerNotifySettings(mute_until=FOREVER)))
        print(json.dumps({"user_id": me.id, "muted": FOREVER}), flush=True)

        seen = await asyncio.wait_for(changes.get(), args.wait)
        while seen.mute_until:
            seen = await asyncio.wait_for(changes.get(), args.wait)
        got = await client(functions.account.GetNotifySettingsRequest(peer=types.InputNotifyPeer(peer=target)))
        dialogs = await client(functions.messages.GetPeerDialogsRequest(peers=[target]))
        # No message between them yet: no dialog, and then null.
        dialog = dialogs.dialogs[0].notify_settings.mute_until if dialogs.dialogs else None
        return {"unmuted": True, "get_notify_settings": got.mute_until, "dialog_mute_until": dialog}
    finally:
        await client.disconnect()


def main():
    parser = peer_arguments()
    parser.add_argument("--wait", type=float, default=30)
    print(json.dumps(asyncio.run(run(parser.parse_args()))), flush=True)


if __name__ == "__main__":
    main()
