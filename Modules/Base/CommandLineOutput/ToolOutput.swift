#if canImport(Glibc)
    import Glibc
#endif

/// Writing to the tool's standard error, unbuffered (progress lines and errors must show at once, in order).
public enum ToolOutput {
    /// Writes `text` and a terminator (a newline unless told otherwise) to standard error.
    public static func standardError(_ text: String, terminator: String = "\n") {
        let bytes = Array((text + terminator).utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }

    /// Whether standard error is a terminal (where progress is redrawn in place).
    public static var standardErrorIsTerminal: Bool { isatty(2) != 0 }
}
