import Foundation

/// An MTProxy secret as proxy links carry it (core.telegram.org/mtproto/mtproto-transports §Transport obfuscation,
/// and the official MTProxy's README): 16 bytes for obfuscated2 keyed by the secret; `dd` and the 16 bytes for the
/// same with padded intermediate framing (random padding hides packet sizes); `ee`, the 16 bytes and a domain name
/// for fake-TLS, where the connection starts like a TLS 1.3 session with that domain. Links write it as hex or as
/// base64 (standard or URL-safe, padded or not).
public struct MTProxySecret: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// Which of the three MTProxy disguises a secret asks for.
    public enum Kind: String, Sendable, Codable {
        /// obfuscated2 with any framing but the full one.
        case plain
        /// `dd`: obfuscated2 with padded intermediate framing only.
        case padded
        /// `ee`: fake-TLS around obfuscated2 with padded intermediate framing.
        case fakeTLS
    }

    /// Why a text is not a secret.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let reason: String
        public var description: String { "not an MTProxy secret: \(reason)" }
    }

    public let kind: Kind
    /// The 16 key bytes: what keys the obfuscation and, for fake-TLS, signs the hellos.
    public let key: [UInt8]
    /// Fake-TLS only: the domain the ClientHello names (its SNI), at most 182 bytes as Telegram's clients cut it.
    public let domain: String?

    /// The longest front domain kept (TDLib's `ProxySecret::MAX_DOMAIN_LENGTH`).
    public static let maximumDomainLength = 182

    /// A secret from its parts; `domain` is required for `.fakeTLS` and ignored otherwise.
    public init(kind: Kind, key: [UInt8], domain: String? = nil) throws(ParseError) {
        guard key.count == 16 else { throw ParseError(reason: "the key is \(key.count) bytes, not 16") }
        self.kind = kind
        self.key = key
        if kind == .fakeTLS {
            guard let domain, !domain.isEmpty, domain.utf8.count <= Self.maximumDomainLength,
                domain.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f })
            else { throw ParseError(reason: "a fake-TLS secret needs a domain of 1–182 printable ASCII bytes") }
            self.domain = domain
        } else {
            self.domain = nil
        }
    }

    /// Parses hex (`0123…`, `dd0123…`, `ee0123…` followed by the domain's bytes in hex) or base64 of the same bytes.
    public init(parsing text: String) throws(ParseError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw ParseError(reason: "empty") }
        let bytes: [UInt8]
        if let hex = Self.hexBytes(trimmed) {
            bytes = hex
        } else if let base64 = Self.base64Bytes(trimmed) {
            bytes = base64
        } else {
            throw ParseError(reason: "neither hex nor base64")
        }
        try self.init(bytes: bytes)
    }

    /// The secret's bytes as a link carries them.
    public init(bytes: [UInt8]) throws(ParseError) {
        switch bytes.first {
        case _ where bytes.count == 16:
            try self.init(kind: .plain, key: bytes)
        case 0xdd where bytes.count == 17:
            try self.init(kind: .padded, key: Array(bytes[1..<17]))
        case 0xee where bytes.count > 17:
            guard let domain = String(bytes: bytes[17...], encoding: .utf8) else {
                throw ParseError(reason: "the fake-TLS domain is not text")
            }
            try self.init(
                kind: .fakeTLS, key: Array(bytes[1..<17]), domain: String(domain.prefix(Self.maximumDomainLength)))
        default:
            throw ParseError(reason: "\(bytes.count) bytes: expected 16, dd and 16, or ee, 16 and a domain")
        }
    }

    /// The secret's bytes: what `hexEncoded` spells.
    public var bytes: [UInt8] {
        switch kind {
        case .plain: return key
        case .padded: return [0xdd] + key
        case .fakeTLS: return [0xee] + key + Array((domain ?? "").utf8)
        }
    }

    /// The hex form links use.
    public var hexEncoded: String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// The kind and the domain; never the key.
    public var description: String {
        switch kind {
        case .plain: return "plain"
        case .padded: return "dd"
        case .fakeTLS: return "ee (\(domain ?? ""))"
        }
    }

    /// The framing a connection through this secret must use: padded intermediate for `dd` and `ee`.
    public func framing(preferring framing: TransportFraming) -> TransportFraming {
        kind == .plain ? (framing == .full ? .intermediate : framing) : .paddedIntermediate
    }

    /// How a client connection hides itself with this secret, for DC `dcId`.
    public func obfuscation(dcId: Int16) -> TransportObfuscation {
        switch kind {
        case .plain: return .obfuscated2(dcId: dcId, secret: key)
        case .padded: return .obfuscated2(dcId: dcId, secret: [0xdd] + key)
        case .fakeTLS: return .fakeTLS(dcId: dcId, key: key, domain: domain ?? "")
        }
    }

    /// Decodes the hex or base64 text `encode(to:)` writes, checked as `init(parsing:)` checks a link's.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do { try self.init(parsing: text) } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    /// Encodes the hex form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hexEncoded)
    }

    private static func hexBytes(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0, utf8.count >= 32 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        for index in stride(from: 0, to: utf8.count, by: 2) {
            guard let high = hexValue(utf8[index]), let low = hexValue(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static func base64Bytes(_ text: String) -> [UInt8]? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard = standard.trimmingCharacters(in: CharacterSet(charactersIn: "="))
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard).map { [UInt8]($0) }
    }
}
