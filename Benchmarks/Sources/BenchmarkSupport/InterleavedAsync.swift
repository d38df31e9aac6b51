import Foundation

/// `compareInterleaved` for sides that are asynchronous (an account catching up, a view waiting for a message): the
/// same method — a warm-up of each side whose outputs must be equal, then rounds alternating which side goes first,
/// every output checked — awaited instead of blocking a thread of Swift's cooperative pool. `isolation` is the
/// caller's (`#isolation`), so the two sides run where they were written and nothing is sent across actors.
public func compareInterleaved<Output: Equatable>(
    _ workload: String, items: Double, unit: String, rounds: Int = 7, goal: String = "",
    isolation: isolated (any Actor)? = #isolation,
    oursAsync: () async throws -> TimedRun<Output>, peerAsync: () async throws -> TimedRun<Output>
) async throws -> Comparison {
    try await compareInterleavedRounds(
        workload, items: items, unit: unit, rounds: rounds, goal: goal, isolation: isolation,
        oursAsync: { _ in try await oursAsync() },
        peerAsync: { _ in try await peerAsync() })
}

/// `compareInterleavedRounds` for asynchronous sides: each side is called with the round's number (0 for the
/// warm-up, then 1, 2, …) and must give the same input the same output, compared round by round.
public func compareInterleavedRounds<Output: Equatable>(
    _ workload: String, items: Double, unit: String, rounds: Int = 7, goal: String = "",
    isolation: isolated (any Actor)? = #isolation,
    oursAsync: (Int) async throws -> TimedRun<Output>, peerAsync: (Int) async throws -> TimedRun<Output>
) async throws -> Comparison {
    var times = RoundTimes()
    for round in 0...BenchmarkMethod.rounds(rounds) {
        let ours: TimedRun<Output>
        let peer: TimedRun<Output>
        if round % 2 == 0 {
            ours = try await oursAsync(round)
            peer = try await peerAsync(round)
        } else {
            peer = try await peerAsync(round)
            ours = try await oursAsync(round)
        }
        times.add(round: round, of: workload, ours: ours, peer: peer)
    }
    return times.comparison(workload, items: items, unit: unit, goal: goal)
}

extension PeerProcess {
    /// `ask(_:)` on a thread of its own: the pipe is read without blocking Swift's cooperative pool, which an
    /// in-process server and our own client need while the peer works.
    public func askOffPool(
        _ command: [String: Any], isolation: isolated (any Actor)? = #isolation
    ) async throws -> [String: Any] {
        let call = PeerCall(peer: self, value: command)
        let answer = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<PeerCall, Error>) in
            Thread.detachNewThread {
                do {
                    continuation.resume(returning: PeerCall(peer: call.peer, value: try call.peer.ask(call.value)))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
        return answer.value
    }

    /// `timed(_:)` off the cooperative pool (`askOffPool`): the peer answers `{"seconds": …, "output": "…"}`.
    public func timedOffPool(
        _ command: [String: Any], isolation: isolated (any Actor)? = #isolation
    ) async throws -> TimedRun<String> {
        let answer = try await askOffPool(command, isolation: isolation)
        guard let seconds = answer["seconds"] as? Double, let output = answer["output"] as? String else {
            throw ScriptFailure(script: "peer", status: 0, output: "answer without seconds and output: \(answer)")
        }
        return TimedRun(seconds: seconds, output: output)
    }
}

/// A peer and a JSON object handed between threads: the caller awaits the answer, so only one thread uses the peer
/// at a time, and the object's values are plain JSON types, never mutated after.
private struct PeerCall: @unchecked Sendable {
    let peer: PeerProcess
    let value: [String: Any]
}
