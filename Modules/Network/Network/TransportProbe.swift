public import AccountNetworking
import MTProtoTransport

/// What a client tries, in what order and within what bounds, when a data center's address does not answer
/// (Telegram-iOS MtProtoKit `MTDiscoverConnectionSignals.discoverSchemeWithContext`: every address of the DC, each
/// probe with its own 5 s timeout; the scheme that answers becomes the DC's `MTTransportScheme` in `MTContext`).
/// A value with no sockets: `AccountNetwork` walks its `candidates` and asks it for each attempt's `budget`.
///
/// Order: the scheme remembered for this network first; then, for the address in use and every other
/// `help.getConfig` option of the DC (`DatacenterOption.choose` order), the account's own framing, then obfuscated2
/// (an obfuscation-only address or one with a secret has only that), then MTProto over HTTP on the same address. Through
/// an MTProxy nothing else is tried (it relays TCP to the DC it is told, whatever the address); through SOCKS5 every
/// candidate keeps the proxy.
public struct TransportProbe: Sendable, Equatable {
    /// How far a probe goes.
    public struct Limits: Sendable, Equatable {
        /// At most this many candidates per probe.
        public var maximumCandidates: Int
        /// Each candidate's connect, and then its handshake, gets at most this many seconds (Telegram-iOS: 5 s).
        public var candidateTimeout: Double
        /// No candidate starts, and none runs on, past this many seconds from the probe's start.
        public var deadline: Double

        public init(maximumCandidates: Int = 8, candidateTimeout: Double = 5, deadline: Double = 30) {
            self.maximumCandidates = maximumCandidates
            self.candidateTimeout = candidateTimeout
            self.deadline = deadline
        }
    }

    /// A budget below this is not worth a connect: the probe ends.
    public static let minimumBudget = 0.05

    public let limits: Limits
    /// When the probe started (seconds, the caller's clock).
    public let started: Double
    /// The endpoints to try, best first, at most `limits.maximumCandidates`.
    public let candidates: [MTProtoConnection.Endpoint]

    /// The probe for a DC whose `current` endpoint failed (it is not tried again, nor anything in `tried`), with
    /// `remembered` (how this network reached the DC before) and the DC's other `options`, already in
    /// `DatacenterOption.choose` order.
    public init(
        current: MTProtoConnection.Endpoint, remembered: MTProtoConnection.Endpoint?, options: [DatacenterOption],
        tried: [MTProtoConnection.Endpoint] = [], limits: Limits = Limits(), now: Double
    ) {
        self.limits = limits
        self.started = now
        var list: [MTProtoConnection.Endpoint] = []
        if case .mtproxy = current.proxy {
            candidates = []
            return
        }
        if let remembered { list.append(remembered) }
        list += Self.variants(of: current)
        for option in options where option.dcId == current.dcId {
            list += Self.variants(of: option.endpoint(from: Self.plain(current)))
        }
        var unique: [MTProtoConnection.Endpoint] = []
        let skipped = [current] + tried
        for candidate in list where !unique.contains(candidate) && !skipped.contains(candidate) {
            unique.append(candidate)
        }
        candidates = Array(unique.prefix(max(0, limits.maximumCandidates)))
    }

    /// How many seconds the next step (a connect, or a handshake) of a candidate may take at `now`, or nil when the
    /// probe's deadline leaves too little.
    public func budget(now: Double) -> Double? {
        let left = started + limits.deadline - now
        let budget = min(limits.candidateTimeout, left)
        return budget >= Self.minimumBudget ? budget : nil
    }

    /// `base` as it is, then as obfuscated2 TCP, then over HTTP — what applies to its address.
    static func variants(of base: MTProtoConnection.Endpoint) -> [MTProtoConnection.Endpoint] {
        var tcp = base
        tcp.http = false
        var list = [base, tcp]
        if tcp.obfuscation == .none {
            var obfuscated = tcp
            obfuscated.obfuscation = .obfuscated2(dcId: Int16(clamping: base.dcId))
            // The full framing has no obfuscated form (it carries no tag): intermediate in its place.
            if obfuscated.framing == .full { obfuscated.framing = .intermediate }
            list.append(obfuscated)
            var http = tcp
            http.http = true
            list.append(http)
        }
        return list
    }

    /// `endpoint` without obfuscation or HTTP: the template an option's own requirements are applied to.
    static func plain(_ endpoint: MTProtoConnection.Endpoint) -> MTProtoConnection.Endpoint {
        var plain = endpoint
        plain.obfuscation = .none
        plain.http = false
        return plain
    }
}

extension MTProtoConnection.Endpoint {
    /// What a store keeps of this endpoint when it won a probe.
    public var scheme: TransportScheme {
        switch obfuscation {
        case .none, .fakeTLS:
            return TransportScheme(host: host, port: port, http: http)
        case .obfuscated2(_, let secret):
            return TransportScheme(host: host, port: port, obfuscated: true, secret: secret, http: http)
        }
    }

    /// This endpoint (its framing, proxy and DC) pointed at `scheme`'s address and transport.
    public func applying(_ scheme: TransportScheme) -> MTProtoConnection.Endpoint {
        var endpoint = self
        endpoint.host = scheme.host
        endpoint.port = scheme.port
        endpoint.http = scheme.http
        if scheme.obfuscated {
            endpoint.obfuscation = .obfuscated2(dcId: Int16(clamping: dcId), secret: scheme.secret)
            if endpoint.framing == .full { endpoint.framing = .intermediate }
        } else {
            endpoint.obfuscation = .none
        }
        return endpoint
    }
}
