/// How a data center was reached on one network: the address and the transport that completed a handshake there
/// (Telegram-iOS MtProtoKit's `MTTransportScheme`, which `MTContext` keeps per datacenter —
/// `transportSchemeForDatacenterWithId` / `updateTransportSchemeForDatacenterWithId` in
/// submodules/MtProtoKit/Sources/MTContext.m — and which `MTDiscoverConnectionSignals` finds). The framing is the
/// account's own and is not part of it.
public struct TransportScheme: Sendable, Equatable, Codable {
    public var host: String
    public var port: Int
    /// obfuscated2 on a plain TCP address.
    public var obfuscated: Bool
    /// The address's own obfuscation secret (`dc_options.secret`, `ipPortSecret`), if it has one.
    public var secret: [UInt8]?
    /// MTProto over HTTP instead of TCP framing.
    public var http: Bool

    public init(host: String, port: Int, obfuscated: Bool = false, secret: [UInt8]? = nil, http: Bool = false) {
        self.host = host
        self.port = port
        self.obfuscated = obfuscated
        self.secret = secret
        self.http = http
    }
}
