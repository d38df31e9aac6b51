import Glibc

/// A fresh directory under /tmp, removed with its contents when `remove()` is called.
public struct TemporaryDirectory: Sendable {
    /// The directory's absolute path.
    public let path: String

    /// Creates a directory `/tmp/<prefix>-XXXXXX`.
    public init(prefix: String = "postbox") {
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        // mkdtemp fills in the X's of the template in place and returns it; read it while the buffer is alive.
        let created = template.withUnsafeMutableBufferPointer { buffer in
            mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
        }
        guard let created else { preconditionFailure("mkdtemp failed") }
        path = created
    }

    /// Deletes the directory tree.
    public func remove() {
        _ = system("rm -rf '\(path)'")
    }
}
