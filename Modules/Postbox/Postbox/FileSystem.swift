import Glibc

/// The few file-system calls Postbox needs, without Foundation.
enum FileSystem {
    struct Failure: Error, CustomStringConvertible {
        let path: String
        let code: Int32
        var description: String { "\(path): \(String(cString: strerror(code)))" }
    }

    /// Creates `path` and its missing parents (mode 0700).
    static func createDirectory(_ path: String) throws {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o700) != 0 && errno != EEXIST { throw Failure(path: current, code: errno) }
        }
    }

    /// Whether something exists at `path`.
    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }
}
