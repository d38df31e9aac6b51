import Foundation

/// The command line every benchmark checks before it starts: `--help` (or `-h`) prints `usage` and exits 0, and an
/// argument the benchmark does not take exits 2 naming it, so a typo never starts a run of several minutes.
///
/// `accepted` lists the words and flags the benchmark reads (`tgs`, `--client-cost`); a flag that takes a value
/// is listed in `takingValue` and its next argument is passed over.
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
            index += 2
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
