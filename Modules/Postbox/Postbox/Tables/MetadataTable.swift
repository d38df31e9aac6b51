import PostboxCoding
import ValueBox

/// Table 0: the schema version, the transaction-state counter other processes compare, the stable-id counter, the
/// account state object and the server's count of saved contacts (Telegram-iOS Postbox `MetadataTable`).
final class MetadataTable: Table {
    private enum Key: Int32 {
        case userVersion = 1
        case state = 2
        case transactionStateVersion = 3
        case nextStableId = 4
        case masterClientId = 5
        case remoteContactCount = 6
    }

    private func key(_ key: Key) -> ValueBoxKey {
        var result = ValueBoxKey(length: 4)
        result.setInt32(0, value: key.rawValue)
        return result
    }

    private func int64(_ key: Key) throws -> Int64? {
        guard let bytes = try valueBox.get(table, key: self.key(key)), bytes.count == 8 else { return nil }
        return bytes.withUnsafeBytes { Int64(littleEndian: $0.loadUnaligned(as: Int64.self)) }
    }

    private func setInt64(_ key: Key, _ value: Int64) throws {
        try valueBox.set(table, key: self.key(key), value: withUnsafeBytes(of: value.littleEndian) { Array($0) })
    }

    func userVersion() throws -> Int32? { try int64(.userVersion).map { Int32(truncatingIfNeeded: $0) } }
    func setUserVersion(_ version: Int32) throws { try setInt64(.userVersion, Int64(version)) }

    /// Incremented by every committed write transaction, in every process.
    func transactionStateVersion() throws -> Int64 { try int64(.transactionStateVersion) ?? 0 }
    func incrementTransactionStateVersion() throws -> Int64 {
        let next = try transactionStateVersion() + 1
        try setInt64(.transactionStateVersion, next)
        return next
    }

    /// Allocates the next message stable id.
    func takeNextStableId() throws -> UInt32 {
        let next = try int64(.nextStableId) ?? 1
        try setInt64(.nextStableId, next + 1)
        return UInt32(truncatingIfNeeded: next)
    }

    func setNextStableId(_ next: UInt32) throws { try setInt64(.nextStableId, Int64(next)) }

    /// The `saved_count` of the last `contacts.contacts` (Telegram-iOS `getRemoteContactCount`); 0 until stored.
    func remoteContactCount() throws -> Int32 {
        try int64(.remoteContactCount).map { Int32(truncatingIfNeeded: $0) } ?? 0
    }
    func setRemoteContactCount(_ count: Int32) throws { try setInt64(.remoteContactCount, Int64(count)) }

    func state() throws -> PostboxCoding? {
        guard let bytes = try valueBox.get(table, key: key(.state)) else { return nil }
        return try decodeRoot(bytes, as: PostboxCoding.self)
    }

    func setState(_ state: PostboxCoding) throws {
        try valueBox.set(table, key: key(.state), value: Table.encodeRoot(state))
    }
}

/// Table 1: named secrets for the network layer's keychain (Telegram-iOS Postbox `KeychainTable`).
final class KeychainTable: Table {
    func get(_ name: String) throws -> [UInt8]? { try valueBox.get(table, key: ValueBoxKey(name)) }
    func set(_ name: String, _ value: [UInt8]) throws { try valueBox.set(table, key: ValueBoxKey(name), value: value) }
    func remove(_ name: String) throws { try valueBox.remove(table, key: ValueBoxKey(name), secure: true) }
}
