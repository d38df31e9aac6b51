import Glibc

/// Why a secret file could not be read or written. Descriptions name the path and what to do; they never hold the
/// secret itself.
public enum SecretFileError: Error, Equatable, CustomStringConvertible {
    case missing(String)
    case exists(String)
    case symbolicLink(String)
    case notADirectory(String)
    case notARegularFile(String)
    case tooLarge(String, size: Int, limit: Int)
    case system(operation: String, path: String, code: Int32)

    public var description: String {
        switch self {
        case .missing(let path): return "\(path): no such file"
        case .exists(let path): return "\(path): already exists; a secret is never overwritten in place"
        case .symbolicLink(let path): return "\(path): is a symbolic link; secrets are never read through links"
        case .notADirectory(let path): return "\(path): is not a folder (a link or a file is in its place)"
        case .notARegularFile(let path): return "\(path): is not a regular file"
        case .tooLarge(let path, let size, let limit):
            return "\(path): \(size) bytes, more than the \(limit) a secret file may hold; is it the right file?"
        case .system(let operation, let path, let code):
            return "\(path): \(operation) failed: \(String(cString: strerror(code)))"
        }
    }
}
