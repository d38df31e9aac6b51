/// `tg [--root DIR] [--account NAME] [--timeout S] [--proxy URL] [--json] <command> …`: options every command takes
/// may come before the command; ArgumentParser reads them as the command's own, so they are moved after it (after its
/// subcommand, for the commands that group others: `tg --root R proxy list`).
enum GlobalArguments {
    static let withValue: Set<String> = ["--root", "--account", "--timeout", "--proxy"]
    static let flags: Set<String> = ["--json"]
    /// Commands whose first argument is a subcommand.
    static let groups: Set<String> = ["proxy", "privacy", "contacts", "gifs"]

    static func movedAfterCommand(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if withValue.contains(name) {
                if argument.contains("=") {
                    leading.append(argument)
                    index += 1
                } else {
                    leading += arguments[index..<min(index + 2, arguments.count)]
                    index += 2
                }
            } else if flags.contains(argument) {
                leading.append(argument)
                index += 1
            } else {
                break
            }
        }
        guard !leading.isEmpty, index < arguments.count else { return arguments }
        var command = index + 1
        if groups.contains(arguments[index]), command < arguments.count, !arguments[command].hasPrefix("-") {
            command += 1
        }
        return Array(arguments[index..<command]) + leading + arguments[command...]
    }
}
