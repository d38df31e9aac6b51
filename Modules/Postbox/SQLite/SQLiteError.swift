/// A failed SQLite call: SQLite's result code and message, and what the caller was doing.
public struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// SQLite's primary or extended result code (`SQLITE_CORRUPT` = 11, `SQLITE_NOTADB` = 26, …).
    public let code: Int32
    /// `sqlite3_errmsg` at the time of the failure.
    public let message: String
    /// The statement or operation that failed.
    public let context: String

    /// An error with the code, message and context.
    public init(code: Int32, message: String, context: String) {
        self.code = code
        self.message = message
        self.context = context
    }

    /// The primary result code (the low byte of an extended code).
    public var primaryCode: Int32 { code & 0xff }

    /// Whether SQLite says the file is not a database, which for SQLCipher also means a wrong key.
    public var isNotADatabase: Bool { primaryCode == 26 }

    /// Whether SQLite found the file damaged (`SQLITE_CORRUPT`) or the file unreadable as a database.
    public var isCorruptOrNotADatabase: Bool { primaryCode == 11 || primaryCode == 26 }

    /// Whether another connection holds a lock that the busy timeout did not outwait.
    public var isBusy: Bool { primaryCode == 5 || primaryCode == 6 }

    public var description: String { "SQLite error \(code): \(message) (\(context))" }
}
