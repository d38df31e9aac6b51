import BoundaryCheck
import Foundation

/// `boundary-check [--package-path P] [--verbose]`: prints each boundary violation as `file:line: error: …` and exits
/// 1 when there is any.
@main
enum BoundaryCheckCommand {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var packagePath = FileManager.default.currentDirectoryPath
        var verbose = false
        while let argument = arguments.first {
            arguments.removeFirst()
            switch argument {
            case "--package-path":
                guard let path = arguments.first else { usage("--package-path needs a folder") }
                packagePath = path
                arguments.removeFirst()
            case "--verbose", "-v":
                verbose = true
            case "--help", "-h":
                print(help)
                return
            default:
                usage("unknown argument '\(argument)'")
            }
        }
        let report = BoundaryCheck(packagePath: packagePath).run()
        for violation in report.violations { printError(violation.description) }
        if verbose || !report.violations.isEmpty {
            print(
                "boundary-check: \(report.targetsChecked) targets, \(report.filesChecked) files, "
                    + "\(report.importsChecked) imports; \(report.violations.count) violation(s)")
        }
        exit(report.violations.isEmpty ? 0 : 1)
    }

    static let help = """
        USAGE: boundary-check [--package-path <folder>] [--verbose]

        Checks Telegraph's module boundaries:
          (a) every import in a target names a direct dependency it declares, or a toolchain module;
          (b) apps stay inside their subsets, and the layering holds (Package.swift refuses to evaluate otherwise);
          (c) each C module is imported only by its one Swift wrapper;
          (d) every declared direct dependency (deps, testDeps, an app's links) is imported by one of its files;
          (e) no non-test source uses a construct that makes release builds depend on the checkout's path or the
              build time (withoutActuallyEscaping, #filePath, __FILE__, __DATE__, __TIME__, __TIMESTAMP__).
        Prints each violation as file:line: error: message (rule: …) and exits 1 if there is any.
        """

    static func usage(_ message: String) -> Never {
        printError("boundary-check: \(message)\n\(help)")
        exit(2)
    }

    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
