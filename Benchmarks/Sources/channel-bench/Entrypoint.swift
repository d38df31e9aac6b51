import BenchmarkSupport
import Foundation
import SyncCoreApi
import TelegramCore

/// Supergroups and channels on tg-server and in TelegramCore: one post fanned out to 1,000 online members (latency to
/// each member, server CPU per delivered update), 50,000 posts caught up through `updates.getChannelDifference` into
/// Postbox (against Postbox's own insert and against Telethon 1.45 + cryptg), and `channels.getParticipants` paged over
/// 10,000 members (server time per page).
@main
enum ChannelBench {
    static func main() async throws {
        checkCommandLine(
            """
            usage: channel-bench

            Supergroups and channels: one post to a 1,000-member supergroup (latency to each member, server CPU per
            delivered update), 50,000 channel posts caught up into Postbox against Postbox's own insert and Telethon 1.45
            + cryptg, and channels.getParticipants over 10,000 members. Needs the release tg-server and the venv
            (`make bench BENCH=channel-bench` builds and finds both). Environment: CHANNEL_BENCH=fanout,catchup,participants
            picks the parts; CHANNEL_BENCH_ROUNDS=N the rounds (default 3).
            """)
        printMachine()
        registerTelegramCoreTypes()
        var limit = rlimit()
        if getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        }
        let environment = ProcessInfo.processInfo.environment
        // Under `make bench-check` only the catch-up, the part with a peer (fan-out and participant pages measure
        // tg-server alone).
        let defaultParts = BenchmarkMethod.isCheck ? "catchup" : "fanout,catchup,participants"
        let parts = Set((environment["CHANNEL_BENCH"] ?? defaultParts).split(separator: ",").map(String.init))
        let rounds = Int(environment["CHANNEL_BENCH_ROUNDS"] ?? "") ?? 3

        if parts.contains("fanout") {
            let result = try await PostFanOut.run(members: 1_000, posts: 20, rounds: rounds)
            print(
                "\n### One post to a supergroup of \(result.members) online members (release tg-server process, members in this process)\n"
            )
            print(
                "| round | posts | delivered | p50 ms | p99 ms | slowest member per post, median ms | server CPU per delivered update |"
            )
            print("|---:|---:|---:|---:|---:|---:|---:|")
            for (index, round) in result.rounds.enumerated() {
                print(
                    String(
                        format: "| %d | %d | %d | %.1f | %.1f | %.1f | %.1f µs |", index + 1, result.posts,
                        round.delivered,
                        percentile(round.latencies, 0.5) * 1000, percentile(round.latencies, 0.99) * 1000,
                        percentile(round.lastMember, 0.5) * 1000,
                        round.serverCPU / Double(max(1, round.delivered)) * 1e6))
            }
            let p50 = result.rounds.map { percentile($0.latencies, 0.5) * 1000 }
            let p99 = result.rounds.map { percentile($0.latencies, 0.99) * 1000 }
            let cpu = result.rounds.map { $0.serverCPU / Double(max(1, $0.delivered)) * 1e6 }
            print(
                "\nmedian (min–max) of \(result.rounds.count) rounds: p50 \(spread(p50)) ms, p99 \(spread(p99)) ms "
                    + "(goal ≤ 250 ms), server CPU per delivered update \(spread(cpu)) µs (goal ≤ 20 µs)")
        }

        if parts.contains("catchup") {
            let posts = Int(environment["CHANNEL_BENCH_POSTS"] ?? "") ?? (BenchmarkMethod.isCheck ? 2_000 : 50_000)
            let result = try await ChannelCatchUp.run(posts: posts, rounds: rounds)
            let ours = result.comparison.ours
            let bulk = BenchmarkSupport.Measurement(
                name: "insert", times: result.extras.map(\.bulk), items: Double(posts), unit: "msgs")
            let bulkByGroup = BenchmarkSupport.Measurement(
                name: "insert by 5,000", times: result.extras.map(\.bulkByGroup), items: Double(posts), unit: "msgs")
            // The insert rows: each timed round's insert ran right after that round's catch-up (ours first).
            func againstInsert(_ workload: String, _ insert: [Double], _ m: BenchmarkSupport.Measurement) -> Comparison
            {
                Comparison(
                    workload, ours: ours, peer: m, roundRatios: zip(result.extras.map(\.ours), insert).map { $1 / $0 },
                    goal: workload.contains("1,000") ? "≥ 0.5×" : "")
            }
            printTable(
                title: "Catch-up of \(posts) channel posts (in-process tg-server), interleaved rounds",
                peerName: "peer",
                [
                    Comparison(
                        "ours: getChannelDifference (100 a call) into Postbox, a fresh subscriber each round, vs "
                            + "Telethon 1.45 + cryptg fetching and parsing the same difference with the same limit",
                        ours: ours, peer: result.comparison.peer, roundRatios: result.comparison.roundRatios,
                        goal: "≥ 2×"),
                    againstInsert(
                        "the same catch-up vs Postbox's own insert of what it stored, 1,000 a transaction (right after "
                            + "ours in each round)", result.extras.map(\.bulk), bulk),
                    againstInsert(
                        "the same, 5,000 a transaction (50 slices, a channel catch-up's group)",
                        result.extras.map(\.bulkByGroup), bulkByGroup),
                ])
            let differences = result.extras.map(\.differences)
            print(
                "\nchannel differences per catch-up: \(differences); seconds in batch transactions: "
                    + result.extras.map { String(format: "%.2f", $0.apply) }.joined(separator: ", ")
                    + "; per channel difference, ms (round trip / wait for the queue / the queue's handling, writes "
                    + "included): "
                    + result.extras.map {
                        String(
                            format: "%.2f / %.2f / %.2f", $0.roundTrips * 1000 / Double($0.differences),
                            $0.queueWaits * 1000 / Double($0.differences), $0.handling * 1000 / Double($0.differences))
                    }.joined(separator: ", ")
                    + "; Postbox writer CPU per transaction, ms (the catch-up's / the insert's by 5,000): "
                    + result.extras.map {
                        String(format: "%.2f / %.2f", $0.writerCPU * 1000, $0.byGroupWriterCPU * 1000)
                    }.joined(separator: ", ")
                    + "; every round's posts matched Telethon's and the writer's (count and SHA-256 of id and text)")
        }

        if parts.contains("participants") {
            let result = try ParticipantPages.run(members: 10_000, passes: max(rounds, 5))
            print(
                String(
                    format:
                        "\n### channels.getParticipants over %d members, limit 200 (%.1f s to sign up and invite them)\n",
                    result.members, result.setupSeconds))
            print("| pages | per page, median (min–max) | first page (offset 0), median | last page, median |")
            print("|---:|---:|---:|---:|")
            print(
                "| \(result.pages.count) | \(spread(result.pages.map { $0 * 1000 })) ms | "
                    + String(
                        format: "%.2f ms | %.2f ms |", percentile(result.firstPages, 0.5) * 1000,
                        percentile(result.lastPages, 0.5) * 1000))
        }
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
    }

    /// "median (min–max)".
    static func spread(_ values: [Double]) -> String {
        let sorted = values.sorted()
        guard let first = sorted.first, let last = sorted.last else { return "-" }
        return String(format: "%.2f (%.2f–%.2f)", percentile(sorted, 0.5), first, last)
    }
}
