/// Why a client command could not do its job; each case maps to one documented exit status of `tg`.
public enum ClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Wrong or unusable input: a bad address, an unknown account name, a file that cannot be read.
    case badInput(String)
    /// No account is signed in (or the named one has not finished signing in).
    case notLoggedIn(String)
    /// The server could not be reached in time.
    case unreachable(String)
    /// A peer or message that does not exist.
    case notFound(String)
    /// The server refused (its error text).
    case refused(String)
    /// The account's files could not be read or written.
    case storage(String)

    public var description: String {
        switch self {
        case .badInput(let text), .notLoggedIn(let text), .unreachable(let text), .notFound(let text),
            .refused(let text),
            .storage(let text):
            return text
        }
    }
}
