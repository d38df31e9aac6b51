import Glibc

/// A fresh directory under /tmp, removed with its contents when `remove()` is called.
public struct TemporaryDirectory: Sendable {
    /// The directory's absolute path.
    public let path: String

    /// Creates a directory `/tmp/<prefix>-XXXXXX`.
    public init(prefix: String = "postbox") {
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        let result = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(result != nil, "mkdtemp failed")
        path = String(cString: template)
    }

    /// Deletes the directory tree.
    public func remove() {
        _ = system("rm -rf '\(path)'")
    }
}
