import AccountNetworking
import BenchmarkSupport
import Foundation
import MTProtoApi
import MTProtoServer
import NIOPosix
import Network
import TelegramApi

/// The client's network layer measured through its own objects: pipelined pings on a `DatacenterConnection`, calls
/// per second through `AccountNetwork`'s request service on one DC and spread over three, the time from a dropped
/// socket to the first answer after reconnecting, and Telethon's loop of the same calls against the same server.
enum RequestServiceBench {
    struct Results {
        let pings: BenchmarkSupport.Measurement
        let oneDc: BenchmarkSupport.Measurement
        let threeDcs: BenchmarkSupport.Measurement
        let telethon: BenchmarkSupport.Measurement
        let oneInFlight: BenchmarkSupport.Measurement
        let telethonOneInFlight: BenchmarkSupport.Measurement
        let reconnectMedian: Double
        let reconnectBackoff: Double
    }

    static func run(server: MTProtoServer, group: MultiThreadedEventLoopGroup, directory: URL) async throws -> Results {
        var endpoints: [Int32: MTProtoConnection.Endpoint] = [:]
        for dc in server.dataCenters { endpoints[dc.id] = .init(host: "127.0.0.1", port: dc.port, dcId: dc.id) }
        let network = AccountNetwork(
            datacenters: endpoints, defaultMainDc: 2, publicKeys: [server.keys.rsaKey.publicKey],
            store: InMemoryNetworkKeyStore(), group: group)
        for dc: Int32 in [1, 2, 3] { _ = try await network.request(Api.functions.help.getNearestDc(), dc: dc) }

        // Pipelined pings through the session layer: 64 tasks × sequential pings on one DatacenterConnection.
        let connection = try await network.connection(dc: 2)
        let pingsPerTask = 1500
        let pingStart = now()
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            for task in 0..<64 {
                tasks.addTask {
                    for i in 0..<pingsPerTask {
                        _ = try await connection.invoke(MTProto.functions.ping(pingId: Int64(task * 1_000_000 + i)))
                    }
                }
            }
            try await tasks.waitForAll()
        }
        let pings = BenchmarkSupport.Measurement(
            name: "ping", seconds: now() - pingStart, items: Double(64 * pingsPerTask), unit: "RPCs")

        // Calls through the request service (error rules, migrate logic and all), 64 in flight.
        let calls = 20_000
        func loop(dcs: [Int32]) async throws -> BenchmarkSupport.Measurement {
            let start = now()
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                for task in 0..<64 {
                    tasks.addTask {
                        for i in 0..<(calls / 64) {
                            _ = try await network.request(
                                Api.functions.help.getNearestDc(), dc: dcs[(task + i) % dcs.count])
                        }
                    }
                }
                try await tasks.waitForAll()
            }
            return BenchmarkSupport.Measurement(
                name: "requests", seconds: now() - start, items: Double(calls / 64 * 64), unit: "calls")
        }
        let oneDc = try await loop(dcs: [2])
        // One call at a time: the client's own cost per call (and the round trip) with nothing to overlap it.
        let sequentialStart = now()
        for _ in 0..<3000 { _ = try await network.request(Api.functions.help.getNearestDc()) }
        let oneInFlight = BenchmarkSupport.Measurement(
            name: "requests", seconds: now() - sequentialStart, items: 3000, unit: "calls")
        let threeDcs = try await loop(dcs: [1, 2, 3])

        // A dropped socket: time until the first call made right after the drop is answered (the reconnect waits
        // the policy's first backoff, 0.1 s × up to 1.3 for jitter, which is reported beside it).
        var reconnects: [Double] = []
        for _ in 0..<10 {
            await connection.dropSocket()
            let start = now()
            _ = try await connection.invoke(Api.functions.help.getNearestDc())
            reconnects.append(now() - start)
            try await Task.sleep(nanoseconds: 300_000_000)
        }
        reconnects.sort()
        await network.close()

        let pem = try server.keys.publicKeyDescription()
        let telethon = try telethonLoop(
            port: server.dataCenters[1].port, pem: pem, directory: directory, count: 5000, concurrency: 64)
        let telethonOne = try telethonLoop(
            port: server.dataCenters[1].port, pem: pem, directory: directory, count: 2000, concurrency: 1)
        return Results(
            pings: pings, oneDc: oneDc, threeDcs: threeDcs, telethon: telethon, oneInFlight: oneInFlight,
            telethonOneInFlight: telethonOne, reconnectMedian: reconnects[reconnects.count / 2],
            reconnectBackoff: DatacenterConnection.Options().reconnect.initialDelay)
    }

    static func telethonLoop(
        port: Int, pem: String, directory: URL, count: Int, concurrency: Int
    ) throws -> BenchmarkSupport.Measurement {
        let json = try MTProtoBench.runTelethonScript(
            "telethon_request_loop.py", port: port, pem: pem, directory: directory,
            arguments: ["--count", String(count), "--concurrency", String(concurrency)])
        let calls = (json["calls"] as? Double) ?? 0
        let seconds = (json["seconds"] as? Double) ?? .nan
        return BenchmarkSupport.Measurement(name: "telethon requests", seconds: seconds, items: calls, unit: "calls")
    }
}
