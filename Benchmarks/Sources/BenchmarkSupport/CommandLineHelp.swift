import Foundation

/// The command line every benchmark checks before it starts: `--help` (or `-h`) prints `usage` and exits 0, and an
/// argument the benchmark does not take exits 2 naming it, so a typo never starts a run of several minutes.
///
/// `accepted` lists the words and flags the benchmark reads (`tgs`, `--client-cost`); a flag that takes a value
/// is listed in `takingValue`, and a value after it (an argument not starting with `--`) is passed over.
public func checkCommandLine(
    _ usage: String, accepted: Set<String> = [], takingValue: Set<String> = [],
    arguments: [String] = Array(CommandLine.arguments.dropFirst())
) {
    var index = 0
    while index < arguments.count {
        let argument = arguments[index]
        if argument == "--help" || argument == "-h" {
            print(usage)
            exit(0)
        }
        if takingValue.contains(argument) {
            // The value, if one follows (a flag's value may be optional: `count(after:default:)`).
            index += index + 1 < arguments.count && !arguments[index + 1].hasPrefix("--") ? 2 : 1
            continue
        }
        guard accepted.contains(argument) else {
            let name = URL(fileURLWithPath: CommandLine.arguments[0]).lastPathComponent
            FileHandle.standardError.write(Data("\(name): unknown argument '\(argument)'; see \(name) --help\n".utf8))
            exit(2)
        }
        index += 1
    }
}

/// The count given after `flag` (`--batch-only 3000`), or `default` when the flag stands last or before another flag.
/// A value that is not a positive integer exits 2 naming it.
public func count(after flag: String, default defaultValue: Int, arguments: [String] = CommandLine.arguments) -> Int {
    guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count, !arguments[index + 1].hasPrefix("--")
    else { return defaultValue }
    let value = arguments[index + 1]
    guard let count = Int(value), count > 0 else {
        let name = URL(fileURLWithPath: arguments[0]).lastPathComponent
        FileHandle.standardError.write(Data("\(name): \(flag) takes a positive count, not '\(value)'\n".utf8))
        exit(2)
    }
    return count
}
