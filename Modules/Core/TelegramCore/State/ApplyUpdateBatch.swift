public import Postbox
import SyncCore
import SyncCoreApi
public import TelegramApi
public import UpdateSequencing

/// Writes one of the update state machine's batches into Postbox, inside the caller's transaction (Telegram-iOS
/// `replayFinalState` in `AccountStateManagementUtils.swift`): peers first (a `min` user merges into the stored one),
/// then every entry in order, then the state the batch reaches — so views see the whole batch at once, and a crash
/// leaves either all of it or none.
///
/// New messages are stored in the cloud namespace; a chat that had no history gets a hole below its first message,
/// filled from the server when a view reaches it. Edits replace the stored message; read updates move the read
/// states; `updateDeleteMessages` removes the messages its ids name, found through Postbox's global message id index
/// (private chats and basic groups share one id sequence). Channel updates (released by the channels' own pts
/// sequences) store, edit and delete the channel's messages by their per-channel ids, move its read marks and view
/// counts, and `channelTooLong` stores the channel's newest messages with a hole below them; each channel's pts is
/// written as its `ChannelState` in the same transaction. Pins (`updatePinnedMessages` in the common pts,
/// `updatePinnedChannelMessages` in the channel's) tag or untag the stored messages `.pinned` (`PinnedMessages`). `updateShortSentMessage` is the pending-message
/// manager's.
public struct UpdateBatchApplier: Sendable {
    public let accountPeerId: PeerId
    /// Secret-chat updates (`updateEncryption`, `updateNewEncryptedMessage`, the difference's encrypted messages),
    /// applied in the batch's transaction by the account's `SecretChatManager`.
    public var secretChats: (@Sendable (Api.Update, Transaction) throws -> Void)?

    public init(accountPeerId: PeerId, secretChats: (@Sendable (Api.Update, Transaction) throws -> Void)? = nil) {
        self.accountPeerId = accountPeerId
        self.secretChats = secretChats
    }

    /// What one batch changed, for logs, tests, benchmarks and whoever follows the account's changes
    /// (`AccountStateManager.appliedBatches`).
    public struct Summary: Equatable, Sendable {
        public var storedMessages = 0
        public var editedMessages = 0
        public var readStates = 0
        public var deletedMessages = 0
        public var peers = 0
        /// The messages stored for the first time, in order.
        public var added: [MessageId] = []
        /// The messages an edit replaced, in order.
        public var edited: [MessageId] = []
        /// The messages removed by `updateDeleteMessages`.
        public var deleted: [MessageId] = []
        /// Stored messages pinned and unpinned (`updatePinnedMessages`, `updatePinnedChannelMessages`).
        public var pinned: [MessageId] = []
        public var unpinned: [MessageId] = []
        /// Incoming read marks moved: the chat and the id read up to (the other side read ours: `readOutbox`).
        public var readInbox: [MessageId] = []
        public var readOutbox: [MessageId] = []
        /// Voice notes and round videos marked played by `updateReadMessagesContents`.
        public var consumed: [MessageId] = []
        /// Stored messages whose reactions `updateMessageReactions` changed.
        public var reactions: [MessageId] = []
        /// Stored polls whose results or state `updateMessagePoll` changed, by poll id.
        public var polls: [Int64] = []
        /// `updateMessagePoll`s for polls not stored when they came: the state manager tries them again after the
        /// next batches (a vote in our own poll can arrive before our send's answer is stored).
        public var pollsNotStored: [PollUpdate] = []

        /// An `updateMessagePoll` kept for later (compared by identity: the same update, not an equal one).
        public struct PollUpdate: Equatable, Sendable {
            public let update: Api.Update.Cons_updateMessagePoll
            public static func == (lhs: PollUpdate, rhs: PollUpdate) -> Bool { lhs.update === rhs.update }
        }
        /// Chats whose draft `updateDraftMessage` set or cleared (`ChatInputStates`).
        public var drafts: [PeerId] = []
        /// Scheduled messages `updateNewScheduledMessage` added (`ScheduledMessages`).
        public var scheduled: [MessageId] = []
        /// Scheduled messages `updateDeleteScheduledMessages` removed (deleted, or sent).
        public var unscheduled: [MessageId] = []
        /// Chats whose notify settings `updateNotifySettings` changed (`PeerNotificationSettingsEntry`).
        public var notifySettings: [PeerId] = []
        /// Channels whose recent history `channelDifferenceTooLong` replaced (a hole below its newest messages).
        public var resetChannels: [PeerId] = []
        /// Update constructors neither applied nor deliberately ignored (`ignoredUpdates`), in order: a kind this
        /// client does not know yet, counted rather than dropped silently (`AccountStateManager.Statistics`).
        public var unhandled: [String] = []
        /// Users whose presence `updateUserStatus` changed (stored in Postbox's presence table).
        public var presences: [PeerId] = []
        /// Peers blocked (`true`) or unblocked on another device (`updatePeerBlocked`, stored in `BlockedPeers`).
        public var blocked: [BlockedChange] = []
        /// Whether `updateContactsReset` emptied the contact list.
        public var contactsReset = false
        /// Typing notices (`updateUserTyping`, `updateChatUserTyping`, `updateChannelUserTyping`), and the end of
        /// the typing of whoever sent a new message: not stored, for `PeerActivities`.
        public var typing: [TypingNotice] = []
    }

    @discardableResult
    public func apply(_ batch: UpdateSequencer.Batch, transaction tx: Transaction) throws -> Summary {
        var summary = Summary()
        summary.peers = try storePeers(users: batch.users, chats: batch.chats, transaction: tx)
        var newMessages: [StoreMessage] = []
        func flushMessages() throws {
            guard !newMessages.isEmpty else { return }
            try CloudHoleSpaces.addHolesBelowFirstMessages(newMessages, transaction: tx)
            // A message already stored (our own sent message, replaced by the pending-message manager, or one a
            // history page brought) keeps its stable id: only edits rewrite it. One the notification service stored
            // from a push has only what the push carried: the server's copy replaces it, keeping its stable id. The
            // same message twice in one batch is stored once, as its first copy.
            let (added, storedPositions) = try tx.addMessagesKeepingStored(newMessages)
            summary.added += added
            var isStored = [Bool](repeating: false, count: newMessages.count)
            for position in storedPositions {
                isStored[position] = true
                let message = newMessages[position]
                guard case .id(let id) = message.id else { continue }
                if try tx.getMessage(id)?.isFromNotification == true { try tx.updateMessage(id) { _ in message } }
            }
            // A message ends its author's typing in that chat, as Telegram's clients show it.
            for (position, message) in newMessages.enumerated()
            where !isStored[position] && message.flags.contains(.incoming) {
                if let author = message.authorId {
                    summary.typing.append(TypingNotice(chat: message.id.peerId, user: author, active: false))
                }
            }
            summary.storedMessages += newMessages.count
            newMessages.removeAll()
        }
        for entry in batch.entries {
            switch entry {
            case .newMessage(let message):
                if let stored = StoreMessage(apiMessage: message, accountPeerId: accountPeerId) {
                    newMessages.append(stored)
                }
            case .update(.updateNewMessage(let update)):
                if let stored = StoreMessage(apiMessage: update.message, accountPeerId: accountPeerId) {
                    newMessages.append(stored)
                }
            case .update(.updateNewChannelMessage(let update)):
                if let stored = StoreMessage(apiMessage: update.message, accountPeerId: accountPeerId) {
                    newMessages.append(stored)
                }
            case .update(.updateEditMessage(let update)):
                try flushMessages()
                if let id = try edit(update.message, transaction: tx) {
                    summary.editedMessages += 1
                    summary.edited.append(id)
                }
            case .update(.updateEditChannelMessage(let update)):
                try flushMessages()
                if let id = try edit(update.message, transaction: tx) {
                    summary.editedMessages += 1
                    summary.edited.append(id)
                }
            case .update(.updateDeleteChannelMessages(let update)):
                try flushMessages()
                let channel = PeerId.channel(update.channelId)
                let ids = try update.messages.map {
                    MessageId(peerId: channel, namespace: Namespaces.Message.cloud, id: $0)
                }.filter { try tx.messageIndex($0) != nil }
                try tx.deleteMessages(ids)
                summary.deletedMessages += ids.count
                summary.deleted += ids
            case .update(.updateReadChannelInbox(let update)):
                try flushMessages()
                let id = MessageId(
                    peerId: .channel(update.channelId), namespace: Namespaces.Message.cloud, id: update.maxId)
                if try ChannelHistory.readInbox(
                    id.peerId, maxId: update.maxId, stillUnread: update.stillUnreadCount, transaction: tx)
                {
                    summary.readStates += 1
                    summary.readInbox.append(id)
                }
            case .update(.updateReadChannelOutbox(let update)):
                try flushMessages()
                let id = MessageId(
                    peerId: .channel(update.channelId), namespace: Namespaces.Message.cloud, id: update.maxId)
                try tx.applyOutgoingReadMaxId(id)
                summary.readStates += 1
                summary.readOutbox.append(id)
            case .update(.updateMessageReactions(let update)):
                // Someone (we too, from another device or our own call's answer) reacted: the counts replace ours.
                try flushMessages()
                let id = MessageId(peerId: PeerId(update.peer), namespace: Namespaces.Message.cloud, id: update.msgId)
                if try MessageReactionsState.set(update.reactions, of: id, transaction: tx) {
                    summary.reactions.append(id)
                }
            case .update(.updateWebPage(let update)):
                // A link preview the server was fetching is ready (Telegram-iOS `AccountStateManagementUtils`,
                // `.UpdateWebPage`: `transaction.updateMedia`): every stored message showing it gets the page. A
                // `webPageEmpty` leaves the pending page, which draws nothing.
                try flushMessages()
                try Self.storeWebPage(update.webpage, transaction: tx)
            case .update(.updateChannelWebPage(let update)):
                // The same for a channel post's page, in the channel's own pts sequence.
                try flushMessages()
                try Self.storeWebPage(update.webpage, transaction: tx)
            case .update(.updateMessagePoll(let update)):
                // A vote (ours from another device, our own call's answer, anyone's) or the poll closing: the shared
                // poll every message showing it refers to is replaced.
                try flushMessages()
                switch try MessagePollState.applyReporting(update, transaction: tx) {
                case .changed: summary.polls.append(update.pollId)
                case .unchanged: break
                case .notStored: summary.pollsNotStored.append(.init(update: update))
                }
            case .update(.updateNotifySettings(let update)):
                // Our notify settings, changed on another device (Telegram-iOS `updatePeerNotificationSettings` in
                // `AccountStateManagementUtils`). Only one chat's are kept here; a kind's (`notifyUsers`, …) and a
                // topic's are the server's alone, as nothing on this side reads them.
                if case .notifyPeer(let target) = update.peer {
                    let peerId = PeerId(target.peer)
                    if try PeerNotificationSettingsEntry.set(
                        TelegramPeerNotificationSettings(apiSettings: update.notifySettings), for: peerId,
                        transaction: tx)
                    {
                        summary.notifySettings.append(peerId)
                    }
                }
            case .update(.updateDraftMessage(let update)) where update.topMsgId == nil && update.savedPeerId == nil:
                // Our draft, saved or cleared on another device (or cleared by our own send).
                let peerId = PeerId(update.peer)
                if try ChatInputStates.set(
                    SynchronizeableChatInputState(apiDraft: update.draft), for: peerId, transaction: tx)
                {
                    summary.drafts.append(peerId)
                }
            case .update(.updateNewScheduledMessage(let update)):
                // Scheduled on another device (or our own call's answer): kept apart from the chat's history.
                if let scheduled = ScheduledMessages.message(update.message),
                    try ScheduledMessages.add(scheduled, transaction: tx)
                {
                    summary.scheduled.append(scheduled.id)
                }
            case .update(.updateDeleteScheduledMessages(let update)):
                // Deleted, or sent (`sent_messages`: the sent copy arrives as a normal new message).
                summary.unscheduled += try ScheduledMessages.remove(
                    update.messages, in: PeerId(update.peer), transaction: tx)
            case .update(.updateChannelMessageViews(let update)):
                try flushMessages()
                let id = MessageId(
                    peerId: .channel(update.channelId), namespace: Namespaces.Message.cloud, id: update.id)
                try ChannelHistory.setViews(update.views, of: id, transaction: tx)
            case .channelTooLong(let channelId, let dialog, let messages):
                try flushMessages()
                try ChannelHistory.reset(
                    .channel(channelId), dialog: dialog, messages: messages, accountPeerId: accountPeerId,
                    transaction: tx)
                summary.resetChannels.append(.channel(channelId))
            case .update(.updateReadHistoryInbox(let update)):
                try flushMessages()
                let id = MessageId(peerId: PeerId(update.peer), namespace: Namespaces.Message.cloud, id: update.maxId)
                try tx.applyIncomingReadMaxId(id)
                summary.readStates += 1
                summary.readInbox.append(id)
            case .update(.updateReadHistoryOutbox(let update)):
                try flushMessages()
                let id = MessageId(peerId: PeerId(update.peer), namespace: Namespaces.Message.cloud, id: update.maxId)
                try tx.applyOutgoingReadMaxId(id)
                summary.readStates += 1
                summary.readOutbox.append(id)
            case .update(.updateReadMessagesContents(let update)):
                // Voice notes played (by us on another device, or by the other side on our messages): global ids.
                try flushMessages()
                for id in try tx.messageIds(globalIds: update.messages, namespace: Namespaces.Message.cloud) {
                    if try ConsumedContents.markConsumed(id, transaction: tx) { summary.consumed.append(id) }
                }
            case .update(.updateDeleteMessages(let update)):
                try flushMessages()
                let deleted = try tx.deleteMessages(globalIds: update.messages, namespace: Namespaces.Message.cloud)
                summary.deletedMessages += deleted.count
                summary.deleted += deleted
            case .update(.updatePinnedMessages(let update)):
                try flushMessages()
                let chat = PeerId(update.peer)
                try pin(
                    update.pinned,
                    update.messages.map { MessageId(peerId: chat, namespace: Namespaces.Message.cloud, id: $0) },
                    into: &summary, transaction: tx)
            case .update(.updatePinnedChannelMessages(let update)):
                try flushMessages()
                let channel = PeerId.channel(update.channelId)
                try pin(
                    update.pinned,
                    update.messages.map { MessageId(peerId: channel, namespace: Namespaces.Message.cloud, id: $0) },
                    into: &summary, transaction: tx)
            case .update(.updateUserName(let update)):
                try flushMessages()
                if var user = try tx.getPeer(.user(update.userId)) as? TelegramUser {
                    user.firstName = update.firstName
                    user.lastName = update.lastName
                    user.username =
                        update.usernames.compactMap { username -> String? in
                            if case .username(let value) = username, value.active { return value.username }
                            return nil
                        }.first
                    try tx.updatePeers([user])
                }
            case .update(.updateUser), .update(.updatePeerSettings):
                // A user's profile changed (a new photo), or a contact was added or removed on another device: the
                // same `Updates` carries the user in `users`, which the batch stored first (its `contact` flag moves
                // it in or out of the contact list: `ContactList.follow`). The "add contact" offer of
                // `updatePeerSettings` is not kept: Telegram-iOS keeps it in cached peer data, which we do not have.
                break
            case .update(.updateUserStatus(let update)):
                try flushMessages()
                try tx.updatePeerPresences([.user(update.userId): TelegramUserPresence(apiStatus: update.status)])
                summary.presences.append(.user(update.userId))
            case .update(.updatePeerBlocked(let update)):
                // Blocked or unblocked from another device (Telegram-iOS stores it in the user's cached data).
                try flushMessages()
                try BlockedPeers.set(PeerId(update.peerId), blocked: update.blocked, transaction: tx)
                summary.blocked.append(BlockedChange(peerId: PeerId(update.peerId), blocked: update.blocked))
            case .update(.updateContactsReset):
                // core.telegram.org `updateContactsReset`: all contacts were deleted.
                try flushMessages()
                try tx.replaceContactPeerIds([])
                summary.contactsReset = true
            case .update(let update) where Self.isSecretChatUpdate(update):
                try flushMessages()
                try secretChats?(update, tx)
            case .update(.updateUserTyping(let update)) where update.topMsgId == nil:
                summary.typing.append(
                    TypingNotice(
                        chat: .user(update.userId), user: .user(update.userId), active: Self.isActive(update.action)))
            case .update(.updateChatUserTyping(let update)):
                summary.typing.append(
                    TypingNotice(
                        chat: .group(update.chatId), user: PeerId(update.fromId), active: Self.isActive(update.action)))
            case .update(.updateChannelUserTyping(let update)) where update.topMsgId == nil:
                summary.typing.append(
                    TypingNotice(
                        chat: .channel(update.channelId), user: PeerId(update.fromId),
                        active: Self.isActive(update.action)))
            case .newEncryptedMessage(let message):
                try flushMessages()
                try secretChats?(.updateNewEncryptedMessage(.init(message: message, qts: batch.state.qts)), tx)
            case .sentMessage:
                // Our own send's answer: the pending-message manager matches it with the message it confirms.
                break
            case .update(let update) where Self.ignoredUpdates.contains(Self.constructorName(update)):
                // Deliberately not stored; each constructor's reason is in `ignoredUpdates`.
                break
            case .update(let update):
                summary.unhandled.append(Self.constructorName(update))
            }
        }
        try flushMessages()
        for (channelId, pts) in batch.channelStates {
            try tx.setPeerChatState(.channel(channelId), state: ChannelState(pts: pts))
        }
        try tx.setState(AuthorizedAccountState(peerId: accountPeerId, state: batch.state))
        return summary
    }

    /// Pins or unpins the stored messages `ids` and notes them in `summary`.
    private func pin(
        _ pinned: Bool, _ ids: [MessageId], into summary: inout Summary, transaction tx: Transaction
    ) throws {
        let changed = try PinnedMessages.setPinned(pinned, ids, transaction: tx)
        if pinned { summary.pinned += changed } else { summary.unpinned += changed }
    }

    /// Update constructors tg-server sends that a batch deliberately does not store (`Modules/Core/README.md`, "Updates
    /// not stored"); any other constructor not applied above is counted in `Summary.unhandled`:
    /// - `updateMessageID`: the `random_id` → id of our own send, in the send's own answer; the pending-message
    ///   manager matches it (Telegram-iOS likewise only uses it to match pending messages).
    /// - `updateChannel`: a channel changed (title, rights, username, membership); the same `Updates` carries the
    ///   channel in its `chats`, which `storePeers` has already stored.
    /// - `updateChatDefaultBannedRights`: a group's default rights; its `chats` carry the group with them, stored.
    /// - `updateChannelTooLong`: turned into a channel difference by the channel sequencer before any batch.
    /// - `updatePendingJoinRequests`: an admin's count of join requests; not stored: `Account.joinRequests` asks the
    ///   server.
    /// - `updateUserTyping` and `updateChannelUserTyping` in a forum topic (`top_msg_id` set): not the chat's own
    ///   typing, which is the only typing shown (those without a topic become `TypingNotice`s above).
    /// - `updatePrivacy`: the account's own privacy rules changed on another device; not stored: `Account.lastSeenPrivacy()`
    ///   asks the server (`account.getPrivacy`) whenever they are shown.
    /// - `updateSavedGifs`: the account's saved GIFs changed on another device; the list is not stored:
    ///   `SavedGifs.fetch` asks the server (with the hash of the list held) whenever it is shown.
    public static let ignoredUpdates: Set<String> = [
        "updateMessageID", "updateChannel", "updateChatDefaultBannedRights", "updateChannelTooLong",
        "updatePendingJoinRequests", "updateUserTyping", "updateChannelUserTyping", "updatePrivacy",
        "updateSavedGifs",
    ]

    /// The TL constructor's name of `update` (`updateReadHistoryOutbox`), its Swift case's name.
    public static func constructorName(_ update: Api.Update) -> String {
        Mirror(reflecting: update).children.first?.label ?? String(describing: update)
    }

    /// Whether a typing action starts or goes on (any action but cancel: typing, recording, uploading, …).
    static func isActive(_ action: Api.SendMessageAction) -> Bool {
        if case .sendMessageCancelAction = action { return false }
        return true
    }

    /// A fetched page replaces the stored one every message showing it shares.
    static func storeWebPage(_ webpage: Api.WebPage, transaction tx: Transaction) throws {
        if let page = TelegramMediaWebpage(webpage), let id = page.id, try tx.getMedia(id) != nil {
            try tx.updateMedia(id, update: page)
        }
    }

    static func isSecretChatUpdate(_ update: Api.Update) -> Bool {
        switch update {
        case .updateEncryption, .updateNewEncryptedMessage, .updateEncryptedMessagesRead, .updateEncryptedChatTyping:
            return true
        default: return false
        }
    }

    /// Stores users, basic groups and channels (a `min` user or channel merges into the stored one); returns how many.
    public func storePeers(users: [Api.User], chats: [Api.Chat], transaction tx: Transaction) throws -> Int {
        var peers: [Peer] = []
        var presences: [PeerId: PeerPresence] = [:]
        for user in users {
            let id = PeerId.user(userId(user))
            let previous = TelegramUser.isMin(user) ? try tx.getPeer(id) as? TelegramUser : nil
            peers.append(TelegramUser.merged(previous: previous, with: user))
            // Every user the server sends carries its status as the account may see it (Telegram-iOS
            // `updatePeerPresences` in `AccountStateManagementUtils`); the account's own is not shown.
            if case .user(let body) = user, let status = body.status, id != accountPeerId {
                presences[id] = TelegramUserPresence(apiStatus: status)
            }
        }
        if !presences.isEmpty { try tx.updatePeerPresences(presences) }
        try ContactList.follow(users: users, accountPeerId: accountPeerId, transaction: tx)
        for chat in chats {
            if let group = TelegramGroup(chat) {
                peers.append(group)
            } else if let channel = TelegramChannel(chat) {
                let previous = TelegramChannel.isMin(chat) ? try tx.getPeer(channel.id) as? TelegramChannel : nil
                if let merged = TelegramChannel.merged(previous: previous, with: chat) { peers.append(merged) }
            }
        }
        if !peers.isEmpty { try tx.updatePeers(peers) }
        return peers.count
    }

    /// Replaces a stored message with its edited form; the id, or `nil` when it is not stored.
    private func edit(_ message: Api.Message, transaction tx: Transaction) throws -> MessageId? {
        guard let stored = StoreMessage(apiMessage: message, accountPeerId: accountPeerId),
            case .id(let id) = stored.id,
            try tx.messageIndex(id) != nil
        else { return nil }
        try tx.updateMessage(id) { _ in stored }
        return id
    }

    private func userId(_ user: Api.User) -> Int64 {
        switch user {
        case .user(let user): return user.id
        case .userEmpty(let user): return user.id
        }
    }
}
