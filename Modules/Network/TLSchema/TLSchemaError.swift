/// A malformed schema: what was wrong and where (line and column, both from 1).
public struct TLSchemaError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Where the problem was found.
    public var location: TLSourceLocation
    /// What was expected or found.
    public var message: String

    public init(location: TLSourceLocation, message: String) {
        self.location = location
        self.message = message
    }

    /// `line:column: message`, the form compilers print.
    public var description: String { "\(location.line):\(location.column): \(message)" }
}
