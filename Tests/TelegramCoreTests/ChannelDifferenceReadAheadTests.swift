import AccountNetworking
import Foundation
import SwiftSignalKit
import TLRuntime
import TelegramApi
import TelegramCore
import Testing

/// `ChannelDifferenceReadAhead`: once a slice's bytes are in, the next slice (its `pts`, read from the answer's first
/// bytes) is asked for at once; the manager's ask for it takes that call; a final slice, an empty difference or an
/// ask from another pts read nothing ahead (the one kept is dropped).
@Suite struct ChannelDifferenceReadAheadTests {
    static let channel = Api.InputChannel.inputChannel(.init(channelId: 900, accessHash: 9))

    /// The server: from pts 10 a slice to 20, from 20 the final slice to 30, from 30 nothing new; 10 ms each.
    static func server() -> ScriptedNetwork {
        ScriptedNetwork { function in
            var reader = TLReader(function.serialized())
            guard case let call as Api.functions.updates.getChannelDifference = try? Api.functions.parse(&reader)
            else { return NetworkError.connectionClosed }
            Thread.sleep(forTimeInterval: 0.01)
            let answer: Api.updates.ChannelDifference =
                switch call.pts {
                case 10:
                    .channelDifference(
                        .init(
                            final: false, pts: 20, timeout: 30, newMessages: [], otherUpdates: [], chats: [], users: [])
                    )
                case 20:
                    .channelDifference(
                        .init(
                            final: true, pts: 30, timeout: 30, newMessages: [], otherUpdates: [], chats: [], users: []))
                default: .channelDifferenceEmpty(.init(final: true, pts: call.pts, timeout: 30))
                }
            return answer.serialized()
        }
    }

    static func askedPts(_ network: ScriptedNetwork) -> [Int32] {
        network.calls.compactMap { function in
            var reader = TLReader(function.serialized())
            return (try? Api.functions.parse(&reader) as? Api.functions.updates.getChannelDifference)?.pts
        }
    }

    @Test func theNextSliceIsAskedOnceTheAnswerIsInAndTakenWhenAskedFor() async throws {
        let network = Self.server()
        let readAhead = ChannelDifferenceReadAhead(network: network)
        guard case .channelDifference(let first) = try await readAhead.difference(Self.channel, pts: 10) else {
            Issue.record("not a slice")
            return
        }
        #expect(first.pts == 20 && !first.final)
        // Asked ahead before anyone asks for it.
        try await waitUntil { Self.askedPts(network) == [10, 20] }
        guard case .channelDifference(let second) = try await readAhead.difference(Self.channel, pts: 20) else {
            Issue.record("not the final slice")
            return
        }
        #expect(second.pts == 30 && second.final)
        // The final slice reads nothing ahead; the ask from 20 made no call of its own.
        try await Task.sleep(for: .milliseconds(50))
        #expect(Self.askedPts(network) == [10, 20])
        let statistics = readAhead.statistics
        #expect(statistics.asked == 2 && statistics.takenAhead == 1 && statistics.dropped == 0)
    }

    @Test func anAskFromAnotherPtsDropsWhatWasReadAhead() async throws {
        let network = Self.server()
        let readAhead = ChannelDifferenceReadAhead(network: network)
        _ = try await readAhead.difference(Self.channel, pts: 10)
        try await waitUntil { Self.askedPts(network) == [10, 20] }
        // The manager asks from 30 instead (it learned of pts 30 another way): a call of its own, the kept one dropped.
        guard case .channelDifferenceEmpty = try await readAhead.difference(Self.channel, pts: 30) else {
            Issue.record("not empty")
            return
        }
        #expect(Self.askedPts(network) == [10, 20, 30])
        let statistics = readAhead.statistics
        #expect(statistics.asked == 2 && statistics.takenAhead == 0 && statistics.dropped == 1)
    }
}
