import AccountNetworking
import BenchmarkSupport
import Foundation
import MTProtoApi
import MTProtoServer
import NIOPosix
import Network
import ServerBenchSupport
import TelegramApi

#if canImport(Glibc)
    import Glibc
#endif

/// The clients' own cost, with the server out of the way: a release tg-server runs as its own process, so this
/// process's CPU time (getrusage) is the client's alone, and Telethon's is its Python process's. Connects and the
/// request loops are the same as in the in-process tables; what is compared here is CPU per connect and per call,
/// which the shared server does not bound (wall-clock rates on two cores are bounded by the server for both).
enum ClientCostBench {
    struct Cost {
        /// Wall seconds and CPU seconds for `items` operations.
        let wall: Double
        let cpu: Double
        let items: Double
        /// The part of `cpu` spent in the kernel (getrusage's system time): system calls, loopback TCP, wake-ups.
        var system: Double = .nan
        var cpuPerItem: Double { cpu / items }
    }

    struct Results {
        let oursConnect: Cost
        let telethonConnect: Cost
        let oursLoop: Cost
        let telethonLoop: Cost
        let oursOne: Cost
        let telethonOne: Cost
        /// `AccountNetwork.requestBatch` of 64 calls from one task, batch after batch (Telethon: `telethonLoop`, its
        /// `gather` of 64).
        let oursBatch: Cost
        /// The same three loops with the calling tasks on the network's own event loop (`withTaskExecutorPreference(
        /// network.taskExecutor)`), as Telethon's calls run on its asyncio loop.
        let onLoop: Loops
        /// Five interleaved rounds of the headline comparisons (`Round`).
        let rounds: [Round]
        /// Server CPU per call during our 64-in-flight loop, for scale.
        let serverPerCall: Double
        /// A bare NIO loopback round trip against an echo process (`LoopbackLimit`): the floor under one call.
        let loopback: Cost
        /// The same client writing 64 frames in one `write` and reading the 64 back, per frame: the floor under a
        /// call of a batch.
        let loopbackBatched: Cost
    }

    /// One round of the interleaved comparison, like with like: our `requestBatch` of 64 against Telethon's own
    /// batch call (`client([r1, …, r64])`, one container), and 64 tasks each awaiting a call against Telethon's
    /// `gather` of 64 single calls; ours on the network's loop. Who goes first alternates by round.
    struct Round {
        let batch: Cost
        let telethonBatch: Cost
        let tasks: Cost
        let telethonGather: Cost
    }

    /// Our three request loops: 64 tasks each awaiting one call at a time, one call at a time, `requestBatch` of 64.
    struct Loops {
        let tasks: Cost
        let one: Cost
        let batch: Cost
    }

    /// Runs `Loops` against `network` (connected and warmed up): `calls` calls from 64 tasks, 3,000 one at a time,
    /// 3,000 batches of 64.
    static func loops(_ network: AccountNetwork, calls: Int) async throws -> Loops {
        let tasks = try await tasksLoop(network, calls: calls)
        let one = try await measure(items: 3000) {
            for _ in 0..<3000 { _ = try await network.request(Api.functions.help.getNearestDc()) }
        }
        let batch = try await batchLoop(network, batches: 3_000)
        return Loops(tasks: tasks, one: one, batch: batch)
    }

    /// `calls` calls of `help.getNearestDc` from 64 tasks, each awaiting one at a time.
    static func tasksLoop(_ network: AccountNetwork, calls: Int) async throws -> Cost {
        try await measure(items: Double(calls / 64 * 64)) {
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                for _ in 0..<64 {
                    tasks.addTask {
                        for _ in 0..<(calls / 64) { _ = try await network.request(Api.functions.help.getNearestDc()) }
                    }
                }
                try await tasks.waitForAll()
            }
        }
    }

    /// 100 batches of 64 to warm up before `batchLoop`.
    static func warmUpBatches(_ network: AccountNetwork) async {
        let batch = Array(repeating: Api.functions.help.getNearestDc(), count: 64)
        for _ in 0..<100 { _ = await network.requestBatch(batch) }
    }

    /// `batches` batches of 64 `help.getNearestDc` through `requestBatch`.
    static func batchLoop(_ network: AccountNetwork, batches: Int) async throws -> Cost {
        let batch = Array(repeating: Api.functions.help.getNearestDc(), count: 64)
        return try await measure(items: Double(batches * 64)) {
            for _ in 0..<batches {
                for result in await network.requestBatch(batch) { _ = try result.get() }
            }
        }
    }

    /// This process's CPU time so far, user and system, in seconds.
    static func processCPU() -> Double {
        let (user, system) = processCPUParts()
        return user + system
    }

    /// This process's user and system CPU time so far, in seconds.
    static func processCPUParts() -> (user: Double, system: Double) {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return (
            Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6,
            Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        )
    }

    static func measure(items: Double, _ body: () async throws -> Void) async rethrows -> Cost {
        let before = processCPUParts()
        let start = now()
        try await body()
        let after = processCPUParts()
        var cost = Cost(
            wall: now() - start, cpu: after.user - before.user + after.system - before.system, items: items)
        cost.system = after.system - before.system
        return cost
    }

    static func run(group: MultiThreadedEventLoopGroup, directory: URL) async throws -> Results {
        let server = try ServerProcess(arguments: [])
        defer { server.stop() }
        let keys = [server.publicKey]
        let endpoint = MTProtoConnection.Endpoint(host: "127.0.0.1", port: server.port, dcId: 2, framing: .abridged)

        // Warm up code paths and the server once.
        let warm = try await MTProtoConnection.connect(to: endpoint, publicKeys: keys, group: group)
        _ = try await warm.invoke(Api.functions.help.getConfig())
        await warm.close()

        let connects = 20
        let oursConnect = try await measure(items: Double(connects)) {
            for _ in 0..<connects {
                let connection = try await MTProtoConnection.connect(to: endpoint, publicKeys: keys, group: group)
                _ = try await connection.invoke(Api.functions.help.getConfig())
                _ = try? await connection.invoke(Api.functions.users.getUsers(id: [.inputUserSelf]))
                await connection.close()
            }
        }

        let network = AccountNetwork(
            datacenters: [2: endpoint], defaultMainDc: 2, publicKeys: keys, store: InMemoryNetworkKeyStore(),
            group: group)
        _ = try await network.request(Api.functions.help.getNearestDc())
        await warmUpBatches(network)
        let serverBefore = server.cpuSeconds()
        let pool = try await loops(network, calls: 20_000)
        let serverPerCall =
            (server.cpuSeconds() - serverBefore) / (pool.tasks.items + pool.one.items + pool.batch.items)
        let onLoop = try await withTaskExecutorPreference(network.taskExecutor) {
            await warmUpBatches(network)
            return try await loops(network, calls: 20_000)
        }

        let pem = try ServerKeyStore(directory: server.directory).publicKeyDescription()
        func telethonLoop(count: Int, concurrency: Int, batch: Bool = false) throws -> Cost {
            let json = try MTProtoBench.runTelethonScript(
                "telethon_request_loop.py", port: server.port, pem: pem, directory: directory,
                arguments: ["--count", String(count), "--concurrency", String(concurrency)] + (batch ? ["--batch"] : [])
            )
            // Telethon checks every answer itself (the script fails on an unanswered call); the count must be whole.
            guard (json["calls"] as? Double) == Double(count) else {
                BenchmarkMethod.differentWork(
                    "Telethon's request loop", ours: "\(count) calls", peer: "\(json["calls"] ?? "none")")
            }
            return Cost(
                wall: (json["seconds"] as? Double) ?? .nan, cpu: (json["cpu_seconds"] as? Double) ?? .nan,
                items: (json["calls"] as? Double) ?? .nan)
        }
        // The headline rows: interleaved rounds (BENCHMARKS.md, "Method"), batch against batch and 64 in flight
        // against 64 in flight, ours first in even rounds and Telethon first in odd ones; every round is reported.
        var rounds: [Round] = []
        for round in 0..<BenchmarkMethod.rounds(5) {
            func ours() async throws -> (Cost, Cost) {
                try await withTaskExecutorPreference(network.taskExecutor) {
                    await warmUpBatches(network)
                    return (try await batchLoop(network, batches: 150), try await tasksLoop(network, calls: 9_600))
                }
            }
            func theirs() throws -> (Cost, Cost) {
                (
                    try telethonLoop(count: 9_600, concurrency: 64, batch: true),
                    try telethonLoop(count: 9_600, concurrency: 64)
                )
            }
            if round % 2 == 0 {
                let (batch, tasks) = try await ours()
                let (telethonBatch, telethonGather) = try theirs()
                rounds.append(
                    Round(batch: batch, telethonBatch: telethonBatch, tasks: tasks, telethonGather: telethonGather))
            } else {
                let (telethonBatch, telethonGather) = try theirs()
                let (batch, tasks) = try await ours()
                rounds.append(
                    Round(batch: batch, telethonBatch: telethonBatch, tasks: tasks, telethonGather: telethonGather))
            }
        }
        await network.close()

        let connectJSON = try MTProtoBench.runTelethonScript(
            "telethon_connect_bench.py", port: server.port, pem: pem, directory: directory,
            arguments: ["--runs", String(connects)])
        let telethonConnect = Cost(
            wall: (connectJSON["wall_seconds"] as? Double) ?? .nan,
            cpu: (connectJSON["cpu_seconds"] as? Double) ?? .nan,
            items: Double(connects))
        return Results(
            oursConnect: oursConnect, telethonConnect: telethonConnect,
            oursLoop: pool.tasks, telethonLoop: try telethonLoop(count: 5000, concurrency: 64),
            oursOne: pool.one, telethonOne: try telethonLoop(count: 2000, concurrency: 1), oursBatch: pool.batch,
            onLoop: onLoop, rounds: rounds,
            serverPerCall: serverPerCall, loopback: try await LoopbackLimit.run(group: group, count: 3000),
            loopbackBatched: try await LoopbackLimit.run(group: group, count: 600, frames: 64))
    }

    /// Which of our loops `runOnly` measures.
    enum OnlyLoop {
        /// `requestBatch` of 64, this many batches.
        case batch(Int)
        /// 64 tasks each awaiting one call at a time, this many calls in all.
        case tasks(Int)
    }

    /// Only one of our loops (`mtproto-bench --batch-only` / `--tasks-only`), four rounds alternating between a task
    /// of the global pool and one on the network's loop: a quick figure and a clean window to profile (`perf record
    /// -g` over it sees nothing but that path). Prints client CPU per call.
    static func runOnly(group: MultiThreadedEventLoopGroup, _ workload: OnlyLoop) async throws {
        let server = try ServerProcess(arguments: [])
        defer { server.stop() }
        let endpoint = MTProtoConnection.Endpoint(host: "127.0.0.1", port: server.port, dcId: 2, framing: .abridged)
        let network = AccountNetwork(
            datacenters: [2: endpoint], defaultMainDc: 2, publicKeys: [server.publicKey],
            store: InMemoryNetworkKeyStore(),
            group: group)
        _ = try await network.request(Api.functions.help.getNearestDc())
        let connection = try await network.connection(dc: 2)
        @Sendable func measured() async throws -> (name: String, cost: Cost, rounds: Int) {
            switch workload {
            case .batch(let batches):
                return ("requestBatch of 64", try await batchLoop(network, batches: batches), batches)
            case .tasks(let calls):
                let cost = try await tasksLoop(network, calls: calls)
                return ("64 tasks in flight", cost, calls / 64)
            }
        }
        for round in 0..<4 {
            let onLoop = round % 2 == 1
            if case .batch = workload {
                if onLoop {
                    await withTaskExecutorPreference(network.taskExecutor) { await warmUpBatches(network) }
                } else {
                    await warmUpBatches(network)
                }
            }
            let serverBefore = server.cpuSeconds()
            let packetsBefore = await connection.receivedPacketCount()
            let (name, cost, rounds) =
                onLoop
                ? try await withTaskExecutorPreference(network.taskExecutor) { try await measured() }
                : try await measured()
            let serverPerCall = (server.cpuSeconds() - serverBefore) / cost.items
            let packets = Double(await connection.receivedPacketCount() - packetsBefore) / Double(rounds)
            print(
                String(
                    format:
                        "%@, %@: %.2f µs client CPU per call (%.0f%% kernel), %.0f calls/s, server %.1f µs per call, %.1f packets received per 64 calls",
                    name, onLoop ? "on the network's loop" : "from the global pool", cost.cpuPerItem * 1e6,
                    cost.system / cost.cpu * 100, cost.items / cost.wall, serverPerCall * 1e6, packets))
        }
        await network.close()
    }

    /// The round whose CPU per call is the median of `costs` (the lower middle one for an even count).
    static func median(_ costs: [Cost]) -> Cost {
        costs.sorted { $0.cpuPerItem < $1.cpuPerItem }[(costs.count - 1) / 2]
    }

    /// Prints the table: CPU per operation for both clients and their ratio (Telethon's CPU / ours).
    static func printTable(_ r: Results) {
        print("\n### Client CPU per operation (tg-server as its own process; getrusage of each client's process)\n")
        print(
            "| workload | ours (CPU per op) | Telethon 1.45.0 (CPU per op) | ratio (Telethon / ours) | goal | ours wall/s | Telethon wall/s | ours: kernel share |"
        )
        print("|---|---:|---:|---:|---|---:|---:|---:|")
        func row(_ name: String, _ ours: Cost, _ peer: Cost, goal: String) {
            print(
                String(
                    format: "| %@ | %.1f µs | %.1f µs | %.2f× | %@ | %.0f | %.0f | %.0f%% |", name,
                    ours.cpuPerItem * 1e6,
                    peer.cpuPerItem * 1e6, peer.cpuPerItem / ours.cpuPerItem, goal, ours.items / ours.wall,
                    peer.items / peer.wall, ours.system / ours.cpu * 100))
        }
        row("connect: TCP + auth key + initConnection/getConfig", r.oursConnect, r.telethonConnect, goal: "≥ 10×")
        row("help.getNearestDc through AccountNetwork, 64 in flight", r.oursLoop, r.telethonLoop, goal: "≥ 10×")
        row("help.getNearestDc through AccountNetwork, 1 in flight", r.oursOne, r.telethonOne, goal: "≥ 10×")
        row(
            "help.getNearestDc through AccountNetwork.requestBatch, 64 per batch (Telethon: its batch call of 64, "
                + "median round)", r.oursBatch, median(r.rounds.map(\.telethonBatch)), goal: "≥ 10×")
        row(
            "64 in flight, the tasks on the network's loop (taskExecutor)", r.onLoop.tasks, r.telethonLoop,
            goal: "≥ 10×")
        row("1 in flight, the task on the network's loop", r.onLoop.one, r.telethonOne, goal: "≥ 10×")
        row(
            "requestBatch of 64, the task on the network's loop (Telethon: its batch call of 64, median round)",
            r.onLoop.batch, median(r.rounds.map(\.telethonBatch)), goal: "≥ 10×")
        print(
            String(
                format:
                    "| limit: a bare NIO 128-byte round trip over loopback (echo in another process), 1 in flight | %.1f µs | — | — | | %.0f | — | %.0f%% |",
                r.loopback.cpuPerItem * 1e6, r.loopback.items / r.loopback.wall,
                r.loopback.system / r.loopback.cpu * 100))
        print(
            String(
                format:
                    "| limit: the same client, 64 128-byte frames in one write and 64 read back, per frame | %.2f µs | — | — | | %.0f | — | %.0f%% |",
                r.loopbackBatched.cpuPerItem * 1e6, r.loopbackBatched.items / r.loopbackBatched.wall,
                r.loopbackBatched.system / r.loopbackBatched.cpu * 100))
        print(
            String(
                format: "10× Telethon's gather of 64 would be ≤ %.2f µs of client CPU per call.",
                r.telethonLoop.cpuPerItem * 1e6 / 10))
        print(
            "\n### Interleaved rounds, like with like (CPU per call; median of all \(r.rounds.count) rounds, min–max)\n"
        )
        print("| workload | ours | Telethon 1.45.0 | ratio (Telethon / ours) | each round's ratio | goal |")
        print("|---|---:|---:|---:|---|---|")
        func interleaved(_ name: String, _ ours: [Cost], _ peer: [Cost]) {
            func spread(_ costs: [Cost]) -> String {
                let values = costs.map(\.cpuPerItem).sorted()
                return String(
                    format: "%.2f µs (%.2f–%.2f)", BenchmarkSupport.median(values) * 1e6, values[0] * 1e6,
                    values[values.count - 1] * 1e6)
            }
            let ratios = zip(ours, peer).map { $1.cpuPerItem / $0.cpuPerItem }
            let ratio =
                BenchmarkSupport.median(peer.map(\.cpuPerItem).sorted())
                / BenchmarkSupport.median(ours.map(\.cpuPerItem).sorted())
            print(
                String(
                    format: "| %@ | %@ | %@ | %.2f× | %.2f–%.2f | ≥ 10× |", name, spread(ours), spread(peer), ratio,
                    ratios.min() ?? .nan, ratios.max() ?? .nan))
        }
        interleaved(
            "requestBatch of 64 (Telethon: client([r1, …, r64]), one container)", r.rounds.map(\.batch),
            r.rounds.map(\.telethonBatch))
        interleaved(
            "64 tasks in flight (Telethon: asyncio.gather of 64)", r.rounds.map(\.tasks), r.rounds.map(\.telethonGather)
        )
        print(
            String(
                format: "\nserver CPU per call during our loops from the global pool: %.1f µs", r.serverPerCall * 1e6))
    }
}
