import Foundation
public import MTProtoCore

/// Where an account's network context keeps what must survive a restart: the main DC and each DC's auth key. The
/// owner of storage implements it (the Core area in the account's Postbox keychain); the Network area never imports
/// Postbox.
public protocol NetworkKeyStore: Sendable {
    /// The DC the account lives on, once known.
    func mainDatacenter() -> Int32?
    func setMainDatacenter(_ dc: Int32)
    /// The auth key for `dc`, if one was made.
    func key(datacenter dc: Int32) -> AuthKeyExchangeResult?
    /// Keeps (or, with nil, forgets) the key for `dc`.
    func setKey(_ key: AuthKeyExchangeResult?, datacenter dc: Int32)
    /// The DCs' addresses last learnt from `help.getConfig` (host and port per DC id), if any.
    func datacenterAddresses() -> [Int32: DatacenterAddress]?
    func setDatacenterAddresses(_ addresses: [Int32: DatacenterAddress])
    /// How `dc` was last reached on the network named `network` (`TransportScheme`), if a probe found a way.
    func transportScheme(datacenter dc: Int32, network: String) -> TransportScheme?
    /// Keeps (or, with nil, forgets) how `dc` is reached on `network`.
    func setTransportScheme(_ scheme: TransportScheme?, datacenter dc: Int32, network: String)
}

extension NetworkKeyStore {
    /// A store that keeps no transport schemes: every start probes again when the stored address fails.
    public func transportScheme(datacenter dc: Int32, network: String) -> TransportScheme? { nil }
    public func setTransportScheme(_ scheme: TransportScheme?, datacenter dc: Int32, network: String) {}
}

/// Where a DC listens, as `help.getConfig`'s `dc_options` give it.
public struct DatacenterAddress: Sendable, Equatable, Codable {
    public var host: String
    public var port: Int
    /// The obfuscation secret the address requires (`help.configSimple`'s `ipPortSecret`); absent in older stores.
    public var secret: [UInt8]?

    public init(host: String, port: Int, secret: [UInt8]? = nil) {
        self.host = host
        self.port = port
        self.secret = secret
    }
}

/// A `NetworkKeyStore` in memory, for tests and tools.
public final class InMemoryNetworkKeyStore: NetworkKeyStore, @unchecked Sendable {
    private let lock = NSLock()
    private var main: Int32?
    private var keys: [Int32: AuthKeyExchangeResult] = [:]
    private var addresses: [Int32: DatacenterAddress]?
    private var schemes: [String: [Int32: TransportScheme]] = [:]

    public init(mainDatacenter: Int32? = nil) {
        main = mainDatacenter
    }

    public func mainDatacenter() -> Int32? { lock.withLock { main } }
    public func setMainDatacenter(_ dc: Int32) { lock.withLock { main = dc } }
    public func key(datacenter dc: Int32) -> AuthKeyExchangeResult? { lock.withLock { keys[dc] } }
    public func setKey(_ key: AuthKeyExchangeResult?, datacenter dc: Int32) { lock.withLock { keys[dc] = key } }
    public func datacenterAddresses() -> [Int32: DatacenterAddress]? { lock.withLock { addresses } }
    public func setDatacenterAddresses(_ addresses: [Int32: DatacenterAddress]) {
        lock.withLock { self.addresses = addresses }
    }
    public func transportScheme(datacenter dc: Int32, network: String) -> TransportScheme? {
        lock.withLock { schemes[network]?[dc] }
    }
    public func setTransportScheme(_ scheme: TransportScheme?, datacenter dc: Int32, network: String) {
        lock.withLock { schemes[network, default: [:]][dc] = scheme }
    }
}
