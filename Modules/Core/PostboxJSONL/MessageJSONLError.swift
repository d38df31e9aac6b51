/// A line of a JSON-lines file that is not a message that can be stored: which line (1-based, counting blank
/// lines) and why. Nothing was written when it is thrown by `MessageJSONL.parse` or `importMessages`.
public struct MessageJSONLError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The 1-based line number in the file.
    public let line: Int
    /// What is wrong with it.
    public let reason: String

    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }

    public var description: String { "line \(line): \(reason); nothing was imported" }
}
