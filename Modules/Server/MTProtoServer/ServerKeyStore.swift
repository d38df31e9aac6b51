import Buffers
public import CryptoUtils
public import Foundation
public import MTProtoCore
import SecretFiles

/// What the server keeps in its data folder: its RSA key pair and the auth keys clients created, so that a client
/// that saved its key can reconnect after a restart.
///
/// Layout (folders 0700, files 0600, written through `SecretFile`: created `O_EXCL | O_NOFOLLOW`, synced, renamed):
/// - `rsa-key`: hex n, e, d, then the CRT numbers p, q, dP, dQ, qInv, eight lines (a file of the first format,
///   n, e, d only, still loads; its key then decrypts without CRT);
/// - `auth-keys/<id in hex>`: 256 key bytes of a key that has been used;
/// - `auth-keys/unconfirmed/<id in hex>`: a new key until its first accepted encrypted message moves it up. One that
///   waits longer than `unconfirmedLifetime` is deleted, and at most `maximumUnconfirmedKeys` wait at once (the
///   oldest goes first), so exchanges that are never used cannot fill the disk.
///
/// Temporary keys (`p_q_inner_data_temp*`) live in memory only, with their expiry, at most `maximumTemporaryKeys`
/// of them: a client whose temporary key was forgotten gets −404 and makes a new one, as with Telegram's servers.
/// An auth_key_id already in use is never given to a second key (`isKeyIdTaken`, and `add` refuses it).
///
/// `@unchecked Sendable`: the tables are guarded by `lock`; files are written whole and renamed into place.
public final class ServerKeyStore: @unchecked Sendable {
    public let directory: URL
    public let rsaKey: RSAPrivateKey
    public let unconfirmedLifetime: Double
    public let maximumTemporaryKeys: Int
    public let maximumUnconfirmedKeys: Int
    /// Key files that could not be loaded at start (wrong size, unreadable), for the log.
    public let skippedFiles: [String]
    let lock = NSLock()
    private var authKeys: [Int64: AuthKey] = [:]
    /// Keys not yet used, with the time they were created.
    private var unconfirmed: [Int64: Double] = [:]
    var temporary: [Int64: (key: AuthKey, expiresAt: Double)] = [:]
    /// `auth.bindTempAuthKey`: temporary key id → the permanent key id it stands for (`ServerKeyStore+Binding`).
    var bindings: [Int64: Int64] = [:]
    /// The other way: permanent key id → the one temporary key bound to it.
    var boundTemporaryKeys: [Int64: Int64] = [:]

    /// A fresh 2048-bit RSA key: what a data folder without one gets unless told otherwise.
    public static let freshRSAKey: @Sendable () throws -> RSAPrivateKey = { try RSAPrivateKey.generate(bits: 2048) }

    /// Opens (creating if needed) the store at `directory`; a folder without an RSA key gets `newRSAKey()`, written
    /// to its key file.
    public init(
        directory: URL, unconfirmedLifetime: Double = 600, maximumTemporaryKeys: Int = 100_000,
        maximumUnconfirmedKeys: Int = 10_000, newRSAKey: () throws -> RSAPrivateKey = ServerKeyStore.freshRSAKey
    ) throws {
        self.directory = directory
        self.unconfirmedLifetime = unconfirmedLifetime
        self.maximumTemporaryKeys = maximumTemporaryKeys
        self.maximumUnconfirmedKeys = maximumUnconfirmedKeys
        try SecretFile.createDirectory(directory.path)
        try SecretFile.createDirectory(Self.confirmedFolder(directory).path)
        try SecretFile.createDirectory(Self.unconfirmedFolder(directory).path)
        let keyFile = directory.appendingPathComponent("rsa-key")
        rsaKey = try Self.loadOrCreateRSAKey(at: keyFile, newRSAKey: newRSAKey)
        var skipped: [String] = []
        for (folder, isConfirmed) in [
            (Self.confirmedFolder(directory), true), (Self.unconfirmedFolder(directory), false),
        ] {
            for (url, key) in Self.loadKeys(in: folder, skipped: &skipped) {
                authKeys[key.id] = key
                if !isConfirmed {
                    let modified =
                        (try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate]) as? Date
                    unconfirmed[key.id] = modified?.timeIntervalSince1970 ?? 0
                }
            }
        }
        skippedFiles = skipped
    }

    static func confirmedFolder(_ directory: URL) -> URL { directory.appendingPathComponent("auth-keys") }
    static func unconfirmedFolder(_ directory: URL) -> URL {
        directory.appendingPathComponent("auth-keys").appendingPathComponent("unconfirmed")
    }

    private func file(for id: Int64, confirmed: Bool) -> URL {
        let folder = confirmed ? Self.confirmedFolder(directory) : Self.unconfirmedFolder(directory)
        return folder.appendingPathComponent(String(UInt64(bitPattern: id), radix: 16))
    }

    /// The public key as clients embed it (PKCS#1 PEM, `BEGIN RSA PUBLIC KEY`) and its fingerprint in hex.
    public func publicKeyDescription() throws -> String {
        try rsaKey.publicKeyPEM() + "fingerprint: \(String(rsaKey.publicKey.fingerprint, radix: 16))\n"
    }

    /// The key a client's packet names, if this server created it and, for a temporary key, it has not expired at
    /// `now`.
    public func authKey(id: Int64, now: Double = Date().timeIntervalSince1970) -> AuthKey? {
        lock.lock()
        defer { lock.unlock() }
        if let key = authKeys[id] { return key }
        guard let entry = temporary[id], entry.expiresAt > now else { return nil }
        return entry.key
    }

    /// The permanent (or unused) key `id`; call with `lock` held.
    func permanentKey(id: Int64) -> AuthKey? { authKeys[id] }

    /// Whether `id` already names a key (permanent, unused or temporary): an exchange must not produce it again.
    public func isKeyIdTaken(_ id: Int64) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return authKeys[id] != nil || temporary[id] != nil
    }

    /// Remembers a key an exchange just created at `now`: a temporary one in memory until it expires, a permanent
    /// one in memory and in `auth-keys/unconfirmed/` until `confirm`. Throws `ServerError.authKeyIdTaken` when its
    /// id is in use; nothing is overwritten.
    public func add(_ result: AuthKeyExchangeResult, now: Double = Date().timeIntervalSince1970) throws {
        let key = result.authKey
        lock.lock()
        if authKeys[key.id] != nil || temporary[key.id] != nil {
            lock.unlock()
            throw ServerError.authKeyIdTaken(key.id)
        }
        if let expiresAt = result.expiresAt {
            temporary[key.id] = (key, expiresAt)
            if temporary.count > maximumTemporaryKeys,
                let soonest = temporary.min(by: { $0.value.expiresAt < $1.value.expiresAt })?.key
            {
                temporary[soonest] = nil
                unbind(temporaryKeyId: soonest)
            }
            lock.unlock()
            return
        }
        authKeys[key.id] = key
        unconfirmed[key.id] = now
        var evicted: Int64?
        if unconfirmed.count > maximumUnconfirmedKeys, let oldest = unconfirmed.min(by: { $0.value < $1.value })?.key {
            unconfirmed[oldest] = nil
            authKeys[oldest] = nil
            evicted = oldest
        }
        lock.unlock()
        if let evicted { unlink(file(for: evicted, confirmed: false).path) }
        do {
            try SecretFile.create(key.bytes, at: file(for: key.id, confirmed: false).path)
        } catch {
            lock.lock()
            authKeys[key.id] = nil
            unconfirmed[key.id] = nil
            lock.unlock()
            throw error
        }
    }

    /// Marks a key as used (its first encrypted message was accepted): it moves to `auth-keys/` and is no longer
    /// subject to `unconfirmedLifetime`. Cheap when the key is already confirmed.
    public func confirm(_ id: Int64) {
        lock.lock()
        let waiting = unconfirmed.removeValue(forKey: id) != nil
        lock.unlock()
        guard waiting else { return }
        rename(file(for: id, confirmed: false).path, file(for: id, confirmed: true).path)
    }

    /// Forgets expired temporary keys and deletes keys left unused for `unconfirmedLifetime` (as of `now`). Returns
    /// how many of each went.
    @discardableResult
    public func sweep(now: Double = Date().timeIntervalSince1970) -> (temporary: Int, unconfirmed: Int) {
        lock.lock()
        let expired = temporary.filter { $0.value.expiresAt <= now }.map(\.key)
        for id in expired {
            temporary[id] = nil
            unbind(temporaryKeyId: id)
        }
        let stale = unconfirmed.filter { now - $0.value >= unconfirmedLifetime }.map(\.key)
        for id in stale {
            unconfirmed[id] = nil
            authKeys[id] = nil
        }
        lock.unlock()
        for id in stale { unlink(file(for: id, confirmed: false).path) }
        return (expired.count, stale.count)
    }

    /// How many permanent auth keys the server knows (used or not).
    public var authKeyCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return authKeys.count
    }

    /// How many permanent keys wait for their first use.
    public var unconfirmedKeyCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return unconfirmed.count
    }

    /// How many temporary keys are held (expired ones until the next sweep).
    public var temporaryKeyCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return temporary.count
    }

    // MARK: - Files

    private static func loadKeys(in folder: URL, skipped: inout [String]) -> [(URL, AuthKey)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var keys: [(URL, AuthKey)] = []
        for name in names.sorted() where !name.contains(".tmp-") {
            let url = folder.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            guard let bytes = try? SecretFile.read(url.path, maximumSize: 256), let key = AuthKey(bytes: bytes) else {
                skipped.append(url.path)
                continue
            }
            keys.append((url, key))
        }
        return keys
    }

    private static func loadOrCreateRSAKey(at url: URL, newRSAKey: () throws -> RSAPrivateKey) throws -> RSAPrivateKey {
        do {
            let bytes = try SecretFile.read(url.path, maximumSize: 64 * 1024)
            return try parseKey(String(decoding: bytes, as: UTF8.self), file: url.path)
        } catch SecretFileError.missing {
            let key = try newRSAKey()
            do {
                try SecretFile.create(Array(serializeKey(key).utf8), at: url.path)
                return key
            } catch SecretFileError.exists {
                // Another server process created it first: use that one.
                return try parseKey(
                    String(decoding: try SecretFile.read(url.path, maximumSize: 64 * 1024), as: UTF8.self),
                    file: url.path)
            }
        }
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

/// Failures of the server's own setup and bookkeeping.
public enum ServerError: Error, CustomStringConvertible, Equatable {
    case corruptKeyFile(String)
    /// An exchange produced an auth_key_id that is already in use (it should have asked for a retry).
    case authKeyIdTaken(Int64)

    public var description: String {
        switch self {
        case .corruptKeyFile(let path):
            return "the RSA key file \(path) is not three hex lines (n, e, d) or eight (n, e, d, p, q, dP, dQ, qInv), "
                + "or its CRT numbers do not match; move it away to create a new key"
        case .authKeyIdTaken(let id): return "auth_key_id \(id) is already in use; the key was not stored"
        }
    }
}
