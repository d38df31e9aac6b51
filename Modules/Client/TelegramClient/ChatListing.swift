import Foundation
public import Postbox
import SwiftSignalKit
import SyncCore
public import TelegramCore

/// A chat as `tg chats` lists it.
public struct ChatSummary: Codable, Equatable, Sendable {
    /// `user:ID`, `chat:ID` or `secret:ID` (named `🔒 ` and the other user).
    public var chat: String
    public var name: String
    public var username: String?
    public var unread: Int32
    public var pinned: Bool
    public var lastMessage: MessageSummary?
    /// Our draft in the chat (`messages.saveDraft` from any device of the account), shown instead of the last message.
    public var draft: String?
    /// Whether we muted the chat (`account.updateNotifySettings` from any device of the account): `🔇` after its name.
    public var muted: Bool = false

    private enum CodingKeys: String, CodingKey { case chat, name, username, unread, pinned, lastMessage, draft, muted }

    /// Every key is written, absent values as `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(chat, forKey: .chat)
        try container.encode(name, forKey: .name)
        try container.encode(username, forKey: .username)
        try container.encode(unread, forKey: .unread)
        try container.encode(pinned, forKey: .pinned)
        try container.encode(lastMessage, forKey: .lastMessage)
        try container.encode(draft, forKey: .draft)
        try container.encode(muted, forKey: .muted)
    }

    public init(
        chat: String, name: String, username: String?, unread: Int32, pinned: Bool, lastMessage: MessageSummary?,
        draft: String? = nil, muted: Bool = false
    ) {
        self.chat = chat
        self.name = name
        self.username = username
        self.unread = unread
        self.pinned = pinned
        self.lastMessage = lastMessage
        self.draft = draft
        self.muted = muted
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        chat = try container.decode(String.self, forKey: .chat)
        name = try container.decode(String.self, forKey: .name)
        username = try container.decodeIfPresent(String.self, forKey: .username)
        unread = try container.decode(Int32.self, forKey: .unread)
        pinned = try container.decode(Bool.self, forKey: .pinned)
        lastMessage = try container.decodeIfPresent(MessageSummary.self, forKey: .lastMessage)
        draft = try container.decodeIfPresent(String.self, forKey: .draft)
        muted = try container.decodeIfPresent(Bool.self, forKey: .muted) ?? false
    }

    /// One line for people: `user:ID  Name @username (N unread): last message`, or `: Draft: text` with a draft; a
    /// muted chat's name is followed by ` 🔇`.
    public var line: String {
        let unreadText = unread > 0 ? " (\(unread) unread)" : ""
        let last =
            draft.map { ": Draft: " + $0 }
            ?? lastMessage.map {
                ": " + ($0.outgoing ? "me: " : "") + ($0.text.isEmpty ? "[\($0.media?.label ?? "")]" : $0.text)
            } ?? ""
        return "\(chat)  \(name)\(muted ? " 🔇" : "")\(username.map { " @\($0)" } ?? "")\(unreadText)\(last)"
    }
}

/// The chat list: the server's pages stored first (`ChatListFetcher`, `messages.getDialogs`), then the top `limit`
/// chats from Postbox, newest first.
public enum ChatListing {
    public static func chats(_ account: Account, limit: Int, timeout: Double) async throws(ClientError) -> [ChatSummary]
    {
        let fetcher = account.chatList
        let deadline = Date().addingTimeInterval(timeout)
        var fetched = 0
        while !fetcher.isComplete && fetched < limit {
            guard Date() < deadline else {
                throw .unreachable(
                    "the chat list did not load within \(Int(timeout)) s — check that the server is running")
            }
            let count: Int
            do { count = try await fetcher.fetchNextPage() } catch {
                throw .unreachable("loading the chat list: \(error) — check that the server is running")
            }
            fetched += count
            if count == 0 && !fetcher.isComplete {
                // Another fetch (the account's chat-list view asking for more) is storing a page: wait for it.
                _ = try await firstValue(
                    "the chat list", of: fetcher.isFetching, timeout: max(0, deadline.timeIntervalSinceNow),
                    timedOut: .unreachable(
                        "the chat list did not load within \(Int(timeout)) s — check that the server is running"),
                    where: { !$0 })
            }
        }
        // Drafts change with no pts (`updateDraftMessage`): ask for them all (a failure leaves the stored ones).
        try? await account.refreshDrafts()
        let view: ChatListView
        do { view = try await account.postbox.tailChatListView(count: limit).get() } catch {
            throw .storage("reading the chat list: \(error)")
        }
        // Notify settings change with no pts either (`updateNotifySettings`): ask for the listed chats' dialogs.
        try? await account.refreshNotifySettings(
            of: view.entries.map(\.peerId).filter { !SecretChatting.isSecret($0) })
        return summaries(view, account: account)
    }

    /// The view's chats as `tg chats` prints them.
    static func summaries(_ view: ChatListView, account: Account) -> [ChatSummary] {
        let drafts = (try? account.postbox.readTransactionSync { try ChatInputStates.all(transaction: $0) }) ?? [:]
        let notify =
            (try? account.postbox.readTransactionSync { try PeerNotificationSettingsEntry.all(transaction: $0) })
            ?? [:]
        let now = Int32(Date().timeIntervalSince1970)
        return view.entries.map { entry in
            let name =
                entry.peer == nil || entry.peerId == account.peerId
                ? PeerResolver.chatName(entry.peerId, account: account) : PeerResolver.displayName(entry.peer)
            return ChatSummary(
                chat: PeerResolver.handle(entry.peerId), name: name, username: (entry.peer as? TelegramUser)?.username,
                unread: entry.unreadCount, pinned: entry.isPinned,
                lastMessage: entry.topMessage.map { MessageSummary($0, chatName: name) },
                draft: drafts[entry.peerId]?.text, muted: notify[entry.peerId]?.isMuted(at: now) ?? false)
        }
    }
}
