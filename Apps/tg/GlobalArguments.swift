/// `tg [--root DIR] [--account NAME] [--timeout S] [--json] <command> …`: options every command takes may come before
/// the command; ArgumentParser reads them as the command's own, so they are moved after it.
enum GlobalArguments {
    static let withValue: Set<String> = ["--root", "--account", "--timeout"]
    static let flags: Set<String> = ["--json"]

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
        return [arguments[index]] + leading + arguments[(index + 1)...]
    }
}
