import PostboxCoding
import SQLite
import ValueBox

/// Why a Postbox operation failed.
public enum PostboxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The key does not open the database, or the file is not a Postbox database.
    case wrongKeyOrNotADatabase(path: String)
    /// The database file is damaged.
    case corrupt(path: String, detail: String)
    /// The database was written by a newer schema than this build knows.
    case newerSchema(found: Int32, supported: Int32)
    /// A stored record could not be decoded.
    case undecodableRecord(table: Int32, detail: String)
    /// A write was attempted inside a read transaction.
    case readOnlyTransaction
    /// A message to update or reference does not exist.
    case messageNotFound(MessageId)
    /// Encryption parameters of the wrong size.
    case invalidEncryptionParameters
    /// A key file could not be read or written, or holds no key; `detail` says why and never holds key bytes.
    case keyFile(path: String, detail: String)
    /// Any other storage failure.
    case storage(String)

    init(_ error: ValueBoxError) {
        switch error {
        case .wrongKeyOrNotADatabase(let path): self = .wrongKeyOrNotADatabase(path: path)
        case .corrupt(let path, let detail): self = .corrupt(path: path, detail: detail)
        case .sqlite(let underlying): self = .storage(underlying.description)
        }
    }

    /// The error as a Postbox error, whatever layer threw it.
    static func from(_ error: any Error) -> PostboxError {
        if let error = error as? PostboxError { return error }
        if let error = error as? ValueBoxError { return PostboxError(error) }
        if let error = error as? PostboxDecodingError {
            return .undecodableRecord(table: -1, detail: error.description)
        }
        return .storage("\(error)")
    }

    public var description: String {
        switch self {
        case .wrongKeyOrNotADatabase(let path): return "wrong key or not a Postbox database: \(path)"
        case .corrupt(let path, let detail): return "corrupt Postbox database: \(path): \(detail)"
        case .newerSchema(let found, let supported):
            return "database schema version \(found) is newer than supported \(supported)"
        case .undecodableRecord(let table, let detail): return "undecodable record in table \(table): \(detail)"
        case .readOnlyTransaction: return "write inside a read transaction"
        case .messageNotFound(let id): return "message \(id) not found"
        case .invalidEncryptionParameters: return "encryption key must be 32 bytes and salt 16 bytes"
        case .keyFile(let path, let detail):
            return detail.hasPrefix(path) ? "key file \(detail)" : "key file \(path): \(detail)"
        case .storage(let detail): return "storage error: \(detail)"
        }
    }
}
