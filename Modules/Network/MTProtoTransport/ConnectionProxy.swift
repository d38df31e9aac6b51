/// An MTProxy: a proxy that speaks MTProto's obfuscated transport to clients and relays to Telegram's data centers,
/// keyed by a secret (core.telegram.org/mtproto/mtproto-transports §Transport obfuscation; links are
/// `tg://proxy?server=…&port=…&secret=…`).
public struct MTProxy: Sendable, Equatable, Codable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var secret: MTProxySecret

    public init(host: String, port: Int, secret: MTProxySecret) {
        self.host = host
        self.port = port
        self.secret = secret
    }

    /// `mtproxy://host:port (kind)`: never the secret's key.
    public var description: String { "mtproxy://\(host):\(port) (\(secret))" }
}

/// What a connection goes through when the account's settings name a proxy: SOCKS5 or MTProxy, as Telegram's clients
/// offer them.
public enum ConnectionProxy: Sendable, Equatable, Codable, CustomStringConvertible {
    case socks5(SOCKS5Proxy)
    case mtproxy(MTProxy)

    public var description: String {
        switch self {
        case .socks5(let proxy): return proxy.description
        case .mtproxy(let proxy): return proxy.description
        }
    }

    private enum Keys: String, CodingKey { case secret }

    /// A SOCKS5 proxy is stored as `SOCKS5Proxy` always was (host, port, credentials); an MTProxy adds its secret.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        if container.contains(.secret) {
            self = .mtproxy(try MTProxy(from: decoder))
        } else {
            self = .socks5(try SOCKS5Proxy(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .socks5(let proxy): try proxy.encode(to: encoder)
        case .mtproxy(let proxy): try proxy.encode(to: encoder)
        }
    }
}
