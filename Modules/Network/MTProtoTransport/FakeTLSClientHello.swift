import CryptoUtils

/// MTProxy's fake-TLS opening, client side, sans I/O: a ClientHello shaped like a browser's TLS 1.3 hello whose
/// `random` field is an HMAC-SHA256 of the whole hello under the secret's key, its last 4 bytes XORed with the Unix
/// time (little-endian), and the check of the server's answer, whose `random` is an HMAC of the client's digest and
/// the answer. As the official MTProxy and Telegram's clients speak it (TDLib `td/mtproto/TlsInit.cpp`,
/// Telegram-iOS `submodules/MtProtoKit/Sources/MTTcpConnection.m`).
public enum FakeTLSClientHello {
    /// A hello is always 517 bytes (a 5-byte record header and a 512-byte handshake), as proxies expect.
    public static let length = 517
    /// Where the 32-byte digest sits: after the record header (5), the handshake header (4) and the version (2).
    public static let digestOffset = 11

    /// Why the server's answer was refused.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The answer does not start like a ServerHello, a ChangeCipherSpec and an application-data record.
        case notAServerHello
        /// The answer's HMAC does not match: not a proxy holding this secret.
        case digestMismatch

        public var description: String {
            switch self {
            case .notAServerHello: return "the proxy's answer is not a TLS ServerHello"
            case .digestMismatch: return "the proxy's ServerHello is not signed with this secret"
            }
        }
    }

    /// A ClientHello for `domain`, signed with `key` at `unixTime`; its digest (bytes 11..<43) is what
    /// `verifyServerHello` needs.
    public static func make<G: RandomNumberGenerator>(
        domain: String, key: [UInt8], unixTime: UInt32, using generator: inout G
    ) -> [UInt8] {
        var grease = [UInt8](repeating: 0, count: 7)
        // GREASE values (RFC 8701): 0x?A?A, neighbours distinct as TDLib makes them.
        for index in grease.indices { grease[index] = (UInt8.random(in: 0...255, using: &generator) & 0xf0) | 0x0a }
        for index in stride(from: 1, to: grease.count, by: 2) where grease[index] == grease[index - 1] {
            grease[index] ^= 0x10
        }
        var writer = HelloWriter()
        writer.bytes([0x16, 0x03, 0x01])
        writer.scope {  // record
            $0.bytes([0x01, 0x00])
            $0.scope {  // handshake (a 3-byte length whose first byte is 0)
                $0.bytes([0x03, 0x03])
                $0.bytes([UInt8](repeating: 0, count: 32))  // random: the digest, filled in last
                $0.bytes([0x20])
                $0.random(32, using: &generator)  // legacy session id
                $0.bytes([0x00, 0x20, grease[0], grease[0]])
                $0.bytes(cipherSuites)
                $0.bytes([0x01, 0x00])  // compression: null
                $0.scope {  // extensions
                    $0.bytes([grease[2], grease[2], 0x00, 0x00])
                    var parts = extensions(domain: domain, grease: grease)
                    parts.shuffle(using: &generator)
                    for part in parts { $0.bytes(part) }
                    $0.bytes([grease[3], grease[3], 0x00, 0x01, 0x00])
                    let padding = 513 - $0.count
                    if padding > 0 {
                        $0.bytes([0x00, 0x15])
                        $0.scope { $0.bytes([UInt8](repeating: 0, count: padding)) }
                    }
                }
            }
        }
        var hello = writer.output
        precondition(hello.count == length, "the hello's parts add up to \(hello.count) bytes")
        var digest = HMAC.sha256(key: key, hello)
        for index in 0..<4 { digest[28 + index] ^= UInt8(truncatingIfNeeded: unixTime >> (8 * index)) }
        hello.replaceSubrange(digestOffset..<(digestOffset + 32), with: digest)
        return hello
    }

    /// How many bytes of `received` the server's answer takes (a ServerHello record, then a ChangeCipherSpec and one
    /// application-data record); `nil` while it is incomplete.
    public static func serverHelloLength(_ received: ArraySlice<UInt8>) throws(Failure) -> Int? {
        var offset = received.startIndex
        for prefix: [UInt8] in [[0x16, 0x03, 0x03], [0x14, 0x03, 0x03, 0x00, 0x01, 0x01, 0x17, 0x03, 0x03]] {
            let available = received.endIndex - offset
            let compared = min(available, prefix.count)
            guard received[offset..<(offset + compared)].elementsEqual(prefix[0..<compared]) else {
                throw .notAServerHello
            }
            guard available >= prefix.count + 2 else { return nil }
            offset += prefix.count
            let length = Int(received[offset]) << 8 | Int(received[offset + 1])
            offset += 2 + length
            guard offset <= received.endIndex else { return nil }
        }
        return offset - received.startIndex
    }

    /// Checks a whole answer (`serverHelloLength` bytes) against the hello's digest.
    public static func verifyServerHello(_ answer: [UInt8], clientDigest: [UInt8], key: [UInt8]) throws(Failure) {
        guard answer.count >= digestOffset + 32 else { throw .notAServerHello }
        var zeroed = answer
        zeroed.replaceSubrange(digestOffset..<(digestOffset + 32), with: [UInt8](repeating: 0, count: 32))
        let expected = HMAC.sha256(key: key, clientDigest + zeroed)
        guard ConstantTime.equals(expected, Array(answer[digestOffset..<(digestOffset + 32)])) else {
            throw .digestMismatch
        }
    }

    /// TLS 1.3 and 1.2 suites in Chrome's order (after a GREASE value).
    static let cipherSuites: [UInt8] = [
        0x13, 0x01, 0x13, 0x02, 0x13, 0x03, 0xc0, 0x2b, 0xc0, 0x2f, 0xc0, 0x2c, 0xc0, 0x30, 0xcc, 0xa9, 0xcc, 0xa8,
        0xc0, 0x13, 0xc0, 0x14, 0x00, 0x9c, 0x00, 0x9d, 0x00, 0x2f, 0x00, 0x35,
    ]

    /// The extensions a browser sends, each whole; the caller shuffles them as Chrome does since version 110.
    static func extensions(domain: String, grease: [UInt8]) -> [[UInt8]] {
        let name = Array(domain.utf8.prefix(MTProxySecret.maximumDomainLength))
        var serverName = HelloWriter()  // RFC 6066 §3
        serverName.bytes([0x00, 0x00])
        serverName.scope {
            $0.scope {
                $0.bytes([0x00]); $0.scope { $0.bytes(name) }
            }
        }
        var keyShare = HelloWriter()  // RFC 8446 §4.2.8: a GREASE share, then X25519
        keyShare.bytes([0x00, 0x33])
        keyShare.scope {
            $0.scope {
                $0.bytes([grease[4], grease[4], 0x00, 0x01, 0x00])
                $0.bytes([0x00, 0x1d, 0x00, 0x20])
                $0.bytes(X25519.randomPublicKey())
            }
        }
        return [
            serverName.output,
            [0x00, 0x05, 0x00, 0x05, 0x01, 0x00, 0x00, 0x00, 0x00],  // status_request
            [0x00, 0x0a, 0x00, 0x0a, 0x00, 0x08, grease[4], grease[4], 0x00, 0x1d, 0x00, 0x17, 0x00, 0x18],  // groups
            [0x00, 0x0b, 0x00, 0x02, 0x01, 0x00],  // ec_point_formats
            [
                0x00, 0x0d, 0x00, 0x12, 0x00, 0x10, 0x04, 0x03, 0x08, 0x04, 0x04, 0x01, 0x05, 0x03, 0x08, 0x05, 0x05,
                0x01, 0x08, 0x06, 0x06, 0x01,
            ],  // signature_algorithms
            [0x00, 0x10, 0x00, 0x0e, 0x00, 0x0c, 0x02] + Array("h2".utf8) + [0x08] + Array("http/1.1".utf8),  // ALPN
            [0x00, 0x12, 0x00, 0x00],  // signed_certificate_timestamp
            [0x00, 0x17, 0x00, 0x00],  // extended_master_secret
            [0x00, 0x1b, 0x00, 0x03, 0x02, 0x00, 0x02],  // compress_certificate: brotli
            [0x00, 0x23, 0x00, 0x00],  // session_ticket
            [0x00, 0x2b, 0x00, 0x07, 0x06, grease[6], grease[6], 0x03, 0x04, 0x03, 0x03],  // supported_versions
            [0x00, 0x2d, 0x00, 0x02, 0x01, 0x01],  // psk_key_exchange_modes
            keyShare.output,
            [0x44, 0xcd, 0x00, 0x05, 0x00, 0x03, 0x02] + Array("h2".utf8),  // application_settings
            [0xff, 0x01, 0x00, 0x01, 0x00],  // renegotiation_info
        ]
    }
}

/// Appends bytes, with 2-byte big-endian length prefixes filled in when a scope closes.
struct HelloWriter {
    private(set) var output: [UInt8] = []
    var count: Int { output.count }

    mutating func bytes(_ bytes: [UInt8]) { output += bytes }

    /// `count` random bytes, eight from each draw of `generator` (one draw a byte cost a system call a byte with the
    /// system generator: most of a fake-TLS opening's CPU at the proxy, which writes the same way).
    mutating func random<G: RandomNumberGenerator>(_ count: Int, using generator: inout G) {
        output.reserveCapacity(output.count + count)
        var left = count
        while left > 0 {
            var word = generator.next()
            for _ in 0..<min(8, left) {
                output.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
            left -= min(8, left)
        }
    }

    mutating func scope(_ body: (inout HelloWriter) -> Void) {
        let start = output.count
        output += [0, 0]
        body(&self)
        let length = output.count - start - 2
        output[start] = UInt8(length >> 8)
        output[start + 1] = UInt8(length & 0xff)
    }
}
