import Foundation

/// `--proxy-own-core`: the proxy on a core of its own, as it is deployed (on its own host, between the client and the
/// DC), with our client and tg-server sharing the other core on both sides of every comparison. Without it all three
/// processes share both cores, so the proxy's CPU is taken from the client's and the server's.
///
/// The placement uses `taskset` (util-linux): this process runs itself again under `taskset -c 0` (so every thread it
/// makes, and tg-server, which it starts, stay on CPU 0), and starts `mtproxy` under `taskset -c 1`.
enum CorePlacement {
    static let flag = "--proxy-own-core"
    /// Set in the environment of the process run again on CPU 0, so it does not run itself again.
    static let confinedVariable = "MTPROXY_BENCH_CONFINED"

    /// Whether the command line asks for the placement.
    static var isRequested: Bool { CommandLine.arguments.contains(flag) }

    /// The CPU the proxy runs on, when the placement is asked for.
    static var proxyCore: Int? { isRequested ? 1 : nil }

    /// `taskset`'s path, from `PATH`.
    static func taskset() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/taskset"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw CocoaError(
            .fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "\(flag) needs taskset (util-linux) on PATH"])
    }

    /// With the placement asked for and this process not yet confined, replaces it with itself under
    /// `taskset -c 0`; returns only when there is nothing to do (or the machine has fewer than two cores, which it
    /// refuses).
    static func confineToFirstCore() throws {
        guard isRequested, ProcessInfo.processInfo.environment[confinedVariable] == nil else { return }
        guard ProcessInfo.processInfo.activeProcessorCount >= 2 else {
            throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "\(flag) needs two cores"])
        }
        let tool = try taskset()
        setenv(confinedVariable, "1", 1)
        let arguments = [tool, "-c", "0", CommandLine.arguments[0]] + CommandLine.arguments.dropFirst()
        let cStrings = arguments.map { strdup($0) } + [nil]
        execv(tool, cStrings)
        throw CocoaError(
            .executableLoad, userInfo: [NSLocalizedDescriptionKey: "could not run \(tool): errno \(errno)"])
    }

    /// The line the benchmark prints about where its processes ran.
    static var description: String {
        isRequested
            ? "placement: our client and tg-server on CPU 0, mtproxy on CPU 1 (\(flag)); the direct side uses CPU 0 alone"
            : "placement: the client, tg-server and mtproxy share every core"
    }
}
