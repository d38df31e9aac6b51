"""Telethon 1.45.0 as the other person in the `tg` command-line tests (TelegramClientTests).

Signs up --phone as --name with --username, writes <workdir>/ready.json, then serves commands the test writes as
<workdir>/cmd-N.json (N = 1, 2, …), answering each with <workdir>/out-N.json (written whole, then renamed), until
"exit" or --timeout seconds. Commands (JSON objects with "op"):

  send      {"to": PHONE or @USERNAME, "text": T, "markdown": bool} -> {"id": message id}
  send_file {"to": PHONE, "path": P, "caption": T}             -> {"id": message id}
  send_video {"to": PHONE, "path": P, "duration": S, "w": W, "h": H, "round": B} -> {"id": message id}
  download  {"to": PHONE, "id": ID, "path": P, "thumb": B}     -> {"size": bytes} (the file, or its largest thumbnail)
  messages  {"to": PHONE, "limit": N}                          -> {"messages": [ … newest first … ]}
  read_outbox {"to": PHONE}                                    -> {"max_id": the other side's read mark on ours}
  set_password {"password": P, "hint": H}                      -> {} (two-step verification on this account)
  edit      {"to": PHONE, "id": ID, "text": T}                 -> {}
  delete    {"to": PHONE, "ids": [ID…]}                        -> {} (for both sides)
  read      {"to": PHONE}                                      -> {} (marks the chat read)
  create_group {"with": PHONE, "title": T}                     -> {"chat_id": the basic group's id}
  group_messages {"chat_id": ID, "limit": N}                   -> {"messages": [ … newest first … ]}
  forward   {"from": PHONE, "ids": [ID…], "to": PHONE}         -> {"ids": [the copies' ids]} (messages.forwardMessages)
  save_gif  {"to": PHONE, "id": ID}                            -> {"gifs": [document ids], "unchanged": B}
            (messages.saveGif of the message's GIF, then getSavedGifs, then getSavedGifs with that list's hash)
  exit                                                         -> {}

A message is reported with its id, whether it is ours ("out"), text, entities ({type, offset, length, url}), the
message it replies to, grouped_id, whether it was edited, its forward header ("fwd_from": the first author's user id,
"fwd_name": a hidden author's name; both null for no header), and its media: a photo's largest size, or a document's
file name, MIME type, size, voice flag and duration, and sticker set id. Errors are answered as {"error": text}.

Usage: tg_cli_peer.py --host H --port P --pem-file F --phone 99966XYYYY --name N --username U --workdir W
"""
import argparse
import asyncio
import json
import os
import time

from telethon import functions, types

from peer_client import connect, sign_up


def describe(message):
    item = {
        "id": message.id,
        "out": bool(message.out),
        "text": message.message,
        "entities": [
            {"type": type(e).__name__, "offset": e.offset, "length": e.length, "url": getattr(e, "url", None)}
            for e in (message.entities or [])
        ],
        "reply_to": message.reply_to.reply_to_msg_id if message.reply_to else None,
        "grouped_id": message.grouped_id,
        "edited": message.edit_date is not None,
        "fwd_from": getattr(message.fwd_from.from_id, "user_id", None) if message.fwd_from else None,
        "fwd_name": message.fwd_from.from_name if message.fwd_from else None,
        "media": None,
    }
    if message.photo is not None:
        largest = [s for s in message.photo.sizes if hasattr(s, "w")][-1]
        item["media"] = {"kind": "photo", "w": largest.w, "h": largest.h}
    elif message.document is not None:
        document = message.document
        media = {"kind": "document", "mime_type": document.mime_type, "size": document.size}
        for attribute in document.attributes:
            if isinstance(attribute, types.DocumentAttributeFilename):
                media["file_name"] = attribute.file_name
            if isinstance(attribute, types.DocumentAttributeAudio):
                media["voice"] = bool(attribute.voice)
                media["duration"] = attribute.duration
                if attribute.voice:
                    media["kind"] = "voice"
            if isinstance(attribute, types.DocumentAttributeVideo):
                if media["kind"] != "sticker":  # a video sticker carries both attributes
                    media["kind"] = "round" if attribute.round_message else "video"
                media["duration"] = attribute.duration
                media["w"] = attribute.w
                media["h"] = attribute.h
                media["supports_streaming"] = bool(attribute.supports_streaming)
            if isinstance(attribute, types.DocumentAttributeAnimated):
                media["animated"] = True
            if isinstance(attribute, types.DocumentAttributeSticker):
                media["kind"] = "sticker"
                media["emoji"] = attribute.alt
                stickerset = attribute.stickerset
                media["set_id"] = getattr(stickerset, "id", None)
        media["thumbs"] = [
            {"type": t.type, "w": getattr(t, "w", None), "h": getattr(t, "h", None)} for t in (document.thumbs or [])
        ]
        item["media"] = media
    return item


class Peer:
    def __init__(self, client):
        self.client = client
        self.users = {}

    async def user(self, phone):
        """The user with `phone`, imported as a contact once (our account signs up before it is named); "@name" is
        resolved by username (contacts.resolveUsername)."""
        if phone.startswith("@"):
            return await self.client.get_entity(phone)
        if phone not in self.users:
            imported = await self.client(functions.contacts.ImportContactsRequest(
                [types.InputPhoneContact(client_id=1, phone=phone, first_name="Them", last_name="")]))
            if not imported.users:
                raise RuntimeError("nobody has the number %s" % phone)
            self.users[phone] = imported.users[0]
        return self.users[phone]

    async def handle(self, command):
        op = command["op"]
        if op == "send":
            user = await self.user(command["to"])
            sent = await self.client.send_message(user, command["text"], parse_mode="md" if command.get("markdown") else None)
            return {"id": sent.id}
        if op == "send_file":
            user = await self.user(command["to"])
            sent = await self.client.send_file(user, command["path"], caption=command.get("caption", ""), force_document=True)
            return {"id": sent.id}
        if op == "send_video":
            user = await self.user(command["to"])
            attribute = types.DocumentAttributeVideo(
                duration=command["duration"], w=command["w"], h=command["h"],
                round_message=command.get("round", False), supports_streaming=True)
            sent = await self.client.send_file(
                user, command["path"], attributes=[attribute], mime_type="video/mp4", force_document=False,
                video_note=command.get("round", False))
            return {"id": sent.id}
        if op == "download":
            user = await self.user(command["to"])
            message = (await self.client.get_messages(user, ids=[command["id"]]))[0]
            if command.get("thumb"):
                path = await self.client.download_media(message, command["path"], thumb=-1)
            else:
                path = await self.client.download_media(message, command["path"])
            import os
            return {"size": os.path.getsize(path)}
        if op == "messages":
            user = await self.user(command["to"])
            messages = await self.client.get_messages(user, limit=command.get("limit", 50))
            return {"messages": [describe(m) for m in messages]}
        if op == "read_outbox":
            user = await self.user(command["to"])
            dialogs = await self.client(functions.messages.GetPeerDialogsRequest(
                [types.InputDialogPeer(types.InputPeerUser(user.id, user.access_hash))]))
            return {"max_id": dialogs.dialogs[0].read_outbox_max_id}
        if op == "set_password":
            await self.client.edit_2fa(new_password=command["password"], hint=command.get("hint", ""))
            return {}
        if op == "edit":
            await self.client.edit_message(await self.user(command["to"]), command["id"], command["text"])
            return {}
        if op == "delete":
            await self.client.delete_messages(await self.user(command["to"]), command["ids"], revoke=True)
            return {}
        if op == "read":
            await self.client.send_read_acknowledge(await self.user(command["to"]))
            return {}
        if op == "create_group":
            user = await self.user(command["with"])
            created = await self.client(functions.messages.CreateChatRequest(users=[user], title=command["title"]))
            return {"chat_id": created.updates.chats[0].id}
        if op == "group_messages":
            messages = await self.client.get_messages(types.PeerChat(command["chat_id"]), limit=command.get("limit", 50))
            return {"messages": [describe(m) for m in messages]}
        if op == "forward":
            sent = await self.client.forward_messages(
                await self.user(command["to"]), command["ids"], from_peer=await self.user(command["from"]))
            return {"ids": [m.id for m in sent]}
        if op == "save_gif":
            user = await self.user(command["to"])
            message = (await self.client.get_messages(user, ids=[command["id"]]))[0]
            document = message.media.document
            await self.client(functions.messages.SaveGifRequest(
                id=types.InputDocument(document.id, document.access_hash, document.file_reference), unsave=False))
            saved = await self.client(functions.messages.GetSavedGifsRequest(hash=0))
            again = await self.client(functions.messages.GetSavedGifsRequest(hash=saved.hash))
            return {"gifs": [g.id for g in saved.gifs],
                    "unchanged": isinstance(again, types.messages.SavedGifsNotModified)}
        if op == "contacts":
            # contacts.getContacts: the user ids in this account's contact list.
            result = await self.client(functions.contacts.GetContactsRequest(hash=0))
            return {"user_ids": sorted(c.user_id for c in result.contacts)}
        if op == "common_chats":
            # messages.getCommonChats and users.getFullUser's common_chats_count with the user `with`.
            user = await self.user(command["with"])
            chats = await self.client(functions.messages.GetCommonChatsRequest(user_id=user, max_id=0, limit=100))
            full = await self.client(functions.users.GetFullUserRequest(user))
            return {"titles": sorted(c.title for c in chats.chats), "count": full.full_user.common_chats_count}
        if op == "exit":
            return {}
        raise RuntimeError("unknown op %r" % op)


def write(path, value):
    with open(path + ".tmp", "w") as f:
        json.dump(value, f)
    os.rename(path + ".tmp", path)


async def run(args):
    client = await connect(args.host, args.port, args.pem_file, args.phone)
    try:
        me = await sign_up(client, args.phone, args.name)
        await client(functions.account.UpdateUsernameRequest(args.username))
        write(os.path.join(args.workdir, "ready.json"), {"user_id": me.id})
        peer = Peer(client)
        deadline = time.monotonic() + args.timeout
        number = 1
        while time.monotonic() < deadline:
            path = os.path.join(args.workdir, "cmd-%d.json" % number)
            if not os.path.exists(path):
                await asyncio.sleep(0.05)
                continue
            with open(path) as f:
                command = json.load(f)
            try:
                answer = await peer.handle(command)
            except Exception as error:  # the test reads the error and fails with it
                answer = {"error": "%s: %s" % (type(error).__name__, error)}
            write(os.path.join(args.workdir, "out-%d.json" % number), answer)
            number += 1
            if command["op"] == "exit":
                return
    finally:
        await client.disconnect()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pem-file", required=True)
    parser.add_argument("--phone", required=True)
    parser.add_argument("--name", required=True)
    parser.add_argument("--username", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--timeout", type=float, default=120)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
