/// The exit statuses every Telegraph tool uses, each with its meaning; `--help` lists them (`helpText`).
public struct ToolExitCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    /// A status from its number.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// 0: everything asked for was done.
    public static let success = ToolExitCode(rawValue: 0)
    /// 1: the work failed for a reason other than the input (an output could not be written, an internal error),
    /// or a batch produced nothing.
    public static let failure = ToolExitCode(rawValue: 1)
    /// 2: wrong arguments, or an input that cannot be used: unreadable, corrupt, over a limit, a wrong key.
    public static let badInput = ToolExitCode(rawValue: 2)
    /// 3: a batch finished but skipped some inputs (each one is reported).
    public static let partial = ToolExitCode(rawValue: 3)

    /// Every documented status, in order.
    public static let documented: [ToolExitCode] = [.success, .failure, .badInput, .partial]

    /// What the status means, in a few words.
    public var meaning: String {
        switch self {
        case .success: return "success"
        case .failure: return "failure (an output could not be written, an internal error, a batch produced nothing)"
        case .badInput: return "usage error or unusable input (unreadable, corrupt, over a limit, wrong key)"
        case .partial: return "partial: a batch skipped some inputs (each is reported)"
        default: return "status \(rawValue)"
        }
    }

    public var description: String { "\(rawValue)" }

    /// The `EXIT CODES` section of a tool's help (ArgumentParser's `CommandConfiguration.discussion`).
    public static var helpText: String {
        "EXIT CODES:\n" + documented.map { "  \($0.rawValue)  \($0.meaning)" }.joined(separator: "\n")
    }
}
