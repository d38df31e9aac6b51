import Glibc
public import MTProtoCore
import SecretFiles

/// Each account's notification key, kept in the accounts metadata where an extension finds it by the id a push
/// starts with, without opening any account (Telegram-iOS keeps the same in each record's `AccountBackupData`):
/// `<root>/accounts-metadata/notification-keys/<key id hex>`, 264 bytes — the account id (8, little-endian), then
/// the key (256) — owner-only (`SecretFile`).
public struct NotificationKeyStore: Sendable {
    /// Why a key could not be read or written.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case storage(path: String, reason: String)
        case damaged(path: String)

        public var description: String {
            switch self {
            case let .storage(path, reason): return "\(path): \(reason)"
            case .damaged(let path): return "\(path): not a notification key file (264 bytes expected)"
            }
        }
    }

    /// An account's key.
    public struct Entry: Sendable, Equatable {
        public let accountId: Int64
        public let key: NotificationKey

        public init(accountId: Int64, key: NotificationKey) {
            self.accountId = accountId
            self.key = key
        }
    }

    static let fileLength = 8 + NotificationKey.length
    public let layout: AccountsLayout

    public init(layout: AccountsLayout) {
        self.layout = layout
    }

    /// Stores `key` for `accountId`, replacing any other key the account had.
    public func save(_ key: NotificationKey, accountId: Int64) throws(Failure) {
        try remove(accountId: accountId)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.fileLength)
        for shift in stride(from: 0, to: 64, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: UInt64(bitPattern: accountId) >> UInt64(shift)))
        }
        bytes += key.bytes
        let path = layout.notificationKeyPath(idHex: key.idHex)
        do {
            try SecretFile.createDirectory(layout.notificationKeysPath)
            try SecretFile.write(bytes, to: path)
        } catch {
            throw .storage(path: path, reason: "\(error)")
        }
    }

    /// The key whose id is `keyId` (8 bytes), or `nil` when no account has it (unknown, or logged out).
    public func entry(keyId: [UInt8]) throws(Failure) -> Entry? {
        guard keyId.count == 8 else { return nil }
        return try entry(atPath: layout.notificationKeyPath(idHex: NotificationKey.hex(keyId)))
    }

    /// The key of `accountId`, if it has one.
    public func entry(accountId: Int64) throws(Failure) -> Entry? {
        for name in fileNames() {
            if let entry = try entry(atPath: layout.notificationKeyPath(idHex: name)), entry.accountId == accountId {
                return entry
            }
        }
        return nil
    }

    /// Removes the key of `accountId` (logged out); nothing when it has none.
    public func remove(accountId: Int64) throws(Failure) {
        guard let entry = try entry(accountId: accountId) else { return }
        let path = layout.notificationKeyPath(idHex: entry.key.idHex)
        guard unlink(path) == 0 || errno == ENOENT else {
            throw .storage(path: path, reason: String(cString: strerror(errno)))
        }
    }

    private func entry(atPath path: String) throws(Failure) -> Entry? {
        guard access(path, F_OK) == 0 else { return nil }
        let bytes: [UInt8]
        do {
            bytes = try SecretFile.read(path, maximumSize: Self.fileLength)
        } catch {
            throw .storage(path: path, reason: "\(error)")
        }
        guard bytes.count == Self.fileLength, let key = NotificationKey(bytes: Array(bytes[8...])) else {
            throw .damaged(path: path)
        }
        let accountId = bytes[0..<8].enumerated().reduce(UInt64(0)) {
            $0 | UInt64($1.element) << (8 * UInt64($1.offset))
        }
        return Entry(accountId: Int64(bitPattern: accountId), key: key)
    }

    /// The key files' names (16 hex digits each).
    private func fileNames() -> [String] {
        guard let directory = opendir(layout.notificationKeysPath) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.utf8.count == 16, name.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
            {
                names.append(name)
            }
        }
        return names
    }
}
