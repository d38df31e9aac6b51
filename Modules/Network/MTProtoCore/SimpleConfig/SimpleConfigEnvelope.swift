public import CryptoUtils
import FoundationEssentials
public import MTProtoApi
import TLRuntime

/// The signed `help.configSimple` Telegram publishes outside its data centers (DNS TXT records over HTTPS and other
/// hosts) so that a client that reaches none of its known addresses can learn new ones. The format is the one
/// TDLib's `decode_config` reads (`td/telegram/ConfigManager.cpp`):
///
/// - 344 characters of base64 carry 256 bytes, raised to the server key's public exponent (the signature check);
/// - of the result, bytes 0..<32 are an AES-256 key and 16..<32 its CBC IV, and the other 224 bytes are the
///   ciphertext;
/// - the plaintext is a little-endian length `len`, the boxed `help.configSimple` up to byte `len` (8...208),
///   random padding to 208 bytes, then the first 16 bytes of SHA-256 of those 208.
///
/// Only the holder of the private key can make a blob that opens, so a blocked network can carry it but not forge it.
public enum SimpleConfigEnvelope {
    /// Why a blob did not open.
    public enum OpenError: Error, Equatable, Sendable, CustomStringConvertible {
        /// Not 344 base64 characters (once whitespace and other characters are dropped) or not 256 bytes.
        case length(Int)
        /// Not below the key's modulus, so no key could have signed it.
        case outOfRange
        /// The hash inside did not match: a different key signed it, or it was altered.
        case hashMismatch
        /// The length field is outside 8...208.
        case dataLength(Int32)
        /// It holds another TL type than `help.configSimple`.
        case constructor(UInt32)
        /// `help.configSimple` did not decode, or left bytes over.
        case decoding(String)

        public var description: String {
            switch self {
            case .length(let count): return "a simple config is 344 base64 characters (256 bytes), not \(count)"
            case .outOfRange: return "the signature is not below the key's modulus"
            case .hashMismatch: return "the signature does not verify (another key, or altered)"
            case .dataLength(let length): return "invalid data length \(length)"
            case .constructor(let id): return "not a help.configSimple (constructor \(String(id, radix: 16)))"
            case .decoding(let detail): return "help.configSimple does not decode: \(detail)"
            }
        }
    }

    /// The base64 text's length, and the signed block's.
    static let textLength = 344
    static let blockLength = 256
    /// Bytes of plaintext before the hash.
    static let payloadLength = 208

    /// Verifies `text` with `publicKey` and returns the configuration it carries.
    public static func open(_ text: String, publicKey: RSAPublicKey) throws(OpenError) -> MTProto.help.ConfigSimple {
        let base64 = text.unicodeScalars.filter { scalar in
            switch scalar {
            case "A"..."Z", "a"..."z", "0"..."9", "+", "/", "=": true
            default: false
            }
        }
        guard base64.count == textLength, let data = Data(base64Encoded: String(String.UnicodeScalarView(base64))),
            data.count == blockLength
        else { throw .length(base64.count) }
        let block: [UInt8]
        do { block = try publicKey.encryptRaw(Array(data)) } catch { throw .outOfRange }
        guard block.count == blockLength else { throw .outOfRange }
        let plain: [UInt8]
        do {
            plain = try AESCBC.decrypt(Array(block[32...]), key: Array(block[0..<32]), iv: Array(block[16..<32]))
        } catch {
            throw .hashMismatch
        }
        let digest = Digest.sha256(Array(plain[0..<payloadLength]))
        guard ConstantTime.equals(digest[0..<16], plain[payloadLength...]) else { throw .hashMismatch }
        let length = Int32(littleEndian: plain[0..<4].withUnsafeBytes { $0.loadUnaligned(as: Int32.self) })
        guard (8...Int32(payloadLength)).contains(length) else { throw .dataLength(length) }
        var reader = TLReader(plain, range: 4..<Int(length))
        let id: UInt32
        do { id = try reader.readUInt32() } catch { throw .decoding("\(error)") }
        guard id == 0x5a59_2a6c else { throw .constructor(id) }
        do {
            let config = try MTProto.help.ConfigSimple.parseBody(id, &reader)
            guard reader.isAtEnd else { throw OpenError.decoding("\(reader.remaining) bytes left over") }
            return config
        } catch let error as OpenError {
            throw error
        } catch {
            throw .decoding("\(error)")
        }
    }

    /// Signs `config` with `key`: what a server publishes for clients that reach none of its addresses. Throws when
    /// the configuration is over 200 bytes of TL (about 16 addresses).
    public static func seal(_ config: MTProto.help.ConfigSimple, key: RSAPrivateKey) throws(CryptoError) -> String {
        let body = config.serialized()
        guard body.count + 4 <= payloadLength else {
            throw .invalidLength(
                what: "help.configSimple", expected: "≤ \(payloadLength - 4) bytes", actual: body.count)
        }
        var payload = withUnsafeBytes(of: Int32(body.count + 4).littleEndian, Array.init) + body
        payload += SecureRandom.bytes(payloadLength - payload.count)
        let plain = payload + Digest.sha256(payload)[0..<16]
        // The AES key is the block's first 32 bytes: drawn again until the whole block is below the modulus.
        for _ in 0..<64 {
            let aesKey = SecureRandom.bytes(32)
            let block = aesKey + (try AESCBC.encrypt(plain, key: aesKey, iv: Array(aesKey[16..<32])))
            guard BigNum.compare(block, key.publicKey.modulus) < 0 else { continue }
            return Data(try key.decryptRaw(block)).base64EncodedString()
        }
        throw .outOfRange("no block below the modulus in 64 draws")
    }
}

/// IPv4 addresses as `ipPort` carries them: one `int` whose most significant byte is the first octet.
public enum IPv4Number {
    /// `a.b.c.d` as TL's `ipv4:int`, or nil when the text is not a dotted quad.
    public static func number(_ text: String) -> Int32? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard part.count <= 3, let octet = UInt8(part) else { return nil }
            value = value << 8 | UInt32(octet)
        }
        return Int32(bitPattern: value)
    }

    /// TL's `ipv4:int` as `a.b.c.d`.
    public static func text(_ number: Int32) -> String {
        let value = UInt32(bitPattern: number)
        return [24, 16, 8, 0].map { String((value >> UInt32($0)) & 0xff) }.joined(separator: ".")
    }
}
