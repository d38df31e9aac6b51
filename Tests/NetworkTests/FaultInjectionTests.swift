import AccountNetworking
import CryptoUtils
import Foundation
import MTProtoServer
import MTProtoTransport
import NIOCore
import NIOPosix
@testable import Network
import ServerTestSupport
import TLRuntime
import TelegramApi
import Testing

/// A session that survives its sockets, through a proxy that breaks them on purpose: under each fault a scripted run
/// of `messages.sendMessage` calls with distinct `random_id`s completes with every call answered exactly once and no
/// message stored twice.
@Suite(.serialized) struct FaultInjectionTests {
    struct World {
        let backend: BackendServer
        let alice: MTProtoConnection
        let bobPeer: Api.InputPeer
    }

    /// `clock`: the server's sessions' clock.
    static func world(
        clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) async throws -> World {
        let backend = try await BackendServer(clock: clock)
        let alice = try await backend.connect()
        let bob = try await backend.connect()
        _ = try await BackendServer.signUp(alice, phone: "9996625001", name: "Alice")
        guard case .user(let bobUser) = try await BackendServer.signUp(bob, phone: "9996625002", name: "Bob"),
            let hash = bobUser.accessHash
        else { throw CancellationError() }
        await bob.close()
        return World(backend: backend, alice: alice, bobPeer: .inputPeerUser(.init(userId: bobUser.id, accessHash: hash)))
    }

    /// Sends `count` messages through `connection`, `window` at a time; returns how many answers each random id got.
    static func sendMessages(
        _ count: Int, window: Int, through connection: DatacenterConnection, to peer: Api.InputPeer, firstRandomId: Int64
    ) async throws -> [Int64: Int] {
        var answers: [Int64: Int] = [:]
        var next = 0
        while next < count {
            let batch = next..<min(count, next + window)
            let done = try await withThrowingTaskGroup(of: Int64.self) { tasks in
                for index in batch {
                    let randomId = firstRandomId + Int64(index)
                    tasks.addTask {
                        let updates = try await connection.invoke(
                            Api.functions.messages.sendMessage(peer: peer, message: "fault \(randomId)", randomId: randomId),
                            timeout: 60)
                        guard case .updateShortSentMessage = updates else { throw CancellationError() }
                        return randomId
                    }
                }
                var ids: [Int64] = []
                for try await id in tasks { ids.append(id) }
                return ids
            }
            for id in done { answers[id, default: 0] += 1 }
            next = batch.upperBound
        }
        return answers
    }

    /// The texts of every message in Alice's chat with Bob.
    static func storedTexts(_ world: World) async throws -> [String] {
        var texts: [String] = []
        var offset: Int32 = 0
        while true {
            let page = try await world.alice.invoke(
                Api.functions.messages.getHistory(
                    peer: world.bobPeer, offsetId: offset, offsetDate: 0, addOffset: 0, limit: 100, maxId: 0, minId: 0, hash: 0))
            let messages: [Api.Message]
            switch page {
            case .messages(let m): messages = m.messages
            case .messagesSlice(let m): messages = m.messages
            default: messages = []
            }
            let page_ = messages.compactMap { message -> (Int32, String)? in
                if case .message(let m) = message { return (m.id, m.message) }
                return nil
            }
            guard let last = page_.last else { break }
            texts += page_.map(\.1)
            offset = last.0
        }
        return texts
    }

    /// With `callersOnLoop`, the session runs on one event loop and the sending tasks on that loop too
    /// (`EventLoopTaskExecutor`): calls are queued and answered without crossing threads.
    static func run(
        _ mode: FaultProxy.Mode, count: Int, window: Int, seed: UInt64, options: DatacenterConnection.Options,
        callersOnLoop: Bool = false
    ) async throws {
        let world = try await Self.world()
        let upstream = try #require(world.backend.endpoints[2]).port
        let proxy = try await FaultProxy(upstreamPort: upstream, mode: mode, seed: seed, group: world.backend.group)
        let endpoint = MTProtoConnection.Endpoint(host: "127.0.0.1", port: proxy.port, dcId: 2)
        let loop = world.backend.group.next()
        let connection = try await DatacenterConnection.open(
            to: endpoint, key: world.alice.key, group: callersOnLoop ? loop : world.backend.group, options: options)
        let answers = callersOnLoop
            ? try await withTaskExecutorPreference(EventLoopTaskExecutor(loop)) {
                try await Self.sendMessages(count, window: window, through: connection, to: world.bobPeer, firstRandomId: 1)
            }
            : try await Self.sendMessages(count, window: window, through: connection, to: world.bobPeer, firstRandomId: 1)
        #expect(answers.count == count, "\(mode): \(answers.count) of \(count) answered")
        #expect(answers.values.allSatisfy { $0 == 1 })
        if callersOnLoop {
            #expect(await connection.callsQueuedOnLoopCount() == count, "\(mode): a call on the loop hopped")
        }
        let texts = try await Self.storedTexts(world)
        #expect(texts.count == count, "\(mode): \(texts.count) stored for \(count) sent")
        #expect(Set(texts).count == texts.count, "\(mode): a message was stored twice")
        if mode != .pass && mode != .trickle {
            #expect(proxy.faults > 0 && connection.socketCount > 1, "\(mode): no fault happened")
        }
        await connection.close()
        await proxy.close()
        await world.alice.close()
        try await world.backend.close()
    }

    /// A world whose DC 2 is reached through a proxy that swallows everything on its first socket (`seed` for the
    /// proxy), with options under which a session waits on that silent socket for 30 s rather than replacing it.
    static func blackholedFirstSocket(seed: UInt64) async throws -> (world: World, proxy: FaultProxy, options: DatacenterConnection.Options) {
        let world = try await Self.world()
        let upstream = try #require(world.backend.endpoints[2]).port
        let proxy = try await FaultProxy(upstreamPort: upstream, mode: .blackhole(count: 1), seed: seed, group: world.backend.group)
        var options = Self.fastOptions
        options.silenceTimeout = 30
        return (world, proxy, options)
    }

    static var fastOptions: DatacenterConnection.Options {
        var options = DatacenterConnection.Options()
        options.silenceTimeout = 1.5
        options.reconnect = .init(initialDelay: 0.02, maximumDelay: 0.5, multiplier: 2, jitter: 0.3, stableAfter: 5)
        return options
    }

    @Test func droppedConnectionsMidRequest() async throws {
        try await Self.run(.drop(maximumBytes: 4_000), count: 500, window: 16, seed: 11, options: Self.fastOptions)
    }

    @Test func droppedConnectionsMidRequestWithTheCallersOnTheSessionsLoop() async throws {
        try await Self.run(.drop(maximumBytes: 4_000), count: 500, window: 16, seed: 16, options: Self.fastOptions, callersOnLoop: true)
    }

    @Test func everyByteAsItsOwnWrite() async throws {
        try await Self.run(.trickle, count: 500, window: 16, seed: 12, options: Self.fastOptions)
    }

    @Test func stalledSocketsAreReplacedByTheWatchdog() async throws {
        try await Self.run(.stall(maximumBytes: 6_000), count: 500, window: 16, seed: 13, options: Self.fastOptions)
    }

    /// A call's timeout has no timer of its own: the watchdog's once-a-second tick fails it, so against sockets that
    /// swallow everything it ends with `timedOut` between its timeout and a second (plus scheduling) later.
    @Test func aCallPastItsTimeoutFailsWithinASecondOfIt() async throws {
        let world = try await Self.world()
        let upstream = try #require(world.backend.endpoints[2]).port
        let proxy = try await FaultProxy(upstreamPort: upstream, mode: .blackhole(count: 1_000), seed: 15, group: world.backend.group)
        let connection = try await DatacenterConnection.open(
            to: MTProtoConnection.Endpoint(host: "127.0.0.1", port: proxy.port, dcId: 2), key: world.alice.key,
            group: world.backend.group, options: Self.fastOptions)
        let start = Date()
        await #expect(throws: NetworkError.timedOut(1.5)) {
            _ = try await connection.invoke(Api.functions.help.getNearestDc(), timeout: 1.5)
        }
        let elapsed = Date().timeIntervalSince(start)
        #expect(elapsed >= 1.5 && elapsed < 4, "timed out after \(elapsed) s")
        await connection.close()
        await proxy.close()
        await world.alice.close()
        try await world.backend.close()
    }

    /// The other side of the watchdog: an idle socket whose keepalives are answered is kept, however long it idles.
    @Test func anIdleAnsweredSocketIsKept() async throws {
        let world = try await Self.world()
        var options = Self.fastOptions
        options.keepaliveInterval = 0.5
        let connection = try await DatacenterConnection.open(
            to: try #require(world.backend.endpoints[2]), key: world.alice.key, group: world.backend.group, options: options)
        _ = try await connection.invoke(Api.functions.help.getNearestDc())
        try await Task.sleep(for: .seconds(6))
        #expect(connection.socketCount == 1, "an idle, answering socket was replaced \(connection.socketCount - 1) times")
        await connection.close()
        await world.alice.close()
        try await world.backend.close()
    }

    @Test func aBlackHoledSocketIsReplaced() async throws {
        try await Self.run(.blackhole(count: 1), count: 500, window: 16, seed: 14, options: Self.fastOptions)
    }
}
