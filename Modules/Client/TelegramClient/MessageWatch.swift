public import Postbox
import SwiftSignalKit
import SyncCore
public import TelegramCore

/// Something that happened to the account's chats, as `tg watch` reports it.
public enum WatchEvent: Sendable {
    /// A message stored for the first time (incoming, or ours sent from elsewhere).
    case new(Message)
    /// A stored message replaced by its edit.
    case edited(Message)
    /// Messages removed, in one chat.
    case deleted(PeerId, [Int32])
    /// A read mark moved: `byMe` when this account read the chat (elsewhere), else the other side read ours.
    case read(PeerId, upTo: Int32, byMe: Bool)
    /// Someone started (or goes on) typing in a chat (`updateUserTyping`, `updateChatUserTyping`,
    /// `updateChannelUserTyping`; the summary's `TypingNotice`s that are active).
    case typing(PeerId, user: PeerId)
}

/// The account's changes as they are applied (`AccountStateManager.appliedBatches`): each batch's new and edited
/// messages read back from Postbox, its deletions and read marks, in the batch's order.
public final class MessageWatch: Sendable {
    private let account: Account

    public init(account: Account) {
        self.account = account
    }

    /// The events from now on; ending the iteration stops watching. `onReady` is called once the account's batches
    /// are followed: everything applied after it is reported.
    public func events(onReady: @escaping @Sendable () -> Void = {}) -> AsyncStream<WatchEvent> {
        let postbox = account.postbox
        let batches = account.stateManager.appliedBatches
        let account = self.account
        // Secret chats' messages are stored by the secret-chat layer inside the batch, not listed in its summary:
        // each batch, what is newer than the newest seen in each secret chat is new.
        let seen = LockedValue(Self.newestSecret(account))
        return AsyncStream { continuation in
            let disposable = batches.start(next: { summary in
                for event in Self.events(of: summary, postbox: postbox) { continuation.yield(event) }
                let newest = Self.newestSecret(account)
                let before = seen.withLock { value in
                    let old = value
                    value = newest
                    return old
                }
                for (peerId, index) in newest where before[peerId].map({ $0 < index }) ?? true {
                    let fresh = (try? SecretChatting.messages(account, peerId: peerId, limit: 20)) ?? []
                    for message in fresh where before[peerId].map({ $0 < message.index }) ?? true {
                        continuation.yield(.new(message))
                    }
                }
            })
            continuation.onTermination = { _ in disposable.dispose() }
            onReady()
        }
    }

    /// The newest stored message of each secret chat the account holds.
    static func newestSecret(_ account: Account) -> [PeerId: MessageIndex] {
        var newest: [PeerId: MessageIndex] = [:]
        for record in (try? account.secretChats.records()) ?? [] {
            if let last = (try? SecretChatting.messages(account, peerId: record.peerId, limit: 1))?.last {
                newest[record.peerId] = last.index
            }
        }
        return newest
    }

    /// A batch's events: new messages, edits, deletions by chat, read marks.
    static func events(of summary: UpdateBatchApplier.Summary, postbox: Postbox) -> [WatchEvent] {
        var events: [WatchEvent] = []
        let read: (added: [Message], edited: [Message]) =
            (try? postbox.readTransactionSync { tx in
                (
                    try summary.added.compactMap { try tx.getMessage($0) },
                    try summary.edited.compactMap { try tx.getMessage($0) }
                )
            }) ?? ([], [])
        events += read.added.map(WatchEvent.new)
        events += read.edited.map(WatchEvent.edited)
        var deletedByChat: [PeerId: [Int32]] = [:]
        var chats: [PeerId] = []
        for id in summary.deleted {
            if deletedByChat[id.peerId] == nil { chats.append(id.peerId) }
            deletedByChat[id.peerId, default: []].append(id.id)
        }
        events += chats.map { WatchEvent.deleted($0, deletedByChat[$0] ?? []) }
        events += summary.readInbox.map { WatchEvent.read($0.peerId, upTo: $0.id, byMe: true) }
        events += summary.readOutbox.map { WatchEvent.read($0.peerId, upTo: $0.id, byMe: false) }
        events += summary.typing.filter(\.active).map { WatchEvent.typing($0.chat, user: $0.user) }
        return events
    }
}

/// A watch event as `--json` prints it: every key on every line, `null` where it does not apply.
public struct WatchEventSummary: Codable, Equatable, Sendable {
    /// `new`, `edited`, `deleted`, `read` or `typing`.
    public var event: String
    public var chat: String
    public var message: MessageSummary?
    /// Deleted ids.
    public var ids: [Int32]?
    /// A read mark: the id read up to, and who read (`me` or `them`).
    public var readUpTo: Int32?
    public var readBy: String?
    /// Who is typing (`user:ID`) and their name.
    public var user: String?
    public var userName: String?

    public init(_ event: WatchEvent, chatName: (PeerId) -> String) {
        switch event {
        case .new(let message), .edited(let message):
            if case .new = event { self.event = "new" } else { self.event = "edited" }
            chat = PeerResolver.handle(message.id.peerId)
            self.message = MessageSummary(message, chatName: chatName(message.id.peerId))
        case .deleted(let peerId, let ids):
            self.event = "deleted"
            chat = PeerResolver.handle(peerId)
            self.ids = ids
        case .read(let peerId, let upTo, let byMe):
            self.event = "read"
            chat = PeerResolver.handle(peerId)
            readUpTo = upTo
            readBy = byMe ? "me" : "them"
        case .typing(let peerId, let user):
            self.event = "typing"
            chat = PeerResolver.handle(peerId)
            self.user = PeerResolver.handle(user)
            userName = chatName(user)
        }
    }

    private enum CodingKeys: String, CodingKey { case event, chat, message, ids, readUpTo, readBy, user, userName }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(event, forKey: .event)
        try container.encode(chat, forKey: .chat)
        try container.encode(message, forKey: .message)
        try container.encode(ids, forKey: .ids)
        try container.encode(readUpTo, forKey: .readUpTo)
        try container.encode(readBy, forKey: .readBy)
        try container.encode(user, forKey: .user)
        try container.encode(userName, forKey: .userName)
    }

    /// One line for people.
    public var line: String {
        switch event {
        case "new", "edited": return "\(event) " + (message?.line(showChat: true) ?? chat)
        case "typing": return "typing \(chat): \(userName ?? user ?? "someone") is typing…"
        case "deleted": return "deleted \(chat): " + (ids ?? []).map(String.init).joined(separator: ", ")
        default: return "read \(chat) up to \(readUpTo ?? 0) by \(readBy ?? "?")"
        }
    }
}
