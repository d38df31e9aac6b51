public import AccountNetworking
public import CryptoUtils
import MTProtoCore
import MTProtoTransport
public import NIOCore
public import Network

/// What every account's network is built from: the DCs the app knows at first, their RSA keys, the event loops, the
/// app's `api_id`/`api_hash`, and the connection options (Telegram-iOS's `NetworkInitializationArguments`).
public struct NetworkEnvironment: Sendable {
    public var datacenters: [Int32: MTProtoConnection.Endpoint]
    public var defaultMainDc: Int32
    public var publicKeys: [RSAPublicKey]
    public var group: any EventLoopGroup
    public var apiId: Int32
    public var apiHash: String
    public var options: DatacenterConnection.Options
    public var forwardSecrecy: AccountNetwork.ForwardSecrecy?
    /// Whether each account's network asks for `help.getConfig` at start and again when it expires, adopting its
    /// addresses (`AccountNetwork(refreshesConfiguration:)`). Off where the user named the server's address.
    public var refreshesConfiguration = false
    /// Makes each account's network instead of the live `AccountNetwork` (a loopback to a server in the same process,
    /// a simulation), given the store that keeps the account's keys and main DC; nil for the live one.
    public var customNetwork: (@Sendable (_ store: any NetworkKeyStore) -> any AccountNetworking)?

    public init(
        datacenters: [Int32: MTProtoConnection.Endpoint], defaultMainDc: Int32, publicKeys: [RSAPublicKey],
        group: any EventLoopGroup, apiId: Int32 = 1, apiHash: String = "",
        options: DatacenterConnection.Options = .init(),
        forwardSecrecy: AccountNetwork.ForwardSecrecy? = nil
    ) {
        self.datacenters = datacenters
        self.defaultMainDc = defaultMainDc
        self.publicKeys = publicKeys
        self.group = group
        self.apiId = apiId
        self.apiHash = apiHash
        self.options = options
        self.forwardSecrecy = forwardSecrecy
    }

    /// A network for the account whose keys `store` keeps.
    func makeNetwork(store: any NetworkKeyStore) -> any AccountNetworking {
        if let customNetwork { return customNetwork(store) }
        return AccountNetwork(
            datacenters: datacenters, defaultMainDc: defaultMainDc, publicKeys: publicKeys, store: store, group: group,
            options: options, forwardSecrecy: forwardSecrecy, refreshesConfiguration: refreshesConfiguration)
    }
}
