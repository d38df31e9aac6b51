import AccountNetworking
import Foundation
import MTProtoTransport
import Network
import ServerTestSupport
import TelegramApi
import Testing

/// Transport probing against the server on 127.0.0.1, with `FaultProxy` playing the censor: when a DC's address does
/// not answer, `AccountNetwork` walks the DC's other addresses and transports (`TransportProbe`), takes the first that
/// completes a handshake and remembers it for the network, so the next start goes straight to it.
@Suite(.serialized) struct TransportProbingTests {
    /// Telegram-iOS's 5 s per candidate, for probes that meet black holes: each costs seconds, not the 30 s of a real
    /// network's key exchange, and a working candidate's key exchange still fits in its budget with every live suite
    /// starting at once on two cores (with 2 s one did not in CI: the probe found nothing, and the call waited out
    /// the probe's deadline).
    static let limits = TransportProbe.Limits(maximumCandidates: 8, candidateTimeout: 5, deadline: 30)

    /// For candidates that fail at once (a refused connect, a reset): a budget no working key exchange needs even on
    /// a loaded machine, so the time taken tells failures noticed at once from failures waited out (30 s each).
    static let patientLimits = TransportProbe.Limits(maximumCandidates: 8, candidateTimeout: 30, deadline: 120)

    static func endpoint(_ port: Int) -> MTProtoConnection.Endpoint {
        MTProtoConnection.Endpoint(host: "127.0.0.1", port: port, dcId: 2)
    }

    static func nearestDc(_ network: AccountNetwork) async throws -> Int32 {
        switch try await network.request(Api.functions.help.getNearestDc(), timeout: 20) {
        case .nearestDc(let nearest): return nearest.thisDc
        }
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    @Test func aRefusedFirstAddressGivesWayToTheDCsNextOption() async throws {
        let backend = try await BackendServer()
        let real = try #require(backend.endpoints[2]).port
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let dead = refusing.port
        let store = InMemoryNetworkKeyStore()
        let network = AccountNetwork(
            datacenters: [2: Self.endpoint(dead)], defaultMainDc: 2, publicKeys: backend.publicKeys, store: store,
            group: backend.group,
            datacenterOptions: [
                DatacenterOption(dcId: 2, host: "127.0.0.1", port: dead),
                DatacenterOption(dcId: 2, host: "127.0.0.1", port: real),
            ], probing: Self.patientLimits)
        let start = ContinuousClock.now
        #expect(try await Self.nearestDc(network) == 2)
        // Two refused candidates come before the real address: one refusal waited out would take its 30 s alone.
        #expect(Self.seconds(since: start) < 30, "refused connects fail at once")
        #expect(await network.datacenters[2] == Self.endpoint(real))
        #expect(await network.probeCount == 1)
        #expect(await network.probeWins == 1)
        #expect(
            store.transportScheme(datacenter: 2, network: "default") == TransportScheme(host: "127.0.0.1", port: real))
        await network.close()
        try await backend.close()
    }

    /// A closed network probes nothing: a call after `close` fails at once as `connectionClosed` — which reads as
    /// "unreachable" — without walking the DC's candidates (a `tg` command's network, closed at exit while a call was
    /// failing, once probed on an event loop group that was being shut down, and the process trapped).
    @Test func aClosedNetworkDoesNotProbe() async throws {
        let backend = try await BackendServer()
        let real = try #require(backend.endpoints[2]).port
        let network = AccountNetwork(
            datacenters: [2: Self.endpoint(real)], defaultMainDc: 2, publicKeys: backend.publicKeys,
            store: InMemoryNetworkKeyStore(), group: backend.group,
            datacenterOptions: [DatacenterOption(dcId: 2, host: "127.0.0.1", port: real)], probing: Self.limits)
        #expect(try await Self.nearestDc(network) == 2)
        await network.close()
        await #expect(throws: NetworkError.connectionClosed) { _ = try await Self.nearestDc(network) }
        #expect(await network.probeCount == 0)
        try await backend.close()
    }

    @Test func aHandshakeResetHalfWayMovesOnToTheNextCandidate() async throws {
        let backend = try await BackendServer()
        let real = try #require(backend.endpoints[2]).port
        let proxy = try await FaultProxy(upstreamPort: real, mode: .resetOnFirstAnswer, seed: 1, group: backend.group)
        let store = InMemoryNetworkKeyStore()
        let network = AccountNetwork(
            datacenters: [2: Self.endpoint(proxy.port)], defaultMainDc: 2, publicKeys: backend.publicKeys,
            store: store, group: backend.group,
            datacenterOptions: [
                DatacenterOption(dcId: 2, host: "127.0.0.1", port: proxy.port),
                DatacenterOption(dcId: 2, host: "127.0.0.1", port: real),
            ], probing: Self.patientLimits, networkIdentity: "cafe")
        let start = ContinuousClock.now
        #expect(try await Self.nearestDc(network) == 2)
        #expect(Self.seconds(since: start) < 30, "a reset moves on at once, not after the candidate's 30 s")
        // The address in use, then its obfuscated and HTTP forms: each reset when the server answered.
        #expect(proxy.connections == 3)
        #expect(proxy.faults == 3)
        #expect(await network.datacenters[2] == Self.endpoint(real))
        #expect(store.transportScheme(datacenter: 2, network: "cafe") == TransportScheme(host: "127.0.0.1", port: real))
        #expect(store.transportScheme(datacenter: 2, network: "default") == nil, "remembered for its network only")
        await network.close()
        await proxy.close()
        try await backend.close()
    }

    @Test func tcpBlackHoledButHTTPReachableHTTPWinsAndTheNextStartGoesStraightToIt() async throws {
        let backend = try await BackendServer()
        let real = try #require(backend.endpoints[2]).port
        // A censor that lets only HTTP through: plain MTProto, obfuscated2 and TLS-looking first packets vanish.
        let proxy = try await FaultProxy(
            upstreamPort: real, mode: .filter(blocking: [.plainMTProto, .other, .tls]), seed: 1, group: backend.group)
        let store = InMemoryNetworkKeyStore()
        var options = DatacenterConnection.Options()
        options.connectTimeout = 2
        func network(_ identity: String = "default") -> AccountNetwork {
            AccountNetwork(
                datacenters: [2: Self.endpoint(proxy.port)], defaultMainDc: 2, publicKeys: backend.publicKeys,
                store: store, group: backend.group, options: options, probing: Self.limits,
                networkIdentity: identity, keyExchangeTimeout: 2)
        }
        let first = network()
        let start = ContinuousClock.now
        #expect(try await Self.nearestDc(first) == 2)
        // The key exchange on the address in use timed out (2 s), then its obfuscated form (5 s), then HTTP won.
        #expect(Self.seconds(since: start) < 15)
        var http = Self.endpoint(proxy.port)
        http.http = true
        #expect(await first.datacenters[2] == http)
        #expect(
            store.transportScheme(datacenter: 2, network: "default")
                == TransportScheme(host: "127.0.0.1", port: proxy.port, http: true))
        let kinds = proxy.firstPackets
        #expect(kinds[.plainMTProto] == 1 && kinds[.other] == 1, "\(kinds)")
        #expect((kinds[.http] ?? 0) >= 1)
        await first.close()

        // The next start on this network: straight to HTTP, one connection, no probe.
        let before = proxy.connections
        let second = network()
        #expect(await second.datacenters[2] == http)
        #expect(try await Self.nearestDc(second) == 2)
        #expect(proxy.connections - before == 1)
        #expect(await second.probeCount == 0)
        await second.close()
        // Another network starts from the address as configured.
        #expect(await network("elsewhere").datacenters[2] == Self.endpoint(proxy.port))
        await proxy.close()
        try await backend.close()
    }

    @Test func withAKeyKeptEachCandidateMustAnswerASessionsFirstCallBlackHolesIncluded() async throws {
        let backend = try await BackendServer()
        let real = try #require(backend.endpoints[2]).port
        let store = InMemoryNetworkKeyStore()
        // The DC's key is made at its real address first.
        let home = AccountNetwork(
            datacenters: [2: Self.endpoint(real)], defaultMainDc: 2, publicKeys: backend.publicKeys, store: store,
            group: backend.group)
        #expect(try await Self.nearestDc(home) == 2)
        await home.close()
        #expect(store.key(datacenter: 2) != nil)

        // Elsewhere: the address in use refuses, the next one accepts connects and swallows everything.
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let dead = refusing.port
        let hole = try await FaultProxy(upstreamPort: real, mode: .blackhole(count: 100), seed: 1, group: backend.group)
        let away = AccountNetwork(
            datacenters: [2: Self.endpoint(dead)], defaultMainDc: 2, publicKeys: backend.publicKeys, store: store,
            group: backend.group,
            datacenterOptions: [
                DatacenterOption(dcId: 2, host: "127.0.0.1", port: dead),
                DatacenterOption(dcId: 2, host: "127.0.0.1", port: hole.port),
                DatacenterOption(dcId: 2, host: "127.0.0.1", port: real),
            ], probing: Self.limits, networkIdentity: "train")
        let start = ContinuousClock.now
        #expect(try await Self.nearestDc(away) == 2)
        // Three black-holed candidates (plain, obfuscated, HTTP), each given up after its 5 s call budget.
        #expect(hole.connections == 3)
        #expect(
            Self.seconds(since: start) < 30, "each black hole given up after its budget, before the probe's 30 s deadline")
        #expect(await away.datacenters[2] == Self.endpoint(real))
        #expect(
            store.transportScheme(datacenter: 2, network: "train") == TransportScheme(host: "127.0.0.1", port: real))
        await away.close()
        await hole.close()
        try await backend.close()
    }

    @Test func theFilterKnowsEachTransportsFirstBytes() {
        var generator = SystemRandomNumberGenerator()
        let hello = FakeTLSClientHello.make(
            domain: "example.com", key: [UInt8](repeating: 3, count: 16), unixTime: 1_800_000_000, using: &generator)
        #expect(FaultProxy.FirstPacket.classify(Array(hello.prefix(16))) == .tls)
        #expect(FaultProxy.FirstPacket.classify([0xef, 0x0a, 1, 2, 3]) == .plainMTProto)
        #expect(FaultProxy.FirstPacket.classify([0xee, 0xee, 0xee, 0xee, 40, 0, 0, 0]) == .plainMTProto)
        #expect(FaultProxy.FirstPacket.classify([0xdd, 0xdd, 0xdd, 0xdd, 40, 0, 0, 0]) == .plainMTProto)
        #expect(
            FaultProxy.FirstPacket.classify([52, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]) == .plainMTProto, "full framing")
        #expect(FaultProxy.FirstPacket.classify(Array("POST /api HTTP/1.1\r\n".utf8)) == .http)
        #expect(FaultProxy.FirstPacket.classify([0x91, 0x3c, 0x07, 0xa2, 0x55, 0x10, 0xfe, 0x01]) == .other)
    }
}
