import Buffers
public import CryptoUtils
public import Foundation
public import MTProtoCore

/// What the server keeps in its data folder: its RSA key pair and the auth keys clients created, so that a client
/// that saved its key can reconnect after a restart.
///
/// Layout: `rsa-key` (hex n, e, d on three lines, mode 0600) and `auth-keys/<id in hex>` (256 key bytes, 0600).
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
            let text = [rsaKey.publicKey.modulus, rsaKey.publicKey.exponent, rsaKey.privateExponentBytes]
                .map { MemoryBuffer($0).hexString }.joined(separator: "\n") + "\n"
            try Self.writeSecret(Data(text.utf8), to: keyFile)
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

    static func parseKey(_ text: String, file: String) throws -> RSAPrivateKey {
        let lines = text.split(separator: "\n").map { String($0) }
        guard lines.count >= 3, let n = MemoryBuffer(hexString: lines[0])?.bytes, let e = MemoryBuffer(hexString: lines[1])?.bytes,
            let d = MemoryBuffer(hexString: lines[2])?.bytes
        else {
            throw ServerError.corruptKeyFile(file)
        }
        return RSAPrivateKey(modulus: n, publicExponent: e, privateExponent: d)
    }
}

/// Failures of the server's own setup.
public enum ServerError: Error, CustomStringConvertible, Equatable {
    case corruptKeyFile(String)

    public var description: String {
        switch self {
        case .corruptKeyFile(let path):
            return "the RSA key file \(path) is not three hex lines (n, e, d); move it away to create a new key"
        }
    }
}
