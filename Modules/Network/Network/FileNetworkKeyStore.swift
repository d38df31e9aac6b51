public import AccountNetworking
import Foundation
public import MTProtoCore
import SecretFiles

/// A `NetworkKeyStore` in one owner-only file (0600, written whole through `SecretFile`: created `O_EXCL |
/// O_NOFOLLOW`, synced, renamed into place), for tools and tests that keep an account's network between runs without
/// a Postbox. The keys are in it as hex; they are never printed, and `description` names the file only.
public final class FileNetworkKeyStore: NetworkKeyStore, @unchecked Sendable, CustomStringConvertible {
    /// Why the file could not be used.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case unreadable(path: String, reason: String)
        case malformed(path: String)

        public var description: String {
            switch self {
            case let .unreadable(path, reason): return "\(path): \(reason) — check the path and its permissions"
            case .malformed(let path):
                return "\(path) is not a network key file — move it aside (the account signs in again) or restore it"
            }
        }
    }

    private struct Contents: Codable {
        struct Key: Codable {
            var key: String
            var salt: Int64
            var timeOffset: Double
            var expiresAt: Double?
        }
        var mainDc: Int32?
        var keys: [String: Key] = [:]
        var addresses: [String: DatacenterAddress]?
        /// Per network identity, per DC: how a probe reached it (absent in files written before probing).
        var transports: [String: [String: TransportScheme]]?
    }

    public let path: String
    private let lock = NSLock()
    private var contents: Contents

    /// Opens the store at `path`, empty if the file does not exist yet.
    public init(path: String) throws(Failure) {
        self.path = path
        guard FileManager.default.fileExists(atPath: path) else {
            contents = Contents()
            return
        }
        let bytes: [UInt8]
        do {
            bytes = try SecretFile.read(path, maximumSize: 1 << 20)
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
        guard let decoded = try? JSONDecoder().decode(Contents.self, from: Data(bytes)),
            decoded.keys.values.allSatisfy({ Self.keyBytes($0.key) != nil })
        else { throw .malformed(path: path) }
        contents = decoded
    }

    public var description: String { "FileNetworkKeyStore(\(path))" }

    public func mainDatacenter() -> Int32? { lock.withLock { contents.mainDc } }

    public func setMainDatacenter(_ dc: Int32) { update { $0.mainDc = dc } }

    public func key(datacenter dc: Int32) -> AuthKeyExchangeResult? {
        lock.withLock {
            guard let stored = contents.keys[String(dc)], let bytes = Self.keyBytes(stored.key),
                let key = AuthKey(bytes: bytes)
            else {
                return nil
            }
            return AuthKeyExchangeResult(
                authKey: key, serverSalt: stored.salt, timeOffset: stored.timeOffset, expiresAt: stored.expiresAt)
        }
    }

    public func setKey(_ key: AuthKeyExchangeResult?, datacenter dc: Int32) {
        update { contents in
            contents.keys[String(dc)] = key.map {
                Contents.Key(
                    key: $0.authKey.bytes.map { String(format: "%02x", $0) }.joined(), salt: $0.serverSalt,
                    timeOffset: $0.timeOffset, expiresAt: $0.expiresAt)
            }
        }
    }

    public func datacenterAddresses() -> [Int32: DatacenterAddress]? {
        lock.withLock {
            contents.addresses.map {
                Dictionary(uniqueKeysWithValues: $0.compactMap { key, value in Int32(key).map { ($0, value) } })
            }
        }
    }

    public func setDatacenterAddresses(_ addresses: [Int32: DatacenterAddress]) {
        update { $0.addresses = Dictionary(uniqueKeysWithValues: addresses.map { (String($0.key), $0.value) }) }
    }

    public func transportScheme(datacenter dc: Int32, network: String) -> TransportScheme? {
        lock.withLock { contents.transports?[network]?[String(dc)] }
    }

    public func setTransportScheme(_ scheme: TransportScheme?, datacenter dc: Int32, network: String) {
        update { contents in
            var transports = contents.transports ?? [:]
            transports[network, default: [:]][String(dc)] = scheme
            contents.transports = transports
        }
    }

    /// Changes the contents and writes the whole file again (a failed write keeps the old file; the change stays in
    /// memory for this run).
    private func update(_ change: (inout Contents) -> Void) {
        lock.withLock {
            change(&contents)
            if let data = try? JSONEncoder().encode(contents) { try? SecretFile.write([UInt8](data), to: path) }
        }
    }

    private static func keyBytes(_ hex: String) -> [UInt8]? {
        guard hex.count == 512 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
