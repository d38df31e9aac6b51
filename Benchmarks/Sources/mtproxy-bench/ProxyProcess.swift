import Foundation

/// Our release `mtproxy` started for one measurement, on a free port, in front of DC 2 of a tg-server process.
final class ProxyProcess {
    let process = Process()
    /// The port it listens on (its ready line, `mtproxy: ready PORT`).
    let port: Int

    /// Starts `MTPROXY_BIN` (default: the Benchmarks package's release build) with one secret `key` (32 hex digits:
    /// every key takes plain, `dd` and `ee` clients alike) relaying DC 2 to `dcPort`.
    init(key: String, dcPort: Int) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let binary =
            ProcessInfo.processInfo.environment["MTPROXY_BIN"]
            ?? root.appendingPathComponent(".build/release/mtproxy").path
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--port", "0", "--secret", key, "--dc", "2=127.0.0.1:\(dcPort)"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        var text = ""
        while !text.contains("\n") {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let line = text.split(separator: "\n").first, line.hasPrefix("mtproxy: ready "),
            let port = Int(line.dropFirst("mtproxy: ready ".count))
        else {
            process.terminate()
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "mtproxy did not start: \(text)"])
        }
        self.port = port
        // Keep draining its output (the links after the ready line) so it never blocks on a full pipe.
        pipe.fileHandleForReading.readabilityHandler = { handle in _ = handle.availableData }
    }

    /// CPU time the proxy has used, user and system, in seconds (/proc/<pid>/stat).
    func cpuSeconds() -> Double { processCPUSeconds(process.processIdentifier) }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}

/// CPU time process `pid` has used, user and system, in seconds (/proc/<pid>/stat fields 14 and 15).
func processCPUSeconds(_ pid: Int32) -> Double {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return 0 }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// The machine's load average over 1, 5 and 15 minutes (/proc/loadavg).
func loadAverage() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3)
        .joined(separator: " ") ?? "unknown"
}

/// The proxy's CPU time spent on each workload and route, summed over every run of it (warm-ups included), to
/// print its cost per connect and per call beside the wall times.
final class ProxyCPU: @unchecked Sendable {
    private let pid: Int32
    private let lock = NSLock()
    /// (workload, route) → (CPU seconds, items).
    private var totals: [String: (seconds: Double, items: Int)] = [:]
    private var order: [String] = []

    init(pid: Int32) { self.pid = pid }

    /// The proxy process's CPU time so far.
    func seconds() -> Double { processCPUSeconds(pid) }

    func add(_ seconds: Double, items: Int, to workload: String, _ route: Route) {
        let name = "\(workload) \(route.name)"
        lock.lock()
        defer { lock.unlock() }
        if totals[name] == nil { order.append(name) }
        let total = totals[name] ?? (0, 0)
        totals[name] = (total.seconds + seconds, total.items + items)
    }

    /// Microseconds of proxy CPU per item, per workload and route, in the order first measured.
    func perItem() -> [(name: String, microseconds: Double)] {
        lock.lock()
        defer { lock.unlock() }
        return order.compactMap { name in
            guard let total = totals[name], total.items > 0 else { return nil }
            return (name, total.seconds / Double(total.items) * 1e6)
        }
    }
}
