import AccountNetworking
import MTProtoTransport
import Network
import Testing

/// The probe's plan without sockets: which endpoints, in what order, how many, and how long each may take.
@Suite struct TransportProbeTests {
    static let current = MTProtoConnection.Endpoint(host: "10.0.0.1", port: 443, dcId: 2, framing: .intermediate)
    static let options: [DatacenterOption] = [
        .init(dcId: 2, host: "10.0.0.1", port: 443),
        .init(dcId: 2, host: "10.0.0.2", port: 80),
        .init(dcId: 2, host: "10.0.0.3", port: 5222, tcpoOnly: true, secret: [UInt8](repeating: 9, count: 16)),
        .init(dcId: 4, host: "10.0.4.1", port: 443),
    ]

    static func endpoint(
        _ host: String, _ port: Int, obfuscation: TransportObfuscation = .none, http: Bool = false
    ) -> MTProtoConnection.Endpoint {
        MTProtoConnection.Endpoint(
            host: host, port: port, dcId: 2, framing: .intermediate, obfuscation: obfuscation, http: http)
    }

    @Test func eachAddressWithTheAccountsFramingThenObfuscatedThenHTTPTheFailedOneLeftOut() {
        let probe = TransportProbe(current: Self.current, remembered: nil, options: Self.options, now: 0)
        #expect(
            probe.candidates == [
                Self.endpoint("10.0.0.1", 443, obfuscation: .obfuscated2(dcId: 2)),
                Self.endpoint("10.0.0.1", 443, http: true),
                Self.endpoint("10.0.0.2", 80),
                Self.endpoint("10.0.0.2", 80, obfuscation: .obfuscated2(dcId: 2)),
                Self.endpoint("10.0.0.2", 80, http: true),
                // An obfuscation-only address with a secret: only that (no plain, no HTTP).
                Self.endpoint(
                    "10.0.0.3", 5222, obfuscation: .obfuscated2(dcId: 2, secret: [UInt8](repeating: 9, count: 16))),
            ])
    }

    @Test func theRememberedSchemeComesFirstAndNothingTwice() {
        let remembered = Self.current.applying(TransportScheme(host: "10.0.0.2", port: 80, http: true))
        #expect(remembered == Self.endpoint("10.0.0.2", 80, http: true))
        let probe = TransportProbe(
            current: Self.current, remembered: remembered, options: Self.options,
            tried: [Self.endpoint("10.0.0.2", 80)], now: 0)
        #expect(probe.candidates.first == remembered)
        #expect(probe.candidates.filter { $0 == remembered }.count == 1)
        #expect(!probe.candidates.contains(Self.endpoint("10.0.0.2", 80)), "what was tried is not tried again")
        #expect(!probe.candidates.contains(Self.current))
        #expect(Set(probe.candidates.map(\.dcId)) == [2], "another DC's options are not this DC's")
    }

    @Test func atMostTheLimitOfCandidates() {
        let many = (1...50).map { DatacenterOption(dcId: 2, host: "10.1.0.\($0)", port: 443) }
        let probe = TransportProbe(
            current: Self.current, remembered: nil, options: many,
            limits: .init(maximumCandidates: 5, candidateTimeout: 1, deadline: 10), now: 0)
        #expect(probe.candidates.count == 5)
        #expect(TransportProbe(current: Self.current, remembered: nil, options: many, now: 0).candidates.count == 8)
    }

    @Test func eachStepGetsTheCandidateTimeoutUntilTheDeadlineLeavesLess() {
        let probe = TransportProbe(
            current: Self.current, remembered: nil, options: Self.options,
            limits: .init(maximumCandidates: 8, candidateTimeout: 2, deadline: 5), now: 100)
        #expect(probe.budget(now: 100) == 2)
        #expect(probe.budget(now: 103.5) == 1.5)
        #expect(probe.budget(now: 104.99) == nil, "too little left to start anything")
        #expect(probe.budget(now: 106) == nil)
    }

    @Test func throughAnMTProxyNothingElseIsTriedAndThroughSOCKS5EveryCandidateKeepsTheProxy() throws {
        var viaMTProxy = Self.current
        viaMTProxy.proxy = .mtproxy(
            .init(host: "127.0.0.1", port: 9, secret: try MTProxySecret(bytes: [UInt8](repeating: 1, count: 16))))
        #expect(TransportProbe(current: viaMTProxy, remembered: nil, options: Self.options, now: 0).candidates.isEmpty)

        var viaSOCKS = Self.current
        let socks = SOCKS5Proxy(host: "127.0.0.1", port: 1080)
        viaSOCKS.proxy = .socks5(socks)
        let candidates = TransportProbe(current: viaSOCKS, remembered: nil, options: Self.options, now: 0).candidates
        #expect(!candidates.isEmpty && candidates.allSatisfy { $0.proxy == .socks5(socks) })
        #expect(candidates.contains { $0.http }, "HTTP goes through a SOCKS5 tunnel too")
    }

    @Test func theFullFramingIsObfuscatedAsIntermediateAndSchemesRoundTrip() {
        var full = Self.current
        full.framing = .full
        let probe = TransportProbe(current: full, remembered: nil, options: [], now: 0)
        #expect(probe.candidates.first?.framing == .intermediate)
        #expect(probe.candidates.first?.obfuscation == .obfuscated2(dcId: 2))
        for candidate in TransportProbe(current: Self.current, remembered: nil, options: Self.options, now: 0)
            .candidates
        {
            #expect(Self.current.applying(candidate.scheme) == candidate)
        }
    }
}
