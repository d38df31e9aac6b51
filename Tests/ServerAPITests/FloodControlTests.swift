import Foundation
import MTProtoServer
import ServerAPI
import TLRuntime
import TelegramApi
import Testing

/// Flood control through the handler on a clock the test moves: the sending budget and the test floods.
@Suite struct FloodControlTests {
    /// A clock the test sets.
    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Double = 1_800_000_000
        var now: Double { lock.withLock { value } }
        func advance(_ seconds: Double) { lock.withLock { value += seconds } }
    }

    @Test func sendingPastTheBurstWaitsAsLongAsTheBudgetNeedsToRefill() async throws {
        let clock = Clock()
        let harness = try ServerBackendTests.Harness(
            flood: .init(messagesPerSecond: 2, messageBurst: 5), clock: { clock.now })
        _ = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        let ben = try await harness.signUp("9996620002", name: "Ben", key: 2, dc: 2)
        let peer = Api.InputPeer.inputPeerUser(.init(userId: ben.id, accessHash: ben.accessHash))
        var randomId: Int64 = 0
        func send() async -> String? {
            randomId += 1
            return ServerBackendTests.error(
                await harness.call(
                    Api.functions.messages.sendMessage(peer: peer, message: "m\(randomId)", randomId: randomId), key: 1,
                    dc: 2))
        }
        for _ in 0..<5 { #expect(await send() == nil) }
        #expect(await send() == "FLOOD_WAIT_1")
        // Ben's own budget is untouched by Ann's.
        let ann = Api.InputPeer.inputPeerSelf
        #expect(
            ServerBackendTests.error(
                await harness.call(
                    Api.functions.messages.sendMessage(peer: ann, message: "note", randomId: 999), key: 2, dc: 2))
                == nil)
        // 1.5 s at 2 a second refills three tokens.
        clock.advance(1.5)
        #expect(await send() == nil)
        #expect(await send() == nil)
        #expect(await send() == nil)
        #expect(await send() == "FLOOD_WAIT_1")
        clock.advance(10)
        for _ in 0..<5 { #expect(await send() == nil) }
        let history = try await harness.result(
            Api.functions.messages.getHistory(
                peer: peer, offsetId: 0, offsetDate: 0, addOffset: 0, limit: 100, maxId: 0, minId: 0, hash: 0),
            as: Api.messages.Messages.self, key: 1, dc: 2)
        let messages = try #require({ if case .messages(let m) = history { return m } else { return nil } }())
        // 5 + 3 + 5 sent; the refused ones were not stored.
        #expect(messages.messages.count == 13)
    }

    @Test func aTestFloodAnswersUntilTheClientWaitsAsTold() async throws {
        let clock = Clock()
        let harness = try ServerBackendTests.Harness(
            flood: .init(testFloods: ["help.getNearestDc": 3]), clock: { clock.now })
        let call = Api.functions.help.getNearestDc()
        #expect(ServerBackendTests.error(await harness.call(call, key: 1, dc: 2)) == "FLOOD_WAIT_3")
        clock.advance(1)
        #expect(ServerBackendTests.error(await harness.call(call, key: 1, dc: 2)) == "FLOOD_WAIT_2")
        // Another key has its own flood; other methods are not touched.
        #expect(ServerBackendTests.error(await harness.call(call, key: 2, dc: 2)) == "FLOOD_WAIT_3")
        #expect(ServerBackendTests.error(await harness.call(Api.functions.help.getConfig(), key: 1, dc: 2)) == nil)
        clock.advance(2)
        let served = await harness.call(call, key: 1, dc: 2)
        let bytes = try #require({ if case .result(let b) = served { return b } else { return nil } }())
        let nearest = try #require(
            { () throws -> Api.NearestDc.Cons_nearestDc? in
                if case .nearestDc(let n) = try Api.NearestDc(tlBytes: bytes) { return n } else { return nil }
            }())
        #expect(nearest.thisDc == 2)
        #expect(ServerBackendTests.error(await harness.call(call, key: 1, dc: 2)) == nil)
    }

    /// Calls run on many RPC workers, each reading the clock before it takes the flood lock: a call that read it
    /// just before the one that recorded the flood must still be told the configured wait, never more (it was told
    /// FLOOD_WAIT_2 for a 1 s flood under load: `RequestBatchLiveTests` failed so).
    @Test func aCallThatReadTheClockBeforeTheFloodWasRecordedWaitsNoLongerThanConfigured() async throws {
        let clock = Clock()
        let harness = try ServerBackendTests.Harness(
            flood: .init(testFloods: ["help.getNearestDc": 1]), clock: { clock.now })
        let call = Api.functions.help.getNearestDc()
        #expect(ServerBackendTests.error(await harness.call(call, key: 1, dc: 2)) == "FLOOD_WAIT_1")
        clock.advance(-0.3)
        #expect(ServerBackendTests.error(await harness.call(call, key: 1, dc: 2)) == "FLOOD_WAIT_1")
    }
}
