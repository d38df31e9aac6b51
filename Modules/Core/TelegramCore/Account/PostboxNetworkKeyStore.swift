public import AccountNetworking
import Foundation
public import MTProtoCore
public import Network
public import Postbox
import SwiftSignalKit

/// The account's network keys, main DC, DC addresses and probed transport schemes in its Postbox keychain (Telegram-iOS keeps MtProtoKit's
/// keychain in the account's Postbox the same way), so they are encrypted at rest with the rest of the account.
public final class PostboxNetworkKeyStore: NetworkKeyStore, @unchecked Sendable {
    private let postbox: Postbox
    /// The main DC once read or set (`.some(nil)`: read, none stored): every call asks for it (`AccountNetwork`
    /// routes a call without a DC there), so it is kept in memory, as `FileNetworkKeyStore` keeps its contents. Only
    /// this account's network moves it (a `*_MIGRATE_X` answer), through `setMainDatacenter`. The notification service
    /// makes no network; another `tg` process of the same account that moved it is followed the same way, by the
    /// `*_MIGRATE_X` its next call to the old DC is answered.
    private let mainDc = LockedValue<Int32??>(nil)

    public init(postbox: Postbox) {
        self.postbox = postbox
    }

    private static let mainDcKey = "network.main-dc"
    private static let addressesKey = "network.addresses"
    private static func keyName(_ dc: Int32) -> String { "network.key.\(dc)" }

    public func mainDatacenter() -> Int32? {
        if let known = mainDc.withLock({ $0 }) { return known }
        let stored = read(Self.mainDcKey).flatMap { $0.count == 4 ? Int32(littleEndianBytes: $0) : nil }
        // A `setMainDatacenter` that ran while this read is newer: it stays.
        return mainDc.withLock { cached in
            if cached == nil { cached = .some(stored) }
            return cached!
        }
    }

    public func setMainDatacenter(_ dc: Int32) {
        write(Self.mainDcKey, dc.littleEndianBytes)
        mainDc.withLock { $0 = dc }
    }

    /// Stored as the 256 key bytes, the salt, the time offset's bits and, for a temporary key, its expiry's bits.
    public func key(datacenter dc: Int32) -> AuthKeyExchangeResult? {
        guard let bytes = read(Self.keyName(dc)), bytes.count == 272 || bytes.count == 280,
            let key = AuthKey(bytes: Array(bytes[0..<256]))
        else { return nil }
        let salt = Int64(littleEndianBytes: Array(bytes[256..<264]))
        let offset = Double(bitPattern: UInt64(bitPattern: Int64(littleEndianBytes: Array(bytes[264..<272]))))
        let expires =
            bytes.count == 280
            ? Double(bitPattern: UInt64(bitPattern: Int64(littleEndianBytes: Array(bytes[272..<280])))) : nil
        return AuthKeyExchangeResult(authKey: key, serverSalt: salt, timeOffset: offset, expiresAt: expires)
    }

    public func setKey(_ key: AuthKeyExchangeResult?, datacenter dc: Int32) {
        guard let key else {
            _ = try? postbox.transactionSync { tx in try tx.removeKeychainEntry(forKey: Self.keyName(dc)) }
            return
        }
        var bytes = key.authKey.bytes
        bytes += key.serverSalt.littleEndianBytes
        bytes += Int64(bitPattern: key.timeOffset.bitPattern).littleEndianBytes
        if let expires = key.expiresAt { bytes += Int64(bitPattern: expires.bitPattern).littleEndianBytes }
        write(Self.keyName(dc), bytes)
    }

    public func datacenterAddresses() -> [Int32: DatacenterAddress]? {
        guard let bytes = read(Self.addressesKey),
            let table = try? JSONDecoder().decode([String: DatacenterAddress].self, from: Data(bytes))
        else { return nil }
        return Dictionary(uniqueKeysWithValues: table.compactMap { key, value in Int32(key).map { ($0, value) } })
    }

    public func setDatacenterAddresses(_ addresses: [Int32: DatacenterAddress]) {
        let table = Dictionary(uniqueKeysWithValues: addresses.map { (String($0.key), $0.value) })
        guard let data = try? JSONEncoder().encode(table) else { return }
        write(Self.addressesKey, Array(data))
    }

    /// One keychain entry per network identity: a JSON table of DC id → scheme.
    private static func schemesKey(_ network: String) -> String { "network.transport.\(network)" }

    public func transportScheme(datacenter dc: Int32, network: String) -> TransportScheme? {
        schemes(network)[String(dc)]
    }

    public func setTransportScheme(_ scheme: TransportScheme?, datacenter dc: Int32, network: String) {
        var table = schemes(network)
        table[String(dc)] = scheme
        guard let data = try? JSONEncoder().encode(table) else { return }
        write(Self.schemesKey(network), Array(data))
    }

    private func schemes(_ network: String) -> [String: TransportScheme] {
        guard let bytes = read(Self.schemesKey(network)),
            let table = try? JSONDecoder().decode([String: TransportScheme].self, from: Data(bytes))
        else { return [:] }
        return table
    }

    /// A read transaction: it runs on a reader connection of its own, so a call never waits behind Postbox's writer
    /// (a group commit of thousands of messages) for a key, and costs no write transaction.
    private func read(_ key: String) -> [UInt8]? {
        try? postbox.readTransactionSync { tx in try tx.keychainEntryForKey(key) }
    }

    private func write(_ key: String, _ value: [UInt8]) {
        _ = try? postbox.transactionSync { tx in try tx.setKeychainEntry(value, forKey: key) }
    }
}

extension FixedWidthInteger {
    var littleEndianBytes: [UInt8] { withUnsafeBytes(of: littleEndian) { Array($0) } }

    init(littleEndianBytes bytes: [UInt8]) {
        var value: Self = 0
        for (index, byte) in bytes.prefix(MemoryLayout<Self>.size).enumerated() { value |= Self(byte) << (8 * index) }
        self = value
    }
}
