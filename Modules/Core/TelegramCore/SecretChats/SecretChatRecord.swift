import Foundation
public import Postbox
public import SecretChats
import SyncCore

/// One secret chat as this account keeps it, in the account's encrypted Postbox (a keychain entry per chat, written
/// in the same transaction as the message that changed it): who, where the key exchange is, the protocol session
/// (keys, layer, sequence numbers, re-key, held messages) and the sealed messages waiting to go out.
public struct SecretChatRecord: Codable, Sendable {
    public enum Phase: Codable, Sendable {
        /// This account asked (`requestEncryption`) and waits for the other to accept.
        case requested(SecretChatRequest)
        /// The other asked; accepting needs this account's `accept(chatId:)`.
        case incoming(gA: [UInt8])
        case active(SecretChatSession)
        case ended(String)
    }

    public let chatId: Int32
    public let accessHash: Int64
    public let peerUserId: Int64
    public var phase: Phase
    /// Sealed messages not yet acknowledged by the server, in the order they must go.
    public var outbox: [SecretChatOutbound] = []
    /// Self-destruct timers of its messages with a TTL (nil: none yet).
    public var timers: SecretChatTimers?
    /// The chat's TTL for new messages (`decryptedMessageActionSetMessageTTL`, set by either side; nil: none).
    public var messageTTL: Int32?
    /// Encrypted messages (serialized `EncryptedMessage`) that arrived before this account knew the key: the
    /// accepting side may write (its layer notice first) before its acceptance reaches us — in the same push, or a
    /// difference that lists the messages first — and the requesting side may write before our own
    /// `acceptEncryption` is answered. They are opened, in order, once the key is known (at most `earlyLimit`; nil:
    /// none).
    public var early: [[UInt8]]?

    /// Messages kept before the key at most: the other side can have sent only a few (its layer notice first)
    /// before it hears from us.
    public static let earlyLimit = 32

    /// The Postbox peer its messages are stored under.
    public var peerId: PeerId { SecretChatRecord.peerId(chatId) }

    public static func peerId(_ chatId: Int32) -> PeerId {
        PeerId(namespace: Namespaces.Peer.secretChat, id: PeerId.Id(rawValue: Int64(chatId)))
    }

    /// The session, once the key exchange is done.
    public var session: SecretChatSession? {
        if case .active(let session) = phase { return session }
        return nil
    }
}

/// A sealed message waiting for `messages.sendEncrypted` / `sendEncryptedService`. Its transport `random_id` is
/// fixed when it is queued, so a retry after a restart is the same call (the server keeps it once).
public struct SecretChatOutbound: Codable, Sendable, Equatable {
    public let transportRandomId: Int64
    public let bytes: [UInt8]
    public let isService: Bool
    /// The uploaded encrypted file it carries (a serialized `InputEncryptedFile`): `sendEncryptedFile`.
    public var file: [UInt8]? = nil
    /// The `random_id` of the message it carries (not of a service action), whose stored copy takes the date the
    /// server gives it when sent.
    public var messageRandomId: Int64? = nil
}

/// A file received in a secret chat: where the server keeps it, and the key and IV its message carried.
public struct SecretChatReceivedFile: Codable, Sendable, Equatable {
    public let id: Int64
    public let accessHash: Int64
    public let dc: Int32
    public let size: Int64
    public let serverFingerprint: Int32
    public let key: SecretChatFileKey
    public let name: String
    public let mimeType: String
}

/// The keychain entries secret chats use.
enum SecretChatStorage {
    static let chatList = "secret-chats"
    static let dhConfig = "secret-chats:dh-config"
    static func chat(_ id: Int32) -> String { "secret-chat:\(id)" }
    static func payload(_ id: Int32, raw: Int32) -> String { "secret-chat:\(id):out:\(raw)" }
    static func file(_ id: Int32, randomId: Int64) -> String { "secret-chat:\(id):file:\(randomId)" }

    static func record(_ id: Int32, tx: Transaction) throws -> SecretChatRecord? {
        guard let bytes = try tx.keychainEntryForKey(chat(id)) else { return nil }
        return try JSONDecoder().decode(SecretChatRecord.self, from: Data(bytes))
    }

    static func store(_ record: SecretChatRecord, tx: Transaction) throws {
        try tx.setKeychainEntry(Array(try JSONEncoder().encode(record)), forKey: chat(record.chatId))
        var ids = try chatIds(tx: tx)
        if !ids.contains(record.chatId) {
            ids.append(record.chatId)
            try tx.setKeychainEntry(Array(try JSONEncoder().encode(ids)), forKey: chatList)
        }
    }

    static func chatIds(tx: Transaction) throws -> [Int32] {
        guard let bytes = try tx.keychainEntryForKey(chatList) else { return [] }
        return try JSONDecoder().decode([Int32].self, from: Data(bytes))
    }
}
