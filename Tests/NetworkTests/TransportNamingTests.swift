import MTProtoServer
import MTProtoTransport
import NIOCore
import Network
import ServerTestSupport
import Testing

/// A client names its transport as soon as its socket connects — the plain framing's preamble, the obfuscated2
/// header, HTTP's first (empty, long-poll) POST — from the event loop, not with the first packet: a client whose first
/// packet is late (its async code starved, as at the start of a full test run on two cores) is not closed by the
/// server's frame timeout. Before, such connections were closed and their first request failed "connection closed".
@Suite struct TransportNamingTests {
    enum Kind: String, CaseIterable, Sendable { case abridged, obfuscated, http }

    @Test(arguments: Kind.allCases)
    func aConnectionWhoseFirstPacketIsLateIsKept(_ kind: Kind) async throws {
        var limits = ServerLimits()
        limits.frameTimeout = 0.5
        let backend = try await BackendServer(limits: limits)
        let endpoint = try #require(backend.endpoints[2])
        let channel = try await TransportClient.connect(
            host: endpoint.host, port: endpoint.port, framing: kind == .obfuscated ? .intermediate : .abridged,
            obfuscation: kind == .obfuscated ? .obfuscated2(dcId: 2) : .none, http: kind == .http, group: backend.group
        ) { _ in [] }
        try await Task.sleep(for: .seconds(1.5))
        #expect(channel.isActive, "the server closed a \(kind) connection whose first packet was not sent yet")
        try await channel.close()
        try await backend.close()
    }
}
