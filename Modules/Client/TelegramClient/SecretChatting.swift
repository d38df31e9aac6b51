import Foundation
public import Postbox
public import SecretChats
import SwiftSignalKit
public import SyncCore
public import TelegramCore

/// Secret chats as `tg` uses them (core.telegram.org "End-to-End Encryption, Secret Chats"), over the account's
/// `SecretChatManager`: starting one and waiting for the other side, accepting what others asked for (as Telegram's
/// apps do while they run), sending text and files, reading what is stored, and the key visualization. A secret chat
/// is named `secret:ID`; its messages live in Postbox under `SecretChatRecord.peerId(ID)`.
public enum SecretChatting {
    /// What goes before a secret chat's name wherever chats are listed or titled.
    public static let mark = "🔒 "

    /// Whether `peerId` is a secret chat.
    public static func isSecret(_ peerId: PeerId) -> Bool { peerId.namespace == Namespaces.Peer.secretChat }

    /// The chat id of a secret chat's peer.
    public static func chatId(_ peerId: PeerId) -> Int32 { Int32(truncatingIfNeeded: peerId.id.rawValue) }

    /// The Postbox peer of secret chat `chatId`, `.notFound` when this account holds no such chat.
    public static func peerId(chatId: Int32, account: Account) throws(ClientError) -> PeerId {
        guard try record(chatId, account: account) != nil else {
            throw .notFound("no secret chat secret:\(chatId) on this account — start one with 'tg secret PEER'")
        }
        return SecretChatRecord.peerId(chatId)
    }

    /// The other user of secret chat `peerId` (nil for any other peer or an unknown chat).
    public static func otherUser(_ peerId: PeerId, account: Account) -> PeerId? {
        guard isSecret(peerId), let record = try? account.secretChats.record(chatId: chatId(peerId)) else { return nil }
        return .user(record.peerUserId)
    }

    /// Asks user `userPeerId` for a secret chat and waits (at most `timeout` seconds) until the other side has
    /// accepted and the key is established; returns the chat id.
    public static func start(
        with userPeerId: PeerId, account: Account, timeout: Double
    ) async throws(ClientError)
        -> Int32
    {
        guard userPeerId.namespace == Namespaces.Peer.cloudUser, userPeerId != account.peerId else {
            throw .badInput("a secret chat is with another user — name one as @username, +phone or user:ID")
        }
        let user: TelegramUser? = try read(account) { try $0.getPeer(userPeerId) as? TelegramUser }
        guard let user, let accessHash = user.accessHash else {
            throw .notFound(
                "user \(userPeerId.id.rawValue) is not stored with its access hash — find them by @username first")
        }
        let chatId: Int32
        do {
            chatId = try await account.secretChats.request(userId: userPeerId.id.rawValue, accessHash: accessHash.value)
        } catch {
            throw map(error, "requesting a secret chat")
        }
        return try await waitUntil(
            "the other side accepting secret:\(chatId) (their client must be running)", timeout: timeout,
            wakingOn: recordUpdates(chatId, account: account)
        ) {
            () throws(ClientError) -> Int32? in
            switch try record(chatId, account: account)?.phase {
            case .active?: return chatId
            case .ended(let reason)?: throw .refused("secret chat \(chatId) ended: \(reason)")
            default: return nil
            }
        }
    }

    /// Accepts every secret chat another user asked this account for and it has not answered yet; returns their ids.
    /// A chat that cannot be accepted (the request was withdrawn, another device took it) is left as it is.
    @discardableResult
    public static func acceptIncoming(account: Account) async -> [Int32] {
        var accepted: [Int32] = []
        for record in (try? account.secretChats.records()) ?? [] {
            guard case .incoming = record.phase else { continue }
            do {
                try await account.secretChats.accept(chatId: record.chatId)
                accepted.append(record.chatId)
            } catch {
                continue
            }
        }
        return accepted
    }

    /// Accepts incoming secret chats now and whenever a secret chat's record changes (awaited, not polled) until the
    /// task is cancelled; `accepted` gets each chat accepted.
    public static func acceptIncomingWhileRunning(
        account: Account, accepted: @escaping @Sendable (Int32) -> Void
    ) async {
        let (changes, changed) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        changed.yield()
        let recordChanges = account.secretChats.recordUpdates.start(next: { _ in changed.yield() })
        defer {
            recordChanges.dispose()
            changed.finish()
        }
        for await _ in changes {
            for chatId in await acceptIncoming(account: account) { accepted(chatId) }
        }
    }

    /// What a message in a secret chat carries besides its text.
    public enum Attachment: Sendable {
        /// A file sent as a document, from its path.
        case file(String)
        /// Media made ready by the caller (a photo, voice note or sticker).
        case media(SecretChatOutgoingMedia)
    }

    /// Sends `markdown` (its text, with the entities as `decryptedMessage.entities`) — the caption when there is an
    /// attachment — as a reply to message `replyTo` of the chat when given, and waits until the server has it;
    /// returns the stored message.
    public static func send(
        markdown: String, attachment: Attachment? = nil, replyTo: Int32? = nil, chatId: Int32, account: Account,
        timeout: Double
    ) async throws(ClientError) -> Message {
        let manager = account.secretChats
        let (text, entities) = OutgoingText.parse(markdown)
        let reply = try replyTo.map { id throws(ClientError) -> MessageId in
            try message(id, chatId: chatId, account: account)
        }
        let id: MessageId
        do {
            switch attachment {
            case .file(let path)?:
                let name = (path as NSString).lastPathComponent
                let content: [UInt8]
                do { content = Array(try Data(contentsOf: URL(fileURLWithPath: path))) } catch {
                    throw ClientError.badInput("\(path) cannot be read: \(error)")
                }
                id = try await manager.sendMedia(
                    .document(content: content, name: name, mimeType: MimeTypes.guess(name)), caption: text,
                    entities: entities, replyTo: reply, chatId: chatId)
            case .media(let media)?:
                id = try await manager.sendMedia(
                    media, caption: text, entities: entities, replyTo: reply, chatId: chatId)
            case nil:
                id = try await manager.send(text: text, entities: entities, replyTo: reply, chatId: chatId)
            }
        } catch let error as SecretChatManagerError {
            throw map(error, "sending in secret:\(chatId)")
        } catch let error as ClientError {
            throw error
        } catch {
            throw .storage("sending in secret:\(chatId): \(error)")
        }
        _ = try await waitUntil(
            "the server taking the secret message", timeout: timeout,
            wakingOn: recordUpdates(chatId, account: account)
        ) {
            () throws(ClientError) -> Bool? in
            if try record(chatId, account: account)?.outbox.isEmpty ?? true { return true }
            return nil
        }
        guard let message = try read(account, { try $0.getMessage(id) }) else {
            throw .storage("the sent message \(id.id) is not stored")
        }
        return message
    }

    /// Message `id` of secret chat `chatId`. Outgoing and incoming messages are numbered apart (two Postbox
    /// namespaces, as in Telegram-iOS); an id both use names the incoming one, which is what a reply usually answers.
    public static func message(_ id: Int32, chatId: Int32, account: Account) throws(ClientError) -> MessageId {
        let peerId = SecretChatRecord.peerId(chatId)
        for namespace in [Namespaces.Message.secretIncoming, Namespaces.Message.local] {
            let candidate = MessageId(peerId: peerId, namespace: namespace, id: id)
            if try read(account, { try $0.getMessage(candidate) }) != nil { return candidate }
        }
        throw .notFound("secret:\(chatId) has no message \(id) — see 'tg history secret:\(chatId)'")
    }

    /// Deletes messages of secret chat `chatId` here and on the other side (ids as `message(_:chatId:account:)` reads
    /// them).
    public static func delete(_ ids: [Int32], chatId: Int32, account: Account) async throws(ClientError) {
        var messageIds: [MessageId] = []
        for id in ids { messageIds.append(try message(id, chatId: chatId, account: account)) }
        do { try await account.secretChats.deleteMessages(messageIds, chatId: chatId) } catch {
            throw map(error, "deleting in secret:\(chatId)")
        }
    }

    /// Downloads a received photo or file of a secret chat and decrypts it (refused when the server's fingerprint is
    /// not the key's); returns the bytes and the file's name.
    public static func download(
        _ message: Message, account: Account
    ) async throws(ClientError) -> (bytes: [UInt8], name: String) {
        let chatId = chatId(message.id.peerId)
        guard let randomId = message.globallyUniqueId,
            let file = try fileRecord(chatId: chatId, randomId: randomId, account: account)
        else {
            throw .notFound("message \(message.id.id) of secret:\(chatId) has no received file to download")
        }
        do { return (try await account.secretChats.download(file), file.name) } catch {
            throw map(error, "downloading from secret:\(chatId)")
        }
    }

    static func fileRecord(
        chatId: Int32, randomId: Int64, account: Account
    ) throws(ClientError) -> SecretChatReceivedFile? {
        do { return try account.secretChats.receivedFile(chatId: chatId, randomId: randomId) } catch {
            throw map(error, "reading secret:\(chatId)")
        }
    }

    /// The newest `limit` stored messages of secret chat `peerId`, oldest first (nothing of a secret chat is on the
    /// server to fill holes from).
    public static func messages(_ account: Account, peerId: PeerId, limit: Int) throws(ClientError) -> [Message] {
        try read(account) { try $0.earlierMessages(peerId: peerId, before: nil, count: limit) }
            .sorted { $0.index < $1.index }
    }

    /// The key visualization of secret chat `chatId`; `.notFound` before the key exists.
    public static func key(chatId: Int32, account: Account) throws(ClientError) -> SecretChatKeySummary {
        let view: SecretChatKeyVisualization?
        do { view = try account.secretChats.visualization(chatId: chatId) } catch {
            throw map(error, "reading secret:\(chatId)")
        }
        guard let view else {
            throw .notFound("secret:\(chatId) has no key yet — the other side has not accepted it")
        }
        return SecretChatKeySummary(chat: "secret:\(chatId)", view)
    }

    /// Each commit that changed chat `chatId`'s record (its phase, its outbox): what a wait on the record re-reads it
    /// on.
    static func recordUpdates(_ chatId: Int32, account: Account) -> Signal<Int32, NoError> {
        account.secretChats.recordUpdates |> filter { $0 == chatId }
    }

    static func record(_ chatId: Int32, account: Account) throws(ClientError) -> SecretChatRecord? {
        do { return try account.secretChats.record(chatId: chatId) } catch {
            throw map(error, "reading secret:\(chatId)")
        }
    }

    static func map(_ error: SecretChatManagerError, _ what: String) -> ClientError {
        switch error {
        case .unknownChat(let id): return .notFound("\(what): no secret chat \(id) — see 'tg secret PEER'")
        case .notActive(let id): return .badInput("\(what): secret:\(id) is not active (not accepted yet, or ended)")
        case .keyExchange(let reason): return .refused("\(what): the key exchange failed (\(reason))")
        case .network(let reason): return .unreachable("\(what): \(reason) — check that the server is running")
        case .storage(let reason): return .storage("\(what): \(reason)")
        case .unknownMessage(let id): return .notFound("\(what): the chat holds no message \(id) — see 'tg history'")
        }
    }
}

/// A secret chat's key visualization as `tg secret-key` prints it: the same on both sides of the chat.
public struct SecretChatKeySummary: Codable, Equatable, Sendable {
    public var chat: String
    /// The 36 bytes the picture and hex are drawn from (SHA1(key)[0..<16] ‖ SHA256(key)[0..<20]), as hex.
    public var fingerprint: String
    /// Four emoji.
    public var emoji: [String]
    /// Telegram-iOS's four hex lines.
    public var hex: [String]
    /// The 12 × 12 identicon as 12 rows of block characters (two columns a cell).
    public var identicon: [String]

    public init(chat: String, _ view: SecretChatKeyVisualization) {
        self.chat = chat
        fingerprint = view.keySignature.map { String(format: "%02x", $0) }.joined()
        emoji = view.emoji
        hex = view.hexLines
        identicon = view.textRows
    }

    /// What people compare: the emoji, the identicon framed, the hex lines.
    public var lines: [String] {
        let frame = String(repeating: "─", count: 24)
        return [emoji.joined(separator: " "), "┌" + frame + "┐"] + identicon.map { "│" + $0 + "│" } + [
            "└" + frame + "┘"
        ]
            + hex
    }
}

extension SecretChatting {
    static func read<T>(_ account: Account, _ body: (Transaction) throws -> T) throws(ClientError) -> T {
        do { return try account.postbox.readTransactionSync(body) } catch {
            throw .storage("reading the account: \(error)")
        }
    }
}
