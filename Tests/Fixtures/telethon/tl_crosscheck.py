"""Telethon 1.45.0 as an independent TL implementation for TelegramApiTests.

  tl_crosscheck.py reserialize   stdin: one hex object per line; stdout: Telethon's re-serialization of each
                                 (parse with BinaryReader.tgread_object, then bytes(obj)), or "ERR <reason>".
  tl_crosscheck.py samples       stdout: JSON list of {"name", "hex"} for objects built by hand with Telethon's
                                 classes (flags set and unset, vectors, nested types, 253/254-byte strings).
"""
import json
import sys
from datetime import datetime, timezone

from telethon.extensions import BinaryReader
from telethon.tl import functions, types


def reserialize():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        data = bytes.fromhex(line)
        try:
            with BinaryReader(data) as reader:
                obj = reader.tgread_object()
                if reader.tell_position() != len(data):
                    print(f"ERR consumed {reader.tell_position()} of {len(data)}")
                    continue
            print(bytes(obj).hex())
        except Exception as error:  # report, do not stop: one line per input
            print(f"ERR {type(error).__name__}: {error}".replace("\n", " "))
        sys.stdout.flush()


def samples():
    s253 = "x" * 253
    s254 = "y" * 254
    utf8 = "привет, мир — 👋 phở"
    date = datetime.fromtimestamp(1_700_000_000, tz=timezone.utc)
    entities = [
        types.MessageEntityBold(offset=0, length=6),
        types.MessageEntityTextUrl(offset=8, length=3, url="https://telegram.org"),
        types.MessageEntityPre(offset=1, length=2, language=""),
    ]
    objects = {
        "peerUser": types.PeerUser(user_id=123456789012),
        "message_minimal": types.Message(id=1, peer_id=types.PeerUser(user_id=42), date=date, message=""),
        "message_full": types.Message(
            id=77, peer_id=types.PeerChannel(channel_id=-5), date=date, message=utf8, out=True, silent=True,
            from_id=types.PeerUser(user_id=9), entities=entities, views=1000, forwards=3, edit_date=date,
            post_author=s253, grouped_id=-1234567890123, ttl_period=86400,
            reply_to=types.MessageReplyHeader(reply_to_msg_id=76, quote=True, quote_text=s254),
        ),
        "message_253": types.Message(id=2, peer_id=types.PeerChat(chat_id=7), date=date, message=s253),
        "message_254": types.Message(id=3, peer_id=types.PeerChat(chat_id=7), date=date, message=s254),
        "user_flags2": types.User(
            id=555, is_self=True, bot=True, bot_info_version=4, access_hash=-1, first_name="Ann", username="ann",
            usernames=[types.Username(username="ann", editable=True)], stories_max_id=types.RecentStory(max_id=9),
            color=types.PeerColor(color=3, background_emoji_id=77), bot_active_users=12,
        ),
        "sendMessage": functions.messages.SendMessageRequest(
            peer=types.InputPeerUser(user_id=1, access_hash=2), message=utf8, random_id=-42, no_webpage=True,
            entities=entities, reply_markup=None,
        ),
        "getHistory": functions.messages.GetHistoryRequest(
            peer=types.InputPeerSelf(), offset_id=0, offset_date=date, add_offset=0, limit=44, max_id=0, min_id=0,
            hash=0,
        ),
        "bytes_254": types.InputFile(id=1, parts=2, name=s254, md5_checksum=""),
        "vector_long": functions.messages.DeleteMessagesRequest(id=[1, 2, 3], revoke=True),
    }
    print(json.dumps([{"name": name, "hex": bytes(obj).hex()} for name, obj in objects.items()]))


if __name__ == "__main__":
    {"reserialize": reserialize, "samples": samples}[sys.argv[1]]()
