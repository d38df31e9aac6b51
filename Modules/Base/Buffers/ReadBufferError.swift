/// Why a read from a `ReadBuffer` failed. Reads never trap: every failure is one of these.
public enum ReadBufferError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Fewer bytes remain than the read needs.
    case outOfBounds(offset: Int, requested: Int, available: Int)
    /// A length field claims more than the caller's limit or than the data can hold.
    case lengthTooLarge(offset: Int, claimed: Int, limit: Int)
    /// A negative count or offset was asked for.
    case invalidArgument(String)

    public var description: String {
        switch self {
        case let .outOfBounds(offset, requested, available):
            return "read of \(requested) bytes at offset \(offset) runs past the end (\(available) bytes left)"
        case let .lengthTooLarge(offset, claimed, limit):
            return "length \(claimed) at offset \(offset) exceeds the limit of \(limit) bytes"
        case let .invalidArgument(what):
            return "invalid argument: \(what)"
        }
    }
}
