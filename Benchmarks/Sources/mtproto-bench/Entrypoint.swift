import BenchmarkSupport
import Foundation
import MTProtoApi
import MTProtoServer
import NIOPosix
import Network
import ServerAPI
import TelegramApi

/// MTProto: connect time (TCP + auth key + initConnection + getConfig) for our client and for Telethon against the
/// same server in the same run; pipelined pings per second over one connection and over 100; the memory a
/// tg-server process spends per idle connection.
@main
enum MTProtoBench {
    static func main() async throws {
        checkCommandLine(
            """
            usage: mtproto-bench [--client-cost | --batch-only [BATCHES] | --tasks-only [CALLS]]
              (no argument)   every table: connect, pings, the request service, memory per connection, client CPU
              --client-cost   only the client-CPU table (tg-server in its own process; our client's and Telethon's
                              CPU per connect and per call: 64 in flight, 1 in flight, requestBatch of 64, and the
                              bare-NIO limit rows); a short run to profile with perf
              --batch-only    only AccountNetwork.requestBatch of 64, BATCHES times (2,000), four rounds alternating
                              between a task of the global pool and one on the network's loop: client CPU per call
              --tasks-only    the same for 64 tasks each awaiting one call at a time, CALLS calls (64,000)
            """, accepted: ["--client-cost", "--batch-only", "--tasks-only"],
            takingValue: ["--batch-only", "--tasks-only"])
        printMachine()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mtproto-bench-\(UUID().uuidString)")
        // `mtproto-bench --client-cost` runs only the client-CPU table (a short run to profile with perf).
        if CommandLine.arguments.contains("--batch-only") {
            let batches = count(after: "--batch-only", default: 2_000)
            try await ClientCostBench.runOnly(group: group, .batch(batches))
            try await group.shutdownGracefully()
            return
        }
        if CommandLine.arguments.contains("--tasks-only") {
            let calls = count(after: "--tasks-only", default: 64_000)
            try await ClientCostBench.runOnly(group: group, .tasks(calls))
            try await group.shutdownGracefully()
            return
        }
        if CommandLine.arguments.contains("--client-cost") {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            ClientCostBench.printTable(try await ClientCostBench.run(group: group, directory: directory))
            try await group.shutdownGracefully()
            try? FileManager.default.removeItem(at: directory)
            return
        }
        // 100 sessions of one key below: allow them all (the default keeps 64 per key).
        var limits = ServerLimits()
        limits.maximumSessionsPerKey = 1000
        let server = try await MTProtoServer.start(.init(dataDirectory: directory, limits: limits), group: group) {
            ServerAPIHandler(dataCenters: $0)
        }
        let port = server.dataCenters[1].port
        let keys = [server.keys.rsaKey.publicKey]
        let endpoint = MTProtoConnection.Endpoint(host: "127.0.0.1", port: port, dcId: 2, framing: .abridged)

        // Connect time, ours: the same steps Telethon's connect() takes.
        var times: [Double] = []
        for _ in 0..<10 {
            let start = now()
            let connection = try await MTProtoConnection.connect(to: endpoint, publicKeys: keys, group: group)
            _ = try await connection.invoke(Api.functions.help.getConfig())
            _ = try? await connection.invoke(Api.functions.users.getUsers(id: [.inputUserSelf]))
            times.append(now() - start)
            await connection.close()
        }
        times.sort()
        let ours = BenchmarkSupport.Measurement(
            name: "connect", seconds: times[times.count / 2], items: 1, unit: "connects")
        let telethon = try telethonConnect(
            port: port, pem: try server.keys.publicKeyDescription(), directory: directory)

        // Pipelined pings over one connection: 64 tasks × sequential pings keep the pipe full.
        let one = try await MTProtoConnection.connect(to: endpoint, publicKeys: keys, group: group)
        let pingsPerTask = 1500
        let single = try await measurePings(connections: [one], tasksPerConnection: 64, pingsPerTask: pingsPerTask)
        await one.close()
        // The same over 100 connections (one key, 100 sessions).
        var many: [MTProtoConnection] = []
        for _ in 0..<100 {
            many.append(
                try await MTProtoConnection.connect(
                    to: endpoint, publicKeys: keys, savedKey: many.first?.key, group: group))
        }
        let hundred = try await measurePings(connections: many, tasksPerConnection: 4, pingsPerTask: 250)
        for connection in many { await connection.close() }
        let service = try await RequestServiceBench.run(server: server, group: group, directory: directory)
        try await server.close()

        let clientCost = try await ClientCostBench.run(group: group, directory: directory)
        let perConnection = try idleConnectionMemory(group: group)
        try await group.shutdownGracefully()
        try? FileManager.default.removeItem(at: directory)

        printTable(
            title: "MTProto (tg-server on 127.0.0.1, abridged)", peerName: "Telethon 1.45.0",
            [
                Comparison(
                    "connect: TCP + auth key + initConnection/getConfig (median of 10)", ours: ours, peer: telethon,
                    goal: "≥ 10×"),
                Comparison("pipelined ping RPCs, 1 connection", ours: single, peer: nil, goal: "≥ 20,000/s"),
                Comparison("pipelined ping RPCs, 100 connections", ours: hundred, peer: nil),
                Comparison(
                    "pipelined ping RPCs, 1 DatacenterConnection (the session layer)", ours: service.pings, peer: nil,
                    goal: "≥ 20,000/s"),
                Comparison(
                    "help.getNearestDc through AccountNetwork, 1 DC, 64 in flight", ours: service.oneDc,
                    peer: service.telethon, goal: "≥ 10×"),
                Comparison(
                    "help.getNearestDc through AccountNetwork, 3 DCs, 64 in flight", ours: service.threeDcs,
                    peer: service.telethon),
                Comparison(
                    "help.getNearestDc through AccountNetwork, 1 in flight", ours: service.oneInFlight,
                    peer: service.telethonOneInFlight, goal: "≥ 10×"),
            ])
        print(
            String(
                format:
                    "reconnect: a call made right after a dropped socket answered in %.1f ms (median of 10; the reconnect first waits %.0f ms of backoff, up to 30 %% more for jitter)",
                service.reconnectMedian * 1000, service.reconnectBackoff * 1000))
        ClientCostBench.printTable(clientCost)
        print(
            String(
                format: "\nconnect time: ours %.1f ms, Telethon %.1f ms", ours.seconds * 1000, telethon.seconds * 1000))
        print(
            String(
                format: "tg-server memory per idle connection: %.1f KiB (RSS growth over 1,000 connections)",
                perConnection / 1024))
    }

    static func measurePings(
        connections: [MTProtoConnection], tasksPerConnection: Int, pingsPerTask: Int
    ) async throws -> BenchmarkSupport.Measurement {
        let total = connections.count * tasksPerConnection * pingsPerTask
        let start = now()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for connection in connections {
                for task in 0..<tasksPerConnection {
                    group.addTask {
                        for i in 0..<pingsPerTask {
                            _ = try await connection.invoke(MTProto.functions.ping(pingId: Int64(task * 1_000_000 + i)))
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        return BenchmarkSupport.Measurement(name: "ping", seconds: now() - start, items: Double(total), unit: "RPCs")
    }

    /// Runs the Telethon script against the server and reads its median.
    static func telethonConnect(port: Int, pem: String, directory: URL) throws -> BenchmarkSupport.Measurement {
        let json = try runTelethonScript("telethon_connect_bench.py", port: port, pem: pem, directory: directory)
        let median = (json["median_ms"] as? Double) ?? .nan
        return BenchmarkSupport.Measurement(
            name: "telethon connect", seconds: median / 1000, items: 1, unit: "connects")
    }

    /// Runs `Benchmarks/scripts/<script>` with the repository's Telethon against the server on `port` (its public key
    /// written beside the benchmark's data) and returns the JSON object it prints.
    static func runTelethonScript(
        _ script: String, port: Int, pem: String, directory: URL, arguments: [String] = []
    ) throws -> [String: Any] {
        let pemFile = directory.appendingPathComponent("public.pem")
        try pem.write(to: pemFile, atomically: true, encoding: .utf8)
        return try runBenchmarkScript(
            script, arguments: ["--port", String(port), "--pem-file", pemFile.path] + arguments)
    }

    /// Starts the release tg-server, opens 1,000 idle MTProto connections (each with a session), and divides the
    /// growth of the server's resident memory by the count.
    static func idleConnectionMemory(group: MultiThreadedEventLoopGroup) throws -> Double {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let binary =
            ProcessInfo.processInfo.environment["TG_SERVER_BIN"]
            ?? root.appendingPathComponent(".build/release/tg-server").path
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mtproto-mem-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        // 1,000 connections from 127.0.0.1: above the default per-address cap.
        process.arguments = ["--port", "0", "--data-dir", directory.path, "--max-connections-per-address", "2000"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { process.terminate(); process.waitUntilExit() }
        let line = String(decoding: pipe.fileHandleForReading.availableData, as: UTF8.self)
        guard let field = line.split(separator: " ").first(where: { $0.hasPrefix("dc2=") }),
            let port = Int(field.dropFirst(4).trimmingCharacters(in: .whitespacesAndNewlines))
        else { return .nan }
        let semaphore = DispatchSemaphore(value: 0)
        let result = ResultBox()
        Task {
            do {
                let keys = try ServerKeyStore(directory: directory)
                let endpoint = MTProtoConnection.Endpoint(host: "127.0.0.1", port: port, dcId: 2, framing: .abridged)
                let first = try await MTProtoConnection.connect(
                    to: endpoint, publicKeys: [keys.rsaKey.publicKey], group: group)
                _ = try await first.invoke(MTProto.functions.ping(pingId: 0))
                let before = rss(process.processIdentifier)
                var open: [MTProtoConnection] = []
                for i in 0..<1000 {
                    let c = try await MTProtoConnection.connect(
                        to: endpoint, publicKeys: [], savedKey: first.key, group: group)
                    _ = try await c.invoke(MTProto.functions.ping(pingId: Int64(i)))
                    open.append(c)
                }
                let after = rss(process.processIdentifier)
                result.value = Double(after - before) / 1000
                for c in open { await c.close() }
                await first.close()
            } catch {
                result.value = .nan
            }
            semaphore.signal()
        }
        semaphore.wait()
        return result.value
    }

    /// Resident set size of a process, in bytes, from /proc.
    static func rss(_ pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kib = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kib * 1024
    }
}

/// A value set by a task and read after it signals. `@unchecked Sendable`: written once before the semaphore.
final class ResultBox: @unchecked Sendable {
    var value: Double = .nan
}
