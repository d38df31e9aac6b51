import Buffers
public import CryptoUtils
public import Foundation
public import MTProtoCore

/// What the server keeps in its data folder: its RSA key pair and the auth keys clients created, so that a client
/// that saved its key can reconnect after a restart.
///
/// Layout: `rsa-key` (hex n, e, d, then the CRT numbers p, q, dP, dQ, qInv: eight lines, mode 0600) and
/// `auth-keys/<id in hex>` (256 key bytes, 0600). A key file of the first format (n, e, d only) still loads; its
/// key then decrypts without CRT.
/// `@unchecked Sendable`: the in-memory table is guarded by `lock`; files are written whole and renamed into place.
public final class ServerKeyStore: @unchecked Sendable {
    public let directory: URL
    public let rsaKey: RSAPrivateKey
    private let lock = NSLock()
    private var authKeys: [Int64: AuthKey] = [:]

    /// Opens (creating if needed) the store at `directory`, generating the RSA key on first use.
    public init(directory: URL) throws {
        self.directory = directory
        let fm = FileManager.default
        try fm.createDirectory(at: directory.appendingPathComponent("auth-keys"), withIntermediateDirectories: true)
        let keyFile = directory.appendingPathComponent("rsa-key")
        if let text = try? String(contentsOf: keyFile, encoding: .utf8) {
            rsaKey = try Self.parseKey(text, file: keyFile.path)
        } else {
            rsaKey = try RSAPrivateKey.generate(bits: 2048)
            try Self.writeSecret(Data(Self.serializeKey(rsaKey).utf8), to: keyFile)
        }
        for name in (try? fm.contentsOfDirectory(atPath: directory.appendingPathComponent("auth-keys").path)) ?? [] {
            let url = directory.appendingPathComponent("auth-keys").appendingPathComponent(name)
            if let data = try? Data(contentsOf: url), let key = AuthKey(bytes: Array(data)) { authKeys[key.id] = key }
        }
    }

    /// The public key as clients embed it (PKCS#1 PEM, `BEGIN RSA PUBLIC KEY`) and its fingerprint in hex.
    public func publicKeyDescription() throws -> String {
        try rsaKey.publicKeyPEM() + "fingerprint: \(String(rsaKey.publicKey.fingerprint, radix: 16))\n"
    }

    /// The key a client's packet names, if this server created it.
    public func authKey(id: Int64) -> AuthKey? {
        lock.lock()
        defer { lock.unlock() }
        return authKeys[id]
    }

    /// Remembers a new key, in memory and on disk.
    public func add(_ key: AuthKey) throws {
        lock.lock()
        authKeys[key.id] = key
        lock.unlock()
        let name = String(UInt64(bitPattern: key.id), radix: 16)
        try Self.writeSecret(Data(key.bytes), to: directory.appendingPathComponent("auth-keys").appendingPathComponent(name))
    }

    /// How many auth keys the server knows.
    public var authKeyCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return authKeys.count
    }

    static func writeSecret(_ data: Data, to url: URL) throws {
        let temporary = url.appendingPathExtension("tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]),
            rename(temporary.path, url.path) == 0
        else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
    }

    /// The key file's text: n, e, d and, when the key has them, p, q, dP, dQ, qInv, one hex number per line.
    static func serializeKey(_ key: RSAPrivateKey) -> String {
        var numbers = [key.publicKey.modulus, key.publicKey.exponent, key.privateExponentBytes]
        if let crt = key.crtParameters { numbers += [crt.p, crt.q, crt.dP, crt.dQ, crt.qInv] }
        return numbers.map { MemoryBuffer($0).hexString }.joined(separator: "\n") + "\n"
    }

    /// Reads a key file of either format: three lines (n, e, d) or eight (with the CRT numbers). CRT numbers are
    /// checked with one decryption of a random value (which re-encrypts its result), so a damaged file is refused
    /// at start rather than failing every key exchange.
    static func parseKey(_ text: String, file: String) throws -> RSAPrivateKey {
        let lines = text.split(separator: "\n").map { String($0) }
        let numbers = lines.map { MemoryBuffer(hexString: $0)?.bytes }
        guard lines.count == 3 || lines.count == 8, numbers.allSatisfy({ $0 != nil && !$0!.isEmpty }) else {
            throw ServerError.corruptKeyFile(file)
        }
        let values = numbers.map { $0! }
        guard values.count == 8 else {
            return RSAPrivateKey(modulus: values[0], publicExponent: values[1], privateExponent: values[2])
        }
        let key = RSAPrivateKey(
            modulus: values[0], publicExponent: values[1], privateExponent: values[2],
            crt: .init(p: values[3], q: values[4], dP: values[5], dQ: values[6], qInv: values[7]))
        var probe = SecureRandom.bytes(values[0].count)
        probe[0] = 0
        guard (try? key.decryptRaw(probe)) != nil else { throw ServerError.corruptKeyFile(file) }
        return key
    }
}

/// Failures of the server's own setup.
public enum ServerError: Error, CustomStringConvertible, Equatable {
    case corruptKeyFile(String)

    public var description: String {
        switch self {
        case .corruptKeyFile(let path):
            return "the RSA key file \(path) is not three hex lines (n, e, d) or eight (n, e, d, p, q, dP, dQ, qInv), "
                + "or its CRT numbers do not match; move it away to create a new key"
        }
    }
}
