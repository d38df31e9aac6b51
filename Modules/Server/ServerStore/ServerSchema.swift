/// The tables of tg-server's database, as numbered migrations: migration n runs once, in order, inside one
/// transaction that also sets `PRAGMA user_version = n`, so a database is always at a whole version. Existing
/// migrations never change; a new column or table is a new migration.
enum ServerSchema {
    static let migrations: [String] = [
        // 1: accounts, authorizations, login codes, message boxes, dialogs, the update log, basic groups.
        """
        CREATE TABLE users (
            id INTEGER PRIMARY KEY, access_hash INTEGER NOT NULL, phone TEXT NOT NULL UNIQUE,
            first_name TEXT NOT NULL, last_name TEXT NOT NULL DEFAULT '', username TEXT,
            username_key TEXT UNIQUE, about TEXT NOT NULL DEFAULT '', dc INTEGER NOT NULL, created INTEGER NOT NULL,
            photo BLOB);
        CREATE TABLE authorizations (
            auth_key_id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, dc INTEGER NOT NULL, created INTEGER NOT NULL,
            device TEXT NOT NULL DEFAULT '', platform TEXT NOT NULL DEFAULT '', app TEXT NOT NULL DEFAULT '');
        CREATE INDEX authorizations_by_user ON authorizations(user_id);
        CREATE TABLE phone_codes (
            phone TEXT PRIMARY KEY, code_hash TEXT NOT NULL, code TEXT NOT NULL, expires INTEGER NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE user_state (
            user_id INTEGER PRIMARY KEY, pts INTEGER NOT NULL, qts INTEGER NOT NULL, seq INTEGER NOT NULL,
            date INTEGER NOT NULL, next_message_id INTEGER NOT NULL);
        CREATE TABLE messages (
            owner INTEGER NOT NULL, id INTEGER NOT NULL, global_id INTEGER NOT NULL, peer_kind INTEGER NOT NULL,
            peer_id INTEGER NOT NULL, from_id INTEGER NOT NULL, outgoing INTEGER NOT NULL, date INTEGER NOT NULL,
            edit_date INTEGER, text TEXT NOT NULL, entities BLOB, media BLOB, media_kind INTEGER NOT NULL DEFAULT 0,
            reply_to INTEGER, forward BLOB, grouped_id INTEGER, silent INTEGER NOT NULL DEFAULT 0, action BLOB,
            PRIMARY KEY (owner, id)) WITHOUT ROWID;
        CREATE INDEX messages_by_peer ON messages(owner, peer_kind, peer_id, id);
        CREATE INDEX messages_by_global ON messages(global_id);
        CREATE TABLE message_random_ids (
            owner INTEGER NOT NULL, random_id INTEGER NOT NULL, id INTEGER NOT NULL,
            PRIMARY KEY (owner, random_id)) WITHOUT ROWID;
        CREATE TABLE dialogs (
            owner INTEGER NOT NULL, peer_kind INTEGER NOT NULL, peer_id INTEGER NOT NULL,
            top_message INTEGER NOT NULL, read_inbox_max INTEGER NOT NULL DEFAULT 0,
            read_outbox_max INTEGER NOT NULL DEFAULT 0, pinned INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (owner, peer_kind, peer_id)) WITHOUT ROWID;
        CREATE TABLE updates (
            owner INTEGER NOT NULL, pts INTEGER NOT NULL, pts_count INTEGER NOT NULL, date INTEGER NOT NULL,
            body BLOB NOT NULL, PRIMARY KEY (owner, pts)) WITHOUT ROWID;
        CREATE TABLE contacts (
            owner INTEGER NOT NULL, user_id INTEGER NOT NULL, first_name TEXT NOT NULL, last_name TEXT NOT NULL,
            PRIMARY KEY (owner, user_id)) WITHOUT ROWID;
        CREATE TABLE chats (
            id INTEGER PRIMARY KEY, title TEXT NOT NULL, creator INTEGER NOT NULL, date INTEGER NOT NULL,
            version INTEGER NOT NULL DEFAULT 1);
        CREATE TABLE chat_members (
            chat_id INTEGER NOT NULL, user_id INTEGER NOT NULL, inviter INTEGER NOT NULL, date INTEGER NOT NULL,
            PRIMARY KEY (chat_id, user_id)) WITHOUT ROWID;
        CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
        """,
        // 2: documents and photos (their bytes live in the FileVault, named by SHA-256).
        """
        CREATE TABLE documents (
            id INTEGER PRIMARY KEY, access_hash INTEGER NOT NULL, owner INTEGER NOT NULL, dc INTEGER NOT NULL,
            date INTEGER NOT NULL, mime TEXT NOT NULL, size INTEGER NOT NULL, sha256 TEXT NOT NULL, attributes BLOB,
            thumbs BLOB);
        CREATE TABLE photos (
            id INTEGER PRIMARY KEY, access_hash INTEGER NOT NULL, owner INTEGER NOT NULL, dc INTEGER NOT NULL,
            date INTEGER NOT NULL, sizes BLOB NOT NULL);
        CREATE TABLE photo_files (
            photo_id INTEGER NOT NULL, type TEXT NOT NULL, sha256 TEXT NOT NULL, size INTEGER NOT NULL,
            PRIMARY KEY (photo_id, type)) WITHOUT ROWID;
        """,
        // 3: the sticker sets each account installed.
        """
        CREATE TABLE installed_sticker_sets (
            user_id INTEGER NOT NULL, set_id INTEGER NOT NULL, date INTEGER NOT NULL,
            PRIMARY KEY (user_id, set_id)) WITHOUT ROWID;
        """,
        // 4: two-step verification: the SRP verifier of each account's password (never the password).
        """
        CREATE TABLE passwords (
            user_id INTEGER PRIMARY KEY, salt1 BLOB NOT NULL, salt2 BLOB NOT NULL, g INTEGER NOT NULL, p BLOB NOT NULL,
            verifier BLOB NOT NULL, hint TEXT NOT NULL DEFAULT '');
        """,
        // 5: devices registered for pushes (`account.registerDevice`): one row per account on a token (every account
        // of an installation registers the installation's token, each with its own 256-byte secret).
        """
        CREATE TABLE push_devices (
            token_type INTEGER NOT NULL, token TEXT NOT NULL, user_id INTEGER NOT NULL, auth_key_id INTEGER NOT NULL,
            secret BLOB NOT NULL, PRIMARY KEY (token_type, token, user_id)) WITHOUT ROWID;
        CREATE INDEX push_devices_user ON push_devices (user_id);
        """,
        // 6: secret chats — the relay's view: who, the public DH values and fingerprint (never a key), the qts
        // log of encrypted messages per account, the encrypted files as uploaded.
        """
        CREATE TABLE encrypted_chats (
            id INTEGER PRIMARY KEY, access_hash INTEGER NOT NULL, admin_id INTEGER NOT NULL,
            participant_id INTEGER NOT NULL, date INTEGER NOT NULL, g_a BLOB NOT NULL, g_b BLOB,
            key_fingerprint INTEGER, state INTEGER NOT NULL, history_deleted INTEGER NOT NULL DEFAULT 0,
            changed INTEGER NOT NULL);
        CREATE INDEX encrypted_chats_by_admin ON encrypted_chats(admin_id);
        CREATE INDEX encrypted_chats_by_participant ON encrypted_chats(participant_id);
        CREATE TABLE qts_updates (
            owner INTEGER NOT NULL, qts INTEGER NOT NULL, date INTEGER NOT NULL, body BLOB NOT NULL,
            PRIMARY KEY (owner, qts)) WITHOUT ROWID;
        CREATE TABLE encrypted_random_ids (
            chat_id INTEGER NOT NULL, random_id INTEGER NOT NULL, PRIMARY KEY (chat_id, random_id)) WITHOUT ROWID;
        CREATE TABLE encrypted_files (
            id INTEGER PRIMARY KEY, access_hash INTEGER NOT NULL, owner INTEGER NOT NULL, dc INTEGER NOT NULL,
            size INTEGER NOT NULL, sha256 TEXT NOT NULL, key_fingerprint INTEGER NOT NULL, date INTEGER NOT NULL);
        """,
        // 7: a secret chat belongs to one device on each side — the authorization that requested it and the one that
        // accepted it — and a qts update to the device of its chat (null: every device of the account).
        """
        ALTER TABLE encrypted_chats ADD COLUMN admin_auth_key INTEGER;
        ALTER TABLE encrypted_chats ADD COLUMN participant_auth_key INTEGER;
        ALTER TABLE qts_updates ADD COLUMN auth_key INTEGER;
        """,
        // 8: limits on guessing (login codes, passwords) that survive restarts, and the server's own secrets (the key
        // of file references).
        """
        CREATE TABLE attempt_limits (
            key TEXT PRIMARY KEY, count INTEGER NOT NULL, last INTEGER NOT NULL, blocked_until INTEGER NOT NULL
            ) WITHOUT ROWID;
        CREATE TABLE server_secrets (name TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID;
        """,
        // 9: supergroups and broadcast channels (core.telegram.org "Channels, supergroups, gigagroups and basic
        // groups"): each channel's messages are stored once, under the channel's own id sequence, with the channel's
        // own pts log; per member only the membership, rights and read marks.
        """
        CREATE TABLE channels (
            id INTEGER PRIMARY KEY, title TEXT NOT NULL, about TEXT NOT NULL DEFAULT '', username TEXT,
            username_key TEXT UNIQUE, creator INTEGER NOT NULL, date INTEGER NOT NULL, broadcast INTEGER NOT NULL,
            pts INTEGER NOT NULL DEFAULT 0, next_message_id INTEGER NOT NULL DEFAULT 1,
            deleted INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE channel_members (
            channel_id INTEGER NOT NULL, user_id INTEGER NOT NULL, status INTEGER NOT NULL, inviter INTEGER NOT NULL,
            date INTEGER NOT NULL, admin_rights BLOB, promoted_by INTEGER, rank TEXT, banned_rights BLOB,
            kicked_by INTEGER, read_inbox_max INTEGER NOT NULL DEFAULT 0, pinned INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (channel_id, user_id)) WITHOUT ROWID;
        CREATE INDEX channel_members_by_user ON channel_members(user_id, status);
        CREATE TABLE channel_messages (
            channel_id INTEGER NOT NULL, id INTEGER NOT NULL, from_id INTEGER NOT NULL, post INTEGER NOT NULL,
            date INTEGER NOT NULL, edit_date INTEGER, text TEXT NOT NULL, entities BLOB, media BLOB,
            media_kind INTEGER NOT NULL DEFAULT 0, reply_to INTEGER, forward BLOB, grouped_id INTEGER,
            silent INTEGER NOT NULL DEFAULT 0, action BLOB, views INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (channel_id, id)) WITHOUT ROWID;
        CREATE TABLE channel_random_ids (
            channel_id INTEGER NOT NULL, sender INTEGER NOT NULL, random_id INTEGER NOT NULL, id INTEGER NOT NULL,
            PRIMARY KEY (channel_id, sender, random_id)) WITHOUT ROWID;
        CREATE TABLE channel_updates (
            channel_id INTEGER NOT NULL, pts INTEGER NOT NULL, pts_count INTEGER NOT NULL, date INTEGER NOT NULL,
            body BLOB NOT NULL, PRIMARY KEY (channel_id, pts)) WITHOUT ROWID;
        CREATE TABLE channel_message_views (
            channel_id INTEGER NOT NULL, id INTEGER NOT NULL, user_id INTEGER NOT NULL,
            PRIMARY KEY (channel_id, id, user_id)) WITHOUT ROWID;
        """,
        // 10: pinned messages (core.telegram.org method `messages.updatePinnedMessage`): a flag on each box's copy of a
        // message and on each channel message, indexed so the newest pinned one (`pinned_msg_id`) is one lookup.
        """
        ALTER TABLE messages ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE channel_messages ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX messages_pinned ON messages(owner, peer_kind, peer_id, id) WHERE pinned = 1;
        CREATE INDEX channel_messages_pinned ON channel_messages(channel_id, id) WHERE pinned = 1;
        """,
        // 11: invite links of basic groups and channels (core.telegram.org method `messages.exportChatInvite`), and
        // who joined or asked to join through each (`messages.getChatInviteImporters`, `hideChatJoinRequest`).
        """
        CREATE TABLE chat_invites (
            hash TEXT PRIMARY KEY, peer_kind INTEGER NOT NULL, peer_id INTEGER NOT NULL, admin_id INTEGER NOT NULL,
            date INTEGER NOT NULL, expire_date INTEGER, usage_limit INTEGER, usage INTEGER NOT NULL DEFAULT 0,
            request_needed INTEGER NOT NULL DEFAULT 0, title TEXT, revoked INTEGER NOT NULL DEFAULT 0,
            permanent INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;
        CREATE INDEX chat_invites_by_peer ON chat_invites(peer_kind, peer_id, admin_id, revoked, date);
        CREATE TABLE chat_invite_importers (
            peer_kind INTEGER NOT NULL, peer_id INTEGER NOT NULL, user_id INTEGER NOT NULL, hash TEXT NOT NULL,
            date INTEGER NOT NULL, requested INTEGER NOT NULL, approved_by INTEGER,
            PRIMARY KEY (peer_kind, peer_id, user_id)) WITHOUT ROWID;
        CREATE INDEX chat_invite_importers_by_hash ON chat_invite_importers(hash, requested, date);
        """,
        // 12: channel and group settings (core.telegram.org methods `channels.toggleSlowMode`,
        // `channels.toggleSignatures`, `messages.editChatDefaultBannedRights`): slow mode with each member's last post,
        // post signatures with each post's author name, default banned rights of supergroups and basic groups.
        """
        ALTER TABLE channels ADD COLUMN slowmode_seconds INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE channels ADD COLUMN signatures INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE channels ADD COLUMN default_banned_rights BLOB;
        ALTER TABLE channel_members ADD COLUMN last_post INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE channel_messages ADD COLUMN post_author TEXT;
        ALTER TABLE chats ADD COLUMN default_banned_rights BLOB;
        """,
        // 13: a channel's photo (core.telegram.org method `channels.editPhoto`), the serialized `Photo`.
        """
        ALTER TABLE channels ADD COLUMN photo BLOB;
        """,
        // 14: basic groups migrated to supergroups (core.telegram.org method `messages.migrateChat`): the supergroup
        // each became, indexed so a supergroup finds the group it came from.
        """
        ALTER TABLE chats ADD COLUMN migrated_to INTEGER;
        CREATE INDEX chats_by_migrated_to ON chats(migrated_to) WHERE migrated_to IS NOT NULL;
        """,
        // 15: a voice note not yet listened to (core.telegram.org constructor `message`, flag `media_unread`; method
        // `messages.readMessageContents`), on each box's copy.
        """
        ALTER TABLE messages ADD COLUMN media_unread INTEGER NOT NULL DEFAULT 0;
        """,
        // 16: presence and its privacy (core.telegram.org "Privacy" and constructor `userStatusOffline`): each
        // account's privacy rules by key (the serialized `Vector<PrivacyRule>`), when each account was last online,
        // and who watches an account's status (its contacts' owners and private chats) found by index.
        """
        CREATE TABLE privacy_rules (
            owner INTEGER NOT NULL, key TEXT NOT NULL, rules BLOB NOT NULL, PRIMARY KEY (owner, key)) WITHOUT ROWID;
        CREATE TABLE presences (user_id INTEGER PRIMARY KEY, was_online INTEGER NOT NULL);
        CREATE INDEX contacts_by_user ON contacts(user_id, owner);
        CREATE INDEX dialogs_by_peer ON dialogs(peer_kind, peer_id, owner);
        """,
        // 17: blocked users (core.telegram.org methods `contacts.block`, `contacts.getBlocked`): whom each account
        // blocked and when, paged newest first.
        """
        CREATE TABLE blocks (
            owner INTEGER NOT NULL, user_id INTEGER NOT NULL, date INTEGER NOT NULL,
            PRIMARY KEY (owner, user_id)) WITHOUT ROWID;
        CREATE INDEX blocks_by_date ON blocks(owner, date, user_id);
        """,
        // 18: message reactions (core.telegram.org "Message reactions", methods `messages.sendReaction`,
        // `messages.setChatAvailableReactions`): each account's reactions to a message — keyed by the global id its
        // copies share in private chats and basic groups (`channel_id` 0), by the channel and message id in channels —
        // and the reactions a basic group or channel allows (`mode` 0 all, 1 some, 2 none).
        """
        CREATE TABLE message_reactions (
            channel_id INTEGER NOT NULL, message_key INTEGER NOT NULL, user_id INTEGER NOT NULL,
            emoticon TEXT NOT NULL, chosen_order INTEGER NOT NULL, big INTEGER NOT NULL, date INTEGER NOT NULL,
            PRIMARY KEY (channel_id, message_key, user_id, emoticon)
        ) WITHOUT ROWID;
        CREATE INDEX message_reactions_by_date ON message_reactions(channel_id, message_key, date);
        CREATE TABLE chat_reactions (
            peer_kind INTEGER NOT NULL, peer_id INTEGER NOT NULL, mode INTEGER NOT NULL, emoticons TEXT NOT NULL,
            reactions_limit INTEGER NOT NULL, PRIMARY KEY (peer_kind, peer_id)
        ) WITHOUT ROWID;
        """,
        // 19: drafts (core.telegram.org "Message drafts", methods `messages.saveDraft`, `messages.getAllDrafts`): one per
        // account and chat (`peer_kind` 0 a user, 1 a basic group, 2 a channel), with its reply and entities.
        """
        CREATE TABLE drafts (
            owner INTEGER NOT NULL, peer_kind INTEGER NOT NULL, peer_id INTEGER NOT NULL, text TEXT NOT NULL,
            entities BLOB, reply_to INTEGER, no_webpage INTEGER NOT NULL, date INTEGER NOT NULL,
            PRIMARY KEY (owner, peer_kind, peer_id)
        ) WITHOUT ROWID;
        """,
        // 20: scheduled messages (core.telegram.org "Scheduled messages",
        // `messages.sendMessage` with `schedule_date`, `messages.getScheduledHistory`): each account's messages waiting
        // for their date, numbered in an id space of their own per account, with the `InputPeer` they were sent to
        // (`peer_kind` 0 a user, 1 a basic group, 2 a channel) so they are sent as their sender sent them.
        """
        CREATE TABLE scheduled_messages (
            owner INTEGER NOT NULL, id INTEGER NOT NULL, peer_kind INTEGER NOT NULL, peer_id INTEGER NOT NULL,
            input_peer BLOB NOT NULL, date INTEGER NOT NULL, text TEXT NOT NULL, entities BLOB, media BLOB,
            media_kind INTEGER NOT NULL, reply_to INTEGER, silent INTEGER NOT NULL, random_id INTEGER NOT NULL,
            PRIMARY KEY (owner, id)
        ) WITHOUT ROWID;
        CREATE INDEX scheduled_messages_by_peer ON scheduled_messages(owner, peer_kind, peer_id, date);
        CREATE INDEX scheduled_messages_by_date ON scheduled_messages(date);
        """,
        // 21: notify settings (core.telegram.org methods `account.updateNotifySettings`, `account.getNotifySettings`):
        // one row per account and peer (`peer_kind` 0 a user, 1 a basic group, 2 a channel) or kind of peer (3 all
        // private chats, 4 all groups, 5 all channels, `peer_id` 0); a null field is one the client left unset.
        """
        CREATE TABLE notify_settings (
            owner INTEGER NOT NULL, peer_kind INTEGER NOT NULL, peer_id INTEGER NOT NULL, mute_until INTEGER,
            silent INTEGER, show_previews INTEGER, date INTEGER NOT NULL, PRIMARY KEY (owner, peer_kind, peer_id)
        ) WITHOUT ROWID;
        """,
        // 22: polls (core.telegram.org "Polls and quizzes", methods `messages.sendVote`, `messages.getPollResults`,
        // `messages.getPollVotes`): each poll once, by its id, shared by every message that shows it (its copies in
        // private chats and basic groups, a channel's post, forwards) — the `Poll` as sent (serialized), a quiz's
        // right answers (indices), its solution, whether it is closed — and each account's chosen answers.
        """
        CREATE TABLE polls (
            id INTEGER PRIMARY KEY, creator INTEGER NOT NULL, poll BLOB NOT NULL, correct TEXT NOT NULL,
            solution TEXT, solution_entities BLOB, closed INTEGER NOT NULL, close_date INTEGER, date INTEGER NOT NULL);
        CREATE TABLE poll_votes (
            poll_id INTEGER NOT NULL, user_id INTEGER NOT NULL, option BLOB NOT NULL, date INTEGER NOT NULL,
            PRIMARY KEY (poll_id, user_id, option)
        ) WITHOUT ROWID;
        CREATE INDEX poll_votes_by_date ON poll_votes(poll_id, date, user_id);
        """,
        // 23: common chats (core.telegram.org `messages.getCommonChats`, `userFull.common_chats_count`): the basic
        // groups of a user found by index, as `channel_members_by_user` finds their channels.
        """
        CREATE INDEX chat_members_by_user ON chat_members(user_id, chat_id);
        """,
        // 24: a basic group's photo (core.telegram.org method `messages.editChatPhoto`), the serialized `Photo`; and
        // each account's updates that carry no pts (`updateChatDefaultBannedRights`), kept at the pts the account had
        // when they were made, so `updates.getDifference` hands them to a client that was away.
        """
        ALTER TABLE chats ADD COLUMN photo BLOB;
        CREATE TABLE updates_without_pts (
            owner INTEGER NOT NULL, pts INTEGER NOT NULL, date INTEGER NOT NULL, body BLOB NOT NULL);
        CREATE INDEX updates_without_pts_by_owner ON updates_without_pts(owner, pts);
        """,
        // 25: each account's saved GIFs (core.telegram.org methods `messages.saveGif`, `messages.getSavedGifs`): the
        // documents in the order they were saved, the latest with the highest position.
        """
        CREATE TABLE saved_gifs (
            owner INTEGER NOT NULL, document_id INTEGER NOT NULL, position INTEGER NOT NULL,
            PRIMARY KEY (owner, document_id));
        CREATE INDEX saved_gifs_by_position ON saved_gifs(owner, position);
        """,
    ]
}
