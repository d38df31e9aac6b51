import CryptoUtils

/// MTProxy's fake-TLS opening, proxy side, sans I/O: checks a ClientHello's digest against the proxy's keys and the
/// clock, and builds the answer — a ServerHello (TLS 1.3, `TLS_AES_128_GCM_SHA256`, an X25519 key share), a
/// ChangeCipherSpec, and one application-data record of random bytes standing in for the encrypted certificate —
/// whose `random` is the HMAC-SHA256 of the client's digest and the whole answer. The official MTProxy's
/// `net-tcp-rpc-ext-server.c` and Telegram's clients (TDLib `td/mtproto/TlsInit.cpp`) agree on this shape.
public enum FakeTLSServerHello {
    /// A hello that passed: which key signed it, and what the answer needs.
    public struct Accepted: Equatable, Sendable {
        public let keyIndex: Int
        /// The hello's 32-byte `random` as sent (digest XOR time): the answer's HMAC covers it, and a replay cache
        /// keys on it.
        public let clientDigest: [UInt8]
        public let sessionId: [UInt8]
        /// The Unix time the client put in the digest.
        public let clientTime: UInt32
    }

    /// Why a hello was not taken.
    public enum Rejection: Error, Equatable, CustomStringConvertible {
        /// Not 517 bytes starting like a TLS 1.x ClientHello record.
        case notAClientHello
        /// No key's HMAC matches: a browser, a scanner, or a client with another secret.
        case unknownKey
        /// Signed with a key, but at a time too far from ours (a replay of an old hello, or a client's bad clock).
        case clockSkew(seconds: Int64)

        public var description: String {
            switch self {
            case .notAClientHello: return "not a TLS ClientHello of 517 bytes"
            case .unknownKey: return "no secret signed this ClientHello"
            case .clockSkew(let seconds): return "the ClientHello's time is \(seconds) s from ours"
            }
        }
    }

    /// The first bytes of every hello a client sends: a handshake record of 512 bytes holding a ClientHello of 508.
    public static let prefix: [UInt8] = [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03]

    /// Finds the key of `keys` that signed `hello`, and checks its time against `now` within `allowedSkew` seconds
    /// (client time minus ours; the official MTProxy allows 20 minutes behind and 10 ahead).
    public static func check(
        _ hello: [UInt8], keys: [[UInt8]], now: UInt32, allowedSkew: ClosedRange<Int64> = -1200...600
    ) throws(Rejection) -> Accepted {
        guard hello.count == FakeTLSClientHello.length, hello.starts(with: prefix) else { throw .notAClientHello }
        let offset = FakeTLSClientHello.digestOffset
        let digest = Array(hello[offset..<(offset + 32)])
        let sessionIdLength = Int(hello[offset + 32])
        guard sessionIdLength <= 32 else { throw .notAClientHello }
        let sessionId = Array(hello[(offset + 33)..<(offset + 33 + sessionIdLength)])
        var zeroed = hello
        zeroed.replaceSubrange(offset..<(offset + 32), with: [UInt8](repeating: 0, count: 32))
        for (index, key) in keys.enumerated() {
            let expected = HMAC.sha256(key: key, zeroed)
            var xored = zip(expected, digest).map { $0 ^ $1 }
            guard ConstantTime.equals(xored[0..<28], [UInt8](repeating: 0, count: 28)) else { continue }
            xored.removeFirst(28)
            let time = xored.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * $1.offset) }
            let skew = Int64(time) - Int64(now)
            guard allowedSkew.contains(skew) else { throw .clockSkew(seconds: skew) }
            return Accepted(keyIndex: index, clientDigest: digest, sessionId: sessionId, clientTime: time)
        }
        throw .unknownKey
    }

    /// The answer to an accepted hello, signed with `key`; `certificateLength` random bytes follow as the
    /// "encrypted" application data (a real server's certificate chain is 1–4 KB).
    public static func answer<G: RandomNumberGenerator>(
        to accepted: Accepted, key: [UInt8], certificateLength: Int = 2_500, using generator: inout G
    ) -> [UInt8] {
        var writer = HelloWriter()
        writer.bytes([0x16, 0x03, 0x03])
        writer.scope {
            $0.bytes([0x02, 0x00])
            $0.scope {
                $0.bytes([0x03, 0x03])
                $0.bytes([UInt8](repeating: 0, count: 32))
                $0.bytes([UInt8(accepted.sessionId.count)] + accepted.sessionId)
                $0.bytes([0x13, 0x01, 0x00])  // TLS_AES_128_GCM_SHA256, no compression
                $0.scope {
                    $0.bytes([0x00, 0x33, 0x00, 0x24, 0x00, 0x1d, 0x00, 0x20])  // key_share: X25519
                    $0.bytes(X25519.randomPublicKey())
                    $0.bytes([0x00, 0x2b, 0x00, 0x02, 0x03, 0x04])  // supported_versions: TLS 1.3
                }
            }
        }
        writer.bytes([0x14, 0x03, 0x03, 0x00, 0x01, 0x01, 0x17, 0x03, 0x03])
        writer.scope { $0.random(certificateLength, using: &generator) }
        var answer = writer.output
        let offset = FakeTLSClientHello.digestOffset
        answer.replaceSubrange(offset..<(offset + 32), with: HMAC.sha256(key: key, accepted.clientDigest + answer))
        return answer
    }
}
