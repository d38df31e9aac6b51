public import MTProtoTransport

/// What an MTProxy makes of a connection's first bytes, sans I/O: a fake-TLS ClientHello signed with one of its keys
/// (answered, then the obfuscated2 header read from inside the TLS records), an obfuscated2 header keyed by one of
/// them (plain or `dd`), or neither — a browser, a scanner, a replay — which the proxy must not give itself away to.
/// As the official MTProxy (`net-tcp-rpc-ext-server.c`) and alexbers' mtprotoproxy sort their clients.
public struct MTProxyOpening {
    /// A client the proxy relays: the DC it asked for, its framing, and the streams for its side.
    public struct Client {
        public let dcId: Int16
        public let framing: TransportFraming
        public let ciphers: ObfuscationCiphers
        /// Whether the client speaks fake-TLS: its bytes come in TLS records, and go back in them.
        public let fakeTLS: Bool
        /// Bytes after the header, still encrypted (for fake-TLS, already out of their records).
        public let rest: [UInt8]
        /// Record bytes that arrived after the header's record, for the relay's own record reader (fake-TLS).
        public let records: FakeTLSRecords.Reader
    }

    /// Why a connection is not an MTProxy client of this proxy.
    public enum Refusal: Equatable, Sendable, CustomStringConvertible {
        /// A TLS ClientHello no key signed, or with a bad clock: a browser or a scanner probing the port.
        case foreignTLS(FakeTLSServerHello.Rejection)
        /// A hello or header seen before: someone replaying a client's bytes to find out what answers.
        case replayed
        /// 64 bytes no key decrypts to a known framing tag.
        case unknownHeader
        /// Fake-TLS must carry padded intermediate, and a `dd`-only proxy takes nothing else.
        case framingNotAllowed(TransportFraming)
        /// More bytes came before the TLS records than a hello takes, or a record was not application data.
        case malformedRecords

        public var description: String {
            switch self {
            case .foreignTLS(let rejection): return "a TLS hello not from a client of this proxy (\(rejection))"
            case .replayed: return "a replayed opening"
            case .unknownHeader: return "an opening no secret of this proxy explains"
            case .framingNotAllowed(let framing): return "framing \(framing) is not allowed here"
            case .malformedRecords: return "malformed TLS records after the hello"
            }
        }
    }

    /// What to do next.
    public enum Step {
        /// Wait for more bytes.
        case needMore
        /// Send these bytes to the client (the fake-TLS answer), then call `receive` again — with no bytes if none
        /// came since, as the client's first records may already be in.
        case answer([UInt8])
        /// Relay this client.
        case relay(Client)
        /// Not a client: the bytes so far are returned so they can be handed to a front server unchanged.
        case refuse(Refusal, received: [UInt8])
    }

    private enum State {
        case start
        case tlsAccepted(key: [UInt8], records: FakeTLSRecords.Reader, payload: [UInt8])
        case done
    }

    private let keys: [[UInt8]]
    private let paddedOnly: Bool
    private let now: UInt32
    private let replays: ReplayCache
    private var state = State.start
    private var received: [UInt8] = []

    /// An opening checked against `keys` (16 bytes each) at Unix time `now`; `paddedOnly` refuses plain obfuscated2
    /// (only `dd` and `ee` clients); `replays` remembers hellos and headers across connections.
    public init(keys: [[UInt8]], paddedOnly: Bool = false, now: UInt32, replays: ReplayCache) {
        self.keys = keys
        self.paddedOnly = paddedOnly
        self.now = now
        self.replays = replays
    }

    /// Takes the bytes that arrived and says what to do.
    public mutating func receive(_ bytes: some Collection<UInt8>) -> Step {
        switch state {
        case .done:
            return .needMore
        case .start:
            received += bytes
            let prefix = FakeTLSServerHello.prefix
            let compared = min(received.count, prefix.count)
            if received[0..<compared].elementsEqual(prefix[0..<compared]) {
                return tlsHello()
            }
            return obfuscatedHeader()
        case .tlsAccepted(let key, var records, var payload):
            received += bytes
            do {
                payload += try records.receive(bytes)
            } catch {
                state = .done
                return .refuse(.malformedRecords, received: received)
            }
            return tlsPayload(key: key, records: records, payload: payload)
        }
    }

    private mutating func tlsHello() -> Step {
        guard received.count >= FakeTLSClientHello.length else { return .needMore }
        let hello = Array(received[0..<FakeTLSClientHello.length])
        let accepted: FakeTLSServerHello.Accepted
        do {
            accepted = try FakeTLSServerHello.check(hello, keys: keys, now: now)
        } catch {
            state = .done
            return .refuse(.foreignTLS(error), received: received)
        }
        guard replays.insert(accepted.clientDigest) else {
            state = .done
            return .refuse(.replayed, received: received)
        }
        let key = keys[accepted.keyIndex]
        // One random word per byte of the answer's 1–4 KB: drawn in blocks, not one system call each.
        var generator = BlockRandomGenerator()
        let answer = FakeTLSServerHello.answer(
            to: accepted, key: key, certificateLength: Int.random(in: 1_024..<4_096, using: &generator),
            using: &generator)
        let rest = received[FakeTLSClientHello.length...]
        state = .tlsAccepted(key: key, records: FakeTLSRecords.Reader(), payload: [])
        if !rest.isEmpty {
            // A client that does not wait for the answer: its records are read now; the answer still goes first.
            var records = FakeTLSRecords.Reader()
            do {
                state = .tlsAccepted(key: key, records: records, payload: try records.receive(rest))
            } catch {
                state = .done
                return .refuse(.malformedRecords, received: received)
            }
        }
        return .answer(answer)
    }

    private mutating func tlsPayload(key: [UInt8], records: FakeTLSRecords.Reader, payload: [UInt8]) -> Step {
        guard payload.count >= 64 else {
            state = .tlsAccepted(key: key, records: records, payload: payload)
            return .needMore
        }
        state = .done
        let header = Array(payload[0..<64])
        guard let accepted = ObfuscatedHeader.acceptServerHeader(header, secrets: [key]) else {
            return .refuse(.unknownHeader, received: received)
        }
        guard accepted.framing == .paddedIntermediate else {
            return .refuse(.framingNotAllowed(accepted.framing), received: received)
        }
        return .relay(
            Client(
                dcId: accepted.dcId, framing: accepted.framing, ciphers: accepted.ciphers, fakeTLS: true,
                rest: Array(payload[64...]), records: records))
    }

    private mutating func obfuscatedHeader() -> Step {
        guard received.count >= 64 else { return .needMore }
        state = .done
        let header = Array(received[0..<64])
        guard let accepted = ObfuscatedHeader.acceptServerHeader(header, secrets: keys) else {
            return .refuse(.unknownHeader, received: received)
        }
        guard replays.insert(Array(header[8..<56])) else { return .refuse(.replayed, received: received) }
        guard !paddedOnly || accepted.framing == .paddedIntermediate else {
            return .refuse(.framingNotAllowed(accepted.framing), received: received)
        }
        return .relay(
            Client(
                dcId: accepted.dcId, framing: accepted.framing, ciphers: accepted.ciphers, fakeTLS: false,
                rest: Array(received[64...]), records: FakeTLSRecords.Reader()))
    }
}
