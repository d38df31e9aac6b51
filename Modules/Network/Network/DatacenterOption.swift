import MTProtoTransport
public import TelegramApi

/// One address of a data center as `help.getConfig`'s `dcOption` gives it, with every flag the client honours
/// (core.telegram.org/constructor/dcOption).
public struct DatacenterOption: Sendable, Equatable {
    public var dcId: Int32
    public var host: String
    public var port: Int
    /// An IPv6 address: used only where the network has IPv6.
    public var ipv6: Bool
    /// For media (file) sessions only.
    public var mediaOnly: Bool
    /// Reachable only with transport obfuscation.
    public var tcpoOnly: Bool
    /// A CDN data center's address (CDN DCs have ids of their own): never a generic or media session's.
    public var cdn: Bool
    /// The address to use when connecting through a proxy.
    public var isStatic: Bool
    /// The obfuscation secret for this address (with `tcpoOnly`).
    public var secret: [UInt8]?

    public init(
        dcId: Int32, host: String, port: Int, ipv6: Bool = false, mediaOnly: Bool = false, tcpoOnly: Bool = false,
        cdn: Bool = false, isStatic: Bool = false, secret: [UInt8]? = nil
    ) {
        self.dcId = dcId
        self.host = host
        self.port = port
        self.ipv6 = ipv6
        self.mediaOnly = mediaOnly
        self.tcpoOnly = tcpoOnly
        self.cdn = cdn
        self.isStatic = isStatic
        self.secret = secret
    }

    /// `option` as the client keeps it; nil for a port outside 1...65535.
    public init?(_ option: Api.DcOption) {
        guard case .dcOption(let value) = option, (1...65535).contains(value.port) else { return nil }
        self.init(
            dcId: value.id, host: value.ipAddress, port: Int(value.port), ipv6: value.ipv6, mediaOnly: value.mediaOnly,
            tcpoOnly: value.tcpoOnly, cdn: value.cdn, isStatic: value.static, secret: value.secret)
    }

    /// `template` (framing, proxy, HTTP) pointed at this address; an obfuscation-only address or one with a secret
    /// gets obfuscated2 with it.
    public func endpoint(from template: MTProtoConnection.Endpoint) -> MTProtoConnection.Endpoint {
        var endpoint = template
        endpoint.host = host
        endpoint.port = port
        endpoint.dcId = dcId
        if tcpoOnly || secret != nil {
            let dc = Int16(clamping: mediaOnly ? -dcId : dcId)
            switch endpoint.obfuscation {
            case .obfuscated2(_, let existing):
                endpoint.obfuscation = .obfuscated2(dcId: dc, secret: secret ?? existing)
            case .none, .fakeTLS: endpoint.obfuscation = .obfuscated2(dcId: dc, secret: secret)
            }
        }
        return endpoint
    }

    /// The addresses of `dc` a session for `purpose` may use, best first (Telegram-iOS `MTContext`'s choice of a
    /// `MTDatacenterAddress`): CDN addresses never; IPv6 only when the network has it; media sessions prefer
    /// media-only addresses and generic ones never use them; through a proxy, static addresses first.
    public static func choose(
        _ options: [DatacenterOption], dc: Int32, media: Bool, ipv6Available: Bool, throughProxy: Bool
    ) -> [DatacenterOption] {
        let usable = options.filter { option in
            option.dcId == dc && !option.cdn && (ipv6Available || !option.ipv6) && (media || !option.mediaOnly)
        }
        func rank(_ option: DatacenterOption) -> Int {
            var rank = 0
            if media, !option.mediaOnly { rank += 4 }
            if throughProxy, !option.isStatic { rank += 2 }
            if option.ipv6 { rank += 1 }  // IPv4 first where both work, as Telegram's clients do by default
            return rank
        }
        return usable.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }
            .map(\.element)
    }
}
