import BenchmarkSupport
import Foundation
import NIOCore
import NIOPosix
import Network
import ServerBenchSupport
import TLRuntime
import TelegramApi

/// N signed-in clients (our own `MTProtoConnection`s) writing to each other through a release tg-server process on
/// loopback, for N = 2, 100 and 1,000: messages per second stored and delivered, send→receive latency p50/p99, and
/// the server's memory per idle signed-in connection; beside them, in the same run, the bare cost of the work the
/// server cannot avoid (its SQLite writes, its AES-IGE), so the ratio shows how close it is to that floor.
/// The clients run in this process on the same two cores as the server; each round reports their CPU apart from the
/// server's.
@main
enum ServerBench {
    struct Round {
        let clients: Int
        let messages: Int
        /// Sends each client keeps in flight (the requests in flight are clients × window).
        var window = 8
        var delivered = 0
        var seconds = 0.0
        var latencies: [Double] = []
        var rssPerConnection = 0.0
        /// Server CPU seconds (user + system) while the measured messages went through.
        var serverCPU = 0.0
        /// This process's CPU seconds over the same stretch: the clients' (their encryption, TL, framing), apart
        /// from the server's.
        var clientCPU = 0.0
    }

    static func main() async throws {
        checkCommandLine(
            """
            usage: server-bench

            N signed-in clients writing to each other through a release tg-server process on loopback (N = 2, 100, 1,000):
            messages/s, latency p50/p99, memory per idle connection, beside the floor of the server's own SQLite and AES work.
            Needs the release tg-server (`make bench` builds it). Environment: SERVER_BENCH_CLIENTS=2,100 picks the rounds.
            """)
        printMachine()
        var limit = rlimit()
        if getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        // SERVER_BENCH_CLIENTS=100 runs one round (for profiling); the default is the three the table reports.
        let chosen = ProcessInfo.processInfo.environment["SERVER_BENCH_CLIENTS"].map {
            $0.split(separator: ",").compactMap { Int($0) }
        }
        // (clients, messages, sends in flight per client): 100 × 1 is the goal's "100 requests in flight".
        let plan = [(2, 4000, 8), (100, 20_000, 8), (100, 20_000, 1), (1000, 20_000, 8)].filter {
            chosen?.contains($0.0) ?? true
        }
        var rounds: [Round] = []
        for (clients, messages, window) in plan {
            rounds.append(try await run(clients: clients, messages: messages, window: window, group: group))
        }
        try await group.shutdownGracefully()
        let largest = plan.map(\.1).max() ?? 20_000
        let store = try BareCost.storeRate(messages: largest).rate
        let grouped = try BareCost.storeRate(messages: largest, writers: 32)
        let crypto = try BareCost.cryptoRate(messages: largest)

        print("\n### server-bench: messages through a release tg-server (127.0.0.1, clients in-process)\n")
        print(
            "| clients | in flight | messages | delivered/s | p50 ms | p99 ms | server CPU per message | clients' CPU per message (this process) | server RSS per idle signed-in connection | vs bare SQLite, group commit (32 writers) | vs bare SQLite, one transaction each | vs bare crypto |"
        )
        print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for round in rounds {
            let rate = Double(round.delivered) / round.seconds
            let sorted = round.latencies.sorted()
            func percentile(_ p: Double) -> Double {
                sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] * 1000
            }
            print(
                String(
                    format:
                        "| %d | %d | %d | %.0f | %.2f | %.2f | %.0f µs (%.0f messages per core-second) | %.0f µs | %.1f KiB | %.2f× | %.2f× | %.2f× |",
                    round.clients, round.clients * round.window, round.delivered, rate, percentile(0.5),
                    percentile(0.99),
                    round.serverCPU / Double(max(1, round.delivered)) * 1e6,
                    Double(round.delivered) / max(round.serverCPU, 1e-9),
                    round.clientCPU / Double(max(1, round.delivered)) * 1e6,
                    round.rssPerConnection / 1024, rate / grouped.rate, rate / store, rate / crypto))
        }
        print(
            String(
                format:
                    "\nBare cost, same run: SQLite writes of one message (2 boxes, 2 pts updates, random id) from 32 threads "
                    + "through ServerStore's group commit, as the server's RPC workers write: %.0f messages/s (%.1f writes "
                    + "per commit); one transaction per message: %.0f messages/s; AES-IGE + msg_key for its 3 packets "
                    + "both ways %.0f messages/s.",
                grouped.rate, grouped.writesPerCommit, store, crypto))
    }

    /// One round: a fresh server, `clients` accounts in a ring (each writes to the next), `messages` in all.
    static func run(clients: Int, messages: Int, window: Int, group: any EventLoopGroup) async throws -> Round {
        let server = try ServerProcess(arguments: [
            "--max-connections-per-address", "4096", "--max-connections", "4096", "--max-calls-in-flight", "64",
            "--send-rate", "0",
        ])
        defer { server.stop() }
        let endpoint = MTProtoConnection.Endpoint(host: "127.0.0.1", port: server.port, dcId: 2, framing: .abridged)
        // Accounts, eight sign-ups at a time (each needs its own auth key).
        let rssBefore = server.rss()
        let publicKey = server.publicKey
        var accounts: [Accounts.SignedUp] = []
        var next = 0
        while next < clients {
            let batch = next..<min(clients, next + 8)
            accounts += try await withThrowingTaskGroup(of: (Int, Accounts.SignedUp).self) { tasks in
                for number in batch {
                    tasks.addTask {
                        let connection = try await MTProtoConnection.connect(
                            to: endpoint, publicKeys: [publicKey], group: group)
                        return (number, try await Accounts.signUp(connection, number: number))
                    }
                }
                var done: [(Int, Accounts.SignedUp)] = []
                for try await item in tasks { done.append(item) }
                return done.sorted { $0.0 < $1.0 }.map(\.1)
            }
            next = batch.upperBound
        }
        try await Task.sleep(nanoseconds: 500_000_000)
        var round = Round(clients: clients, messages: messages, window: window)
        round.rssPerConnection = Double(server.rss() - rssBefore) / Double(clients)

        // Receivers: every client reads its pushes; each text carries its send time.
        let received = Counter()
        let readers = accounts.map { account in
            Task {
                var latencies: [Double] = []
                for await body in account.connection.updates {
                    guard let updates = try? Api.Updates(tlBytes: body) else { continue }
                    let text: String?
                    switch updates {
                    case .updateShortMessage(let short): text = short.message
                    case .updates(let all):
                        text =
                            all.updates.compactMap { update -> String? in
                                if case .updateNewMessage(let new) = update, case .message(let message) = new.message {
                                    return message.message
                                }
                                return nil
                            }.first
                    default: text = nil
                    }
                    guard let text, let sent = Double(text.split(separator: " ").last ?? "") else { continue }
                    latencies.append(now() - sent)
                    received.add()
                }
                return latencies
            }
        }
        // One message each first, so every conversation exists (later ones go as updateShortMessage, as on Telegram).
        try await send(accounts: accounts, perClient: 1, window: 1)
        let warm = clients
        let perClient = max(1, messages / clients)
        let start = now()
        let cpuBefore = server.cpuSeconds()
        let clientCPUBefore = processCPUSeconds()
        try await send(accounts: accounts, perClient: perClient, window: window)
        let expected = warm + perClient * clients
        let deadline = now() + 120
        while received.value < expected, now() < deadline { try await Task.sleep(nanoseconds: 2_000_000) }
        round.seconds = now() - start
        round.serverCPU = server.cpuSeconds() - cpuBefore
        round.clientCPU = processCPUSeconds() - clientCPUBefore
        round.delivered = received.value - warm
        for account in accounts { await account.connection.close() }
        for reader in readers { round.latencies += await reader.value }
        return round
    }

    /// Every client sends `perClient` messages to the next one, `window` at a time.
    static func send(accounts: [Accounts.SignedUp], perClient: Int, window: Int) async throws {
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            for (index, account) in accounts.enumerated() {
                let peer = accounts[(index + 1) % accounts.count]
                let input = Api.InputPeer.inputPeerUser(.init(userId: peer.userId, accessHash: peer.accessHash))
                tasks.addTask {
                    var sent = 0
                    while sent < perClient {
                        let burst = min(window, perClient - sent)
                        try await withThrowingTaskGroup(of: Void.self) { inner in
                            for _ in 0..<burst {
                                inner.addTask {
                                    let text = String(format: "m %.9f", now())
                                    _ = try await account.connection.invoke(
                                        Api.functions.messages.sendMessage(
                                            peer: input, message: text, randomId: Int64.random(in: 1...Int64.max)))
                                }
                            }
                            try await inner.waitForAll()
                        }
                        sent += burst
                    }
                }
            }
            try await tasks.waitForAll()
        }
    }
}

/// A count shared by the reader tasks.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func add() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
