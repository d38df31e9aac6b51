import Foundation

/// Our release `mtproxy` started for one measurement, on a free port, in front of DC 2 of a tg-server process.
final class ProxyProcess {
    let process = Process()
    /// The port it listens on (its ready line, `mtproxy: ready PORT`).
    let port: Int

    /// Starts `MTPROXY_BIN` (default: the Benchmarks package's release build) with one secret `key` (32 hex digits:
    /// every key takes plain, `dd` and `ee` clients alike) relaying DC 2 to `dcPort`.
    /// With `core`, it runs there alone (`taskset -c core`, `CorePlacement`).
    init(key: String, dcPort: Int, core: Int? = nil) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let binary =
            ProcessInfo.processInfo.environment["MTPROXY_BIN"]
            ?? root.appendingPathComponent(".build/release/mtproxy").path
        let arguments = ["--port", "0", "--secret", key, "--dc", "2=127.0.0.1:\(dcPort)"]
        if let core {
            // taskset runs the proxy in its own place, so the process (its pid, its pipes) is the proxy's.
            process.executableURL = URL(fileURLWithPath: try CorePlacement.taskset())
            process.arguments = ["-c", "\(core)", binary] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
        }
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

/// CPU time process `pid` has used, user and system, in seconds: its CPU-time clock (nanoseconds), or
/// /proc/<pid>/stat's fields 14 and 15 (clock ticks, 10 ms) where that clock cannot be read.
func processCPUSeconds(_ pid: Int32) -> Double {
    var clock = clockid_t()
    var time = timespec()
    if clock_getcpuclockid(pid, &clock) == 0, clock_gettime(clock, &time) == 0 {
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
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

/// The CPU time of the three processes — our client (this one), tg-server and the proxy — spent on each workload and
/// route, summed over every run of it (warm-ups included): what each route costs per connect and per call, beside
/// the wall times. On a shared 2-core machine a CPU-bound workload's throughput falls with the total.
final class CPUTally: @unchecked Sendable {
    /// CPU seconds of the client, tg-server and the proxy.
    struct Sample {
        var client = 0.0
        var server = 0.0
        var proxy = 0.0
    }

    private let serverPid: Int32
    private let proxyPid: Int32
    private let lock = NSLock()
    /// "workload route" → (CPU seconds, items).
    private var totals: [String: (cpu: Sample, items: Int)] = [:]
    private var order: [String] = []

    init(serverPid: Int32, proxyPid: Int32) {
        self.serverPid = serverPid
        self.proxyPid = proxyPid
    }

    /// The three processes' CPU time so far.
    func sample() -> Sample {
        Sample(
            client: processCPUSeconds(getpid()), server: processCPUSeconds(serverPid),
            proxy: processCPUSeconds(proxyPid))
    }

    /// Adds what was spent since `start` on `items` of `workload` over `route`.
    func add(since start: Sample, items: Int, to workload: String, _ route: Route) {
        let end = sample()
        let name = "\(workload) \(route.name)"
        lock.lock()
        defer { lock.unlock() }
        if totals[name] == nil { order.append(name) }
        var total = totals[name] ?? (Sample(), 0)
        total.cpu.client += end.client - start.client
        total.cpu.server += end.server - start.server
        total.cpu.proxy += end.proxy - start.proxy
        total.items += items
        totals[name] = total
    }

    /// Microseconds of each process's CPU per item, per workload and route, in the order first measured.
    func perItem() -> [(name: String, microseconds: Sample)] {
        lock.lock()
        defer { lock.unlock() }
        return order.compactMap { name in
            guard let total = totals[name], total.items > 0 else { return nil }
            let scale = 1e6 / Double(total.items)
            return (
                name,
                Sample(
                    client: total.cpu.client * scale, server: total.cpu.server * scale, proxy: total.cpu.proxy * scale)
            )
        }
    }
}

/// The child processes to stop if the benchmark exits without stopping them — `BenchmarkMethod.differentWork` ends
/// it with `exit(2)`, which runs no `defer` — so no tg-server or mtproxy is left listening.
final class ChildProcesses: @unchecked Sendable {
    static let shared = ChildProcesses()
    private let lock = NSLock()
    private var pids: [Int32] = []

    private init() {
        atexit { ChildProcesses.shared.terminateAll() }
    }

    /// Sends `pid` SIGTERM when the process exits.
    func stopAtExit(_ pid: Int32) {
        lock.lock()
        defer { lock.unlock() }
        pids.append(pid)
    }

    /// Takes `pid` off the list (it was stopped and waited for: its number may be reused).
    func forget(_ pid: Int32) {
        lock.lock()
        defer { lock.unlock() }
        pids.removeAll { $0 == pid }
    }

    private func terminateAll() {
        lock.lock()
        defer { lock.unlock() }
        for pid in pids { kill(pid, SIGTERM) }
    }
}
