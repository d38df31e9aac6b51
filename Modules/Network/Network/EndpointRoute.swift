public import MTProtoTransport

/// Where a connection's socket goes and how it speaks, once the endpoint's proxy is taken into account.
public struct EndpointRoute: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var framing: TransportFraming
    public var obfuscation: TransportObfuscation
    public var http: Bool
    /// The SOCKS5 proxy the socket is tunnelled through, if any.
    public var socks5: SOCKS5Proxy?
}

extension MTProtoConnection.Endpoint {
    /// Straight to `host:port`; through a SOCKS5 proxy to the same; or to an MTProxy, which is told the DC in the
    /// obfuscated header (offset 60) and relays to it — the framing and obfuscation are then the secret's (padded
    /// intermediate for `dd` and `ee`), and HTTP is not offered (MTProxies relay TCP only).
    public var route: EndpointRoute {
        switch proxy {
        case nil:
            return EndpointRoute(
                host: host, port: port, framing: framing, obfuscation: obfuscation, http: http, socks5: nil)
        case .socks5(let socks):
            return EndpointRoute(
                host: host, port: port, framing: framing, obfuscation: obfuscation, http: http, socks5: socks)
        case .mtproxy(let proxy):
            return EndpointRoute(
                host: proxy.host, port: proxy.port, framing: proxy.secret.framing(preferring: framing),
                obfuscation: proxy.secret.obfuscation(dcId: Int16(truncatingIfNeeded: dcId)), http: false, socks5: nil)
        }
    }
}
