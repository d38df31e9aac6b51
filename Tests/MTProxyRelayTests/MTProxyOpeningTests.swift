import MTProtoTransport
import MTProxyRelay
import Testing

/// How the proxy sorts a connection's first bytes: fake-TLS hellos signed with its key (answered, then the header
/// read from inside the records), obfuscated2 headers keyed by it, and everything else — other keys, replays,
/// browsers — refused with the bytes kept for the front.
@Suite struct MTProxyOpeningTests {
    static let key: [UInt8] = Array(40..<56)
    static let now: UInt32 = 1_790_000_000

    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
    }

    static func opening(_ replays: ReplayCache = ReplayCache(), paddedOnly: Bool = false) -> MTProxyOpening {
        MTProxyOpening(keys: [Array(0..<16), key], paddedOnly: paddedOnly, now: now, replays: replays)
    }

    @Test func anObfuscatedClientArrivingAByteAtATime() throws {
        for (framing, secret) in [(TransportFraming.abridged, Self.key), (.paddedIntermediate, [0xdd] + Self.key)] {
            let header = try ObfuscatedHeader.makeClientHeader(framing: framing, dcId: -3, secret: secret)
            var opening = Self.opening()
            let stream = header.bytes + [1, 2, 3]
            var step: MTProxyOpening.Step = .needMore
            for byte in stream.prefix(64) {
                guard case .needMore = step else {
                    Issue.record("decided before the header was whole")
                    return
                }
                step = opening.receive([byte])
            }
            guard case .relay(let client) = step else {
                Issue.record("not relayed: \(step)")
                continue
            }
            #expect(client.dcId == -3 && client.framing == framing && !client.fakeTLS)
            #expect(client.rest.isEmpty)
        }
    }

    @Test func aFakeTLSClientIsAnsweredThenRelayed() throws {
        var generator = Seeded(state: 7)
        let hello = FakeTLSClientHello.make(domain: "example.com", key: Self.key, unixTime: Self.now, using: &generator)
        let header = try ObfuscatedHeader.makeClientHeader(framing: .paddedIntermediate, dcId: 2, secret: Self.key)
        var opening = Self.opening()
        guard case .answer(let answer) = opening.receive(hello) else {
            Issue.record("the hello was not answered")
            return
        }
        try FakeTLSClientHello.verifyServerHello(answer, clientDigest: Array(hello[11..<43]), key: Self.key)
        guard case .needMore = opening.receive([UInt8]()) else {
            Issue.record("decided before the header came")
            return
        }
        let records = FakeTLSRecords.changeCipherSpec + FakeTLSRecords.wrap(header.bytes + [9, 9], chunk: 30)
        guard case .relay(let client) = opening.receive(records) else {
            Issue.record("not relayed")
            return
        }
        #expect(client.fakeTLS && client.dcId == 2 && client.framing == .paddedIntermediate)
        #expect(client.rest == [9, 9])

        // A client that sends its records with the hello, without waiting: answered first, then relayed.
        var eager = Self.opening()
        let second = FakeTLSClientHello.make(domain: "example.com", key: Self.key, unixTime: Self.now, using: &generator)
        guard case .answer = eager.receive(second + records) else {
            Issue.record("not answered")
            return
        }
        guard case .relay = eager.receive([UInt8]()) else {
            Issue.record("the records that came with the hello were lost")
            return
        }
    }

    @Test func everythingElseIsRefusedWithItsBytes() throws {
        var generator = Seeded(state: 8)
        let replays = ReplayCache()
        // Another key's hello, and a browser's hello-shaped bytes.
        let foreign = FakeTLSClientHello.make(domain: "a.b", key: Array(90..<106), unixTime: Self.now, using: &generator)
        var opening = Self.opening(replays)
        guard case .refuse(.foreignTLS(.unknownKey), let received) = opening.receive(foreign) else {
            Issue.record("a foreign hello was not refused")
            return
        }
        #expect(received == foreign)
        // The same hello twice: the second is a replay.
        let hello = FakeTLSClientHello.make(domain: "a.b", key: Self.key, unixTime: Self.now, using: &generator)
        var first = Self.opening(replays)
        guard case .answer = first.receive(hello) else {
            Issue.record("not answered")
            return
        }
        var again = Self.opening(replays)
        guard case .refuse(.replayed, _) = again.receive(hello) else {
            Issue.record("a replayed hello was answered")
            return
        }
        // An HTTP request, 64 random bytes, an obfuscated2 header under another key, and a replayed header.
        var http = Self.opening(replays)
        let request = Array("GET / HTTP/1.1\r\nHost: example.com\r\nUser-Agent: curl/8\r\nAccept: */*\r\n\r\n".utf8)
        guard case .refuse(.unknownHeader, let kept) = http.receive(request) else {
            Issue.record("an HTTP request was not refused")
            return
        }
        #expect(kept == request)
        let other = try ObfuscatedHeader.makeClientHeader(framing: .intermediate, dcId: 2, secret: Array(200..<216))
        var wrong = Self.opening(replays)
        guard case .refuse(.unknownHeader, _) = wrong.receive(other.bytes) else {
            Issue.record("another key's header was relayed")
            return
        }
        let mine = try ObfuscatedHeader.makeClientHeader(framing: .intermediate, dcId: 2, secret: Self.key)
        var once = Self.opening(replays)
        guard case .relay = once.receive(mine.bytes) else {
            Issue.record("not relayed")
            return
        }
        var twice = Self.opening(replays)
        guard case .refuse(.replayed, _) = twice.receive(mine.bytes) else {
            Issue.record("a replayed header was relayed")
            return
        }
        // A dd-only proxy refuses plain obfuscated2.
        let plain = try ObfuscatedHeader.makeClientHeader(framing: .abridged, dcId: 2, secret: Self.key)
        var padded = Self.opening(replays, paddedOnly: true)
        guard case .refuse(.framingNotAllowed(.abridged), _) = padded.receive(plain.bytes) else {
            Issue.record("plain obfuscated2 relayed by a dd-only proxy")
            return
        }
    }

    @Test func theReplayCacheKeepsTheNewest() {
        let cache = ReplayCache(capacity: 3)
        for value in 0..<5 { #expect(cache.insert([UInt8(value)])) }
        #expect(!cache.insert([4]) && !cache.insert([3]) && !cache.insert([2]))
        #expect(cache.insert([0]), "the oldest was forgotten")
    }
}
