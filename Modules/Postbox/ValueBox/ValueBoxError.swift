public import SQLite

/// Why a value box could not be opened or used.
public enum ValueBoxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The key does not open the file, or the file is not an SQLCipher database.
    case wrongKeyOrNotADatabase(path: String)
    /// SQLite found the file damaged.
    case corrupt(path: String, detail: String)
    /// Any other SQLite failure.
    case sqlite(SQLiteError)

    init(_ error: SQLiteError, path: String) {
        if error.isNotADatabase {
            self = .wrongKeyOrNotADatabase(path: path)
        } else if error.primaryCode == 11 {
            self = .corrupt(path: path, detail: error.message)
        } else {
            self = .sqlite(error)
        }
    }

    public var description: String {
        switch self {
        case .wrongKeyOrNotADatabase(let path): return "wrong key or not a Postbox database: \(path)"
        case .corrupt(let path, let detail): return "corrupt database: \(path): \(detail)"
        case .sqlite(let error): return error.description
        }
    }
}
