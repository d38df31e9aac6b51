/// The two AES-256-CTR streams of an obfuscated2 connection: one for what this end sends, one for what it receives.
public struct ObfuscationCiphers {
    var send: CTRStream
    var receive: CTRStream

    /// Encrypts what this end sends, in place, continuing the stream (a relay re-encrypting for its other side).
    public func encrypt(_ raw: UnsafeMutableRawBufferPointer) { send.apply(raw) }

    /// Decrypts what the other end sent, in place, continuing the stream.
    public func decrypt(_ raw: UnsafeMutableRawBufferPointer) { receive.apply(raw) }
}

/// The 64-byte obfuscated2 header (MTProto transports §Transport obfuscation).
///
/// Bytes 8..<40 are the key and 40..<56 the IV of the client → server stream; the same 48 bytes reversed give the
/// server → client key and IV. With an MTProxy secret each key becomes SHA-256(key ‖ secret). Bytes 56..<60 carry
/// the framing's tag and 60..<62 the DC id; the header is sent with bytes 56..<64 replaced by their encryption, so
/// the tag is readable only to whoever can derive the key.
public struct ObfuscatedHeader {
    /// The bytes to send first.
    public let bytes: [UInt8]
    /// The streams this end encrypts and decrypts with once the header is sent.
    public let ciphers: ObfuscationCiphers

    /// First words a header must not start with, so that it is not mistaken for a plain transport or HTTP.
    static let forbiddenFirstWords: [[UInt8]] = [
        [0xee, 0xee, 0xee, 0xee], [0xdd, 0xdd, 0xdd, 0xdd], Array("GET ".utf8), Array("POST".utf8),
        Array("HEAD".utf8), Array("OPTI".utf8), Array("PVrG".utf8), [0x16, 0x03, 0x01, 0x02],
    ]

    /// A client's header for `framing`, with fresh random keys.
    public static func makeClientHeader(
        framing: TransportFraming, dcId: Int16, secret: [UInt8]?
    ) throws -> ObfuscatedHeader {
        var generator = SystemRandomNumberGenerator()
        return try makeClientHeader(framing: framing, dcId: dcId, secret: secret, using: &generator)
    }

    /// A client's header drawn from `generator` (tests pass a seeded one).
    public static func makeClientHeader<G: RandomNumberGenerator>(
        framing: TransportFraming, dcId: Int16, secret: [UInt8]?, using generator: inout G
    ) throws -> ObfuscatedHeader {
        guard let tag = framing.obfuscatedTag else { throw TransportError.fullFramingCannotBeObfuscated }
        let proxyKey = try proxySecretKey(secret, framing: framing)
        var header = [UInt8](repeating: 0, count: 64)
        repeat {
            for i in 0..<64 { header[i] = UInt8.random(in: 0...255, using: &generator) }
        } while header[0] == 0xef || forbiddenFirstWords.contains(Array(header[0..<4]))
            || header[4..<8].allSatisfy { $0 == 0 }
        withUnsafeBytes(of: tag.littleEndian) { header.replaceSubrange(56..<60, with: $0) }
        withUnsafeBytes(of: dcId.littleEndian) { header.replaceSubrange(60..<62, with: $0) }
        let send = keyedStream(Array(header[8..<56]), proxyKey: proxyKey)
        let receive = keyedStream(Array(header[8..<56].reversed()), proxyKey: proxyKey)
        var encrypted = header
        send.apply(&encrypted)
        header.replaceSubrange(56..<64, with: encrypted[56..<64])
        return ObfuscatedHeader(bytes: header, ciphers: ObfuscationCiphers(send: send, receive: receive))
    }

    /// What a server learns from a client's header: the framing, the DC id, and its own pair of streams. Tries each
    /// secret (and no secret when `secrets` is empty); `nil` when no key yields a known tag.
    public static func acceptServerHeader(
        _ header: [UInt8], secrets: [[UInt8]]
    ) -> (framing: TransportFraming, dcId: Int16, ciphers: ObfuscationCiphers)? {
        guard header.count == 64 else { return nil }
        let candidates: [[UInt8]?] = secrets.isEmpty ? [nil] : secrets.map { Optional($0) }
        for secret in candidates {
            let proxyKey = secret.map { $0.count == 17 ? Array($0.dropFirst()) : $0 }
            let receive = keyedStream(Array(header[8..<56]), proxyKey: proxyKey)
            var decrypted = header
            receive.apply(&decrypted)
            let tag =
                UInt32(decrypted[56]) | UInt32(decrypted[57]) << 8 | UInt32(decrypted[58]) << 16
                | UInt32(decrypted[59]) << 24
            guard let framing = TransportFraming(obfuscatedTag: tag) else { continue }
            if let secret, secret.count == 17, secret[0] == 0xdd, framing != .paddedIntermediate { continue }
            let dcId = Int16(bitPattern: UInt16(decrypted[60]) | UInt16(decrypted[61]) << 8)
            let send = keyedStream(Array(header[8..<56].reversed()), proxyKey: proxyKey)
            return (framing, dcId, ObfuscationCiphers(send: send, receive: receive))
        }
        return nil
    }

    /// Validates an MTProxy secret: 16 bytes, or 17 with a leading `0xdd` that requires padded intermediate.
    static func proxySecretKey(_ secret: [UInt8]?, framing: TransportFraming) throws -> [UInt8]? {
        guard let secret else { return nil }
        if secret.count == 16 { return secret }
        if secret.count == 17, secret[0] == 0xdd {
            guard framing == .paddedIntermediate else { throw TransportError.invalidObfuscatedHeader }
            return Array(secret.dropFirst())
        }
        throw TransportError.invalidObfuscatedHeader
    }

    /// The stream keyed by 48 header bytes: key = bytes[0..<32] (hashed with the proxy secret), IV = bytes[32..<48].
    static func keyedStream(_ keyAndIV: [UInt8], proxyKey: [UInt8]?) -> CTRStream {
        var key = Array(keyAndIV[0..<32])
        if let proxyKey { key = CTRStream.sha256(key + proxyKey) }
        return CTRStream(key: key, iv: Array(keyAndIV[32..<48]))
    }
}
