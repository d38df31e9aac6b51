import Buffers
import CryptoUtils
public import SQLite
import SecretFiles

/// The key file of an encrypted server database: 96 hex digits (the 32-byte key, then the 16-byte salt) on one
/// line, owner-only (0600). A file that does not exist yet is created with a fresh random key.
public enum DatabaseKeyFile {
    /// Why a key file cannot be used.
    public enum Failure: Error, CustomStringConvertible, Sendable {
        case unreadable(path: String, reason: String)
        case malformed(path: String)
        case tooOpen(path: String, mode: UInt32)

        public var description: String {
            switch self {
            case .unreadable(let path, let reason): return "cannot read the database key file \(path): \(reason)"
            case .malformed(let path):
                return "\(path) is not a database key file: expected 96 hex digits (32 key bytes, then 16 salt bytes)"
            case .tooOpen(let path, let mode):
                return "\(path) is readable by others (mode \(String(mode, radix: 8))): chmod 600 it"
            }
        }
    }

    /// Loads the key at `path`, creating the file with a new key if there is none; returns the key and whether it
    /// was created.
    public static func loadOrCreate(_ path: String) throws -> (key: Database.CipherKey, created: Bool) {
        guard let mode = SecretFile.mode(of: path) else {
            let material = SecureRandom.bytes(48)
            guard let key = Database.CipherKey(key: Array(material[0..<32]), salt: Array(material[32...])) else {
                throw Failure.malformed(path: path)
            }
            do {
                try SecretFile.create(Array(MemoryBuffer(material).hexString.utf8) + [0x0a], at: path)
            } catch {
                throw Failure.unreadable(path: path, reason: "\(error)")
            }
            return (key, true)
        }
        guard mode & 0o077 == 0 else { throw Failure.tooOpen(path: path, mode: mode) }
        let bytes: [UInt8]
        do {
            bytes = try SecretFile.read(path, maximumSize: 4096)
        } catch {
            throw Failure.unreadable(path: path, reason: "\(error)")
        }
        let digits = bytes.filter { !($0 == 0x0a || $0 == 0x0d || $0 == 0x20) }
        guard digits.count == 96,
            let material = MemoryBuffer(hexString: String(decoding: digits, as: UTF8.self))?.bytes,
            let key = Database.CipherKey(key: Array(material[0..<32]), salt: Array(material[32...]))
        else { throw Failure.malformed(path: path) }
        return (key, false)
    }
}
