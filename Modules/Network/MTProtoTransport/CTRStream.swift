import CryptoUtils

/// One direction of an obfuscated2 connection's AES-256-CTR keystream (MTProto transports §Transport
/// obfuscation), over `CryptoUtils.AESCTR`.
///
/// A reference to a stateful cipher: handlers that own one are confined to their channel's event loop.
struct CTRStream {
    private let cipher: AESCTR

    /// `key` is 32 bytes and `iv` 16 by construction (slices of the 64-byte header or a SHA-256).
    init(key: [UInt8], iv: [UInt8]) {
        do {
            cipher = try AESCTR(key: key, iv: iv)
        } catch {
            preconditionFailure("obfuscation key material has fixed sizes: \(error)")
        }
    }

    /// Encrypts or decrypts `bytes` in place, continuing the stream.
    func apply(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { apply($0) }
    }

    /// Encrypts or decrypts raw memory in place, continuing the stream.
    func apply(_ raw: UnsafeMutableRawBufferPointer) {
        guard raw.count > 0 else { return }
        cipher.process(UnsafeRawBufferPointer(raw), into: raw)
    }

    /// SHA-256, for keys mixed with an MTProxy secret.
    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        Digest.sha256(bytes)
    }
}
