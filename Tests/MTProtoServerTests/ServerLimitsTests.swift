import CryptoUtils
import Foundation
import MTProtoApi
import MTProtoCore
import MTProtoServer
import MTProtoTransport
import NIOCore
import NIOPosix
import TLRuntime
import TelegramApi
import Testing

/// The server's bounds over real sockets on 127.0.0.1: timeouts, connection caps, calls in flight, clients that do
/// not read, and key exchanges kept off the event loops.
@Suite(.serialized) struct ServerLimitsTests {
    static let call = Api.functions.help.getNearestDc().serialized()
    /// The most a connection closed by a 0.5 s timeout may live in these tests: the shortest default such a timeout
    /// replaces (frames 20 s; idle is 300 s), so a lifetime below it can only come from the timeout under test.
    /// Lifetimes are timed on the client's side of the same process, and a loaded machine stretches them a lot (6.8 s
    /// was seen at load 10, 15.6 s in CI with the live suites running together), so a tighter bound would fail on
    /// the machine's load rather than on the server.
    static let shortTimeoutBound = ServerLimits().frameTimeout
    /// The frame timeout of the tests that time how fast a refused connection is closed: far above
    /// `shortTimeoutBound`, so a refused connection left to its frame timeout fails them however loaded the machine.
    static let longFrameTimeout = 120.0

    @Test func aStalledOrTrickledHalfFrameIsClosedAfterTheFrameTimeout() async throws {
        var limits = ServerLimits()
        limits.frameTimeout = 0.5
        let fixture = ServerFixture()
        try await fixture.start(limits: limits)
        // Abridged: a frame that claims 100 words, of which 10 bytes arrive.
        let (stalled, stalledRecorder) = try await fixture.rawBytes([0xef, 100] + [UInt8](repeating: 1, count: 10))
        #expect(await stalledRecorder.wait { $0.closed })
        let lifetime = try #require(stalledRecorder.lifetime)
        #expect(lifetime >= 0.45 && lifetime < Self.shortTimeoutBound, "a stalled half frame lived \(lifetime) s")
        // Trickling a byte every 100 ms does not extend the deadline: it counts from the frame's first byte.
        let (trickle, trickleRecorder) = try await fixture.rawBytes([0xef, 100])
        let trickleStart = Date()
        while !trickleRecorder.snapshot.closed, Date().timeIntervalSince(trickleStart) < 30 {
            try? await trickle.writeAndFlush(ByteBuffer(bytes: [1]))
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        #expect(trickleRecorder.snapshot.closed)
        let trickled = try #require(trickleRecorder.lifetime)
        #expect(trickled < Self.shortTimeoutBound, "a trickled half frame lived \(trickled) s")
        // A connection that never says which transport it speaks is closed too.
        let (silent, silentRecorder) = try await fixture.rawBytes([])
        #expect(await silentRecorder.wait { $0.closed })
        let silentLifetime = try #require(silentRecorder.lifetime)
        #expect(silentLifetime < Self.shortTimeoutBound, "a silent connection lived \(silentLifetime) s")
        for channel in [stalled, trickle, silent] { try? await channel.close() }
        try await fixture.stop()
    }

    @Test func anIdleConnectionIsClosedAfterTheIdleTimeout() async throws {
        var limits = ServerLimits()
        limits.idleTimeout = 0.5
        let fixture = ServerFixture()
        try await fixture.start(limits: limits)
        let (channel, recorder) = try await fixture.rawBytes([0xee, 0xee, 0xee, 0xee])  // intermediate, no frame
        #expect(await recorder.wait { $0.closed })
        let lifetime = try #require(recorder.lifetime)
        #expect(lifetime >= 0.45 && lifetime < Self.shortTimeoutBound, "an idle connection lived \(lifetime) s")
        try? await channel.close()
        try await fixture.stop()
    }

    /// A refused connection is closed at once, having read at most transport error −429 in its own framing (said
    /// when its first bytes came with it, which on a loaded machine the test cannot make sure of).
    static func refusedAtOnce(_ recorder: Recorder) async -> Bool {
        // Well below the frame timeout (`longFrameTimeout` here) that used to close a refused connection that never
        // spoke.
        guard await recorder.wait(timeout: Self.shortTimeoutBound, until: { $0.closed }) else { return false }
        let frames = recorder.snapshot.frames
        return frames.isEmpty || frames == [.transportError(-429)]
    }

    @Test func connectionsPastTheCapsGetMinus429() async throws {
        var limits = ServerLimits()
        limits.maximumConnectionsPerAddress = 3
        limits.frameTimeout = Self.longFrameTimeout
        let fixture = ServerFixture()
        try await fixture.start(limits: limits)
        var admitted: [(any Channel, Recorder)] = []
        // Connections count from the moment they are accepted, silent or not.
        admitted.append(try await fixture.rawBytes([]))
        for _ in 0..<2 { admitted.append(try await fixture.rawBytes([0xee, 0xee, 0xee, 0xee])) }
        #expect(await eventually { fixture.server.connections.openConnections == 3 })
        let (refused, refusedRecorder) = try await fixture.rawBytes([0xee, 0xee, 0xee, 0xee])
        #expect(await Self.refusedAtOnce(refusedRecorder), "\(refusedRecorder.snapshot)")
        // One past the cap that never speaks is closed too, at once (it used to stay open until its frame timeout).
        let (silent, silentRecorder) = try await fixture.rawBytes([])
        #expect(await Self.refusedAtOnce(silentRecorder), "\(silentRecorder.snapshot)")
        // An obfuscated client is refused in its own (encrypted) framing, on its header alone (sent on connecting).
        let obfuscatedRecorder = Recorder()
        let obfuscated = try await TransportClient.connect(
            host: "127.0.0.1", port: fixture.port, framing: .intermediate, obfuscation: .obfuscated2(dcId: 2),
            group: fixture.group) { _ in [obfuscatedRecorder] }
        #expect(await Self.refusedAtOnce(obfuscatedRecorder), "\(obfuscatedRecorder.snapshot)")
        // Closing one admitted connection makes room for the next.
        try await admitted.removeFirst().0.close()
        #expect(await eventually { fixture.server.connections.openConnections == 2 })
        let (next, nextRecorder) = try await fixture.rawBytes([0xee, 0xee, 0xee, 0xee])
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(!nextRecorder.snapshot.closed && nextRecorder.snapshot.frames.isEmpty)
        #expect(fixture.server.connections.refused == 3)
        for (channel, _) in admitted + [(next, nextRecorder), (refused, refusedRecorder), (silent, silentRecorder)] {
            try? await channel.close()
        }
        try? await obfuscated.close()
        try await fixture.stop()
    }

    @Test func theGlobalCapCountsEveryDataCenter() async throws {
        var limits = ServerLimits()
        limits.maximumConnections = 2
        limits.frameTimeout = Self.longFrameTimeout
        let fixture = ServerFixture()
        try await fixture.start(limits: limits)
        var open: [any Channel] = []
        for dc in [0, 2] {
            let recorder = Recorder()
            let channel = try await ClientBootstrap(group: fixture.group)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(recorder)
                    }
                }
                .connect(host: "127.0.0.1", port: fixture.server.dataCenters[dc].port).get()
            try await channel.writeAndFlush(ByteBuffer(bytes: [0xee, 0xee, 0xee, 0xee]))
            open.append(channel)
        }
        #expect(await eventually { fixture.server.connections.openConnections == 2 })
        let (third, recorder) = try await fixture.rawBytes([0xee, 0xee, 0xee, 0xee])
        #expect(await Self.refusedAtOnce(recorder), "\(recorder.snapshot)")
        for channel in open + [third] { try? await channel.close() }
        try await fixture.stop()
    }

    @Test func callsInFlightAreCappedPerConnection() async throws {
        var limits = ServerLimits()
        limits.maximumCallsInFlight = 4
        let probe = ProbeHandler(holding: true)
        let fixture = ServerFixture()
        try await fixture.start(limits: limits, handler: probe)
        let key = try await fixture.createKey()
        let connection = try await fixture.session(key)
        for _ in 0..<20 { try await connection.send(Self.call, flush: false) }
        connection.channel.flush()
        #expect(await eventually { probe.started == 4 })
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(probe.started == 4, "the server started \(probe.started) calls with 4 allowed in flight")
        probe.release()
        #expect(try await connection.waitForResults(20) == 20)
        #expect(probe.started == 20)
        await connection.close()
        try await fixture.stop()
    }

    @Test func aClientThatDoesNotReadStopsTheServerReadingIt() async throws {
        // Each answer is 256 KB; 120 calls would be 30 MB if the server kept answering into its buffer.
        let probe = ProbeHandler(resultSize: 256 * 1024)
        let fixture = ServerFixture()
        try await fixture.start(handler: probe)
        let key = try await fixture.createKey()
        let connection = try await fixture.session(key)
        try await connection.channel.setOption(ChannelOptions.autoRead, value: false).get()
        for _ in 0..<120 { try await connection.send(Self.call, flush: false) }
        connection.channel.flush()
        try await Task.sleep(nanoseconds: 1_500_000_000)
        let startedWhileBlocked = probe.started
        // What fits in the kernel's loopback buffers and the server's 1 MiB write buffer, not all 120.
        #expect(startedWhileBlocked < 80, "the server answered \(startedWhileBlocked) calls to a client that reads nothing")
        try await connection.channel.setOption(ChannelOptions.autoRead, value: true).get()
        connection.channel.read()
        #expect(try await connection.waitForResults(120, timeout: 60) == 120)
        await connection.close()
        try await fixture.stop()
    }

    @Test func keyExchangesWaitForBoundedWorkersAndNeverBlockTheLoop() async throws {
        var limits = ServerLimits()
        limits.keyExchangeWorkers = 1
        limits.maximumQueuedKeyExchanges = 2
        let fixture = ServerFixture()
        try await fixture.start(limits: limits)
        let key = try await fixture.createKey()
        // Occupy the one worker.
        let gate = DispatchSemaphore(value: 0)
        let loop = fixture.group.next()
        let blocker = fixture.server.keyExchangeWorkers.submit(on: loop) { gate.wait() }
        // A new exchange waits for the worker: its req_pq gets no answer yet ...
        let (waiting, waitingRecorder) = try await fixture.framed()
        var exchange = AuthKeyClientExchange(publicKeys: [fixture.server.keys.rsaKey.publicKey], dcId: 2)
        var ids = MessageIdGenerator()
        let start = PlainMessage(messageId: ids.next(.client, now: Date().timeIntervalSince1970), body: exchange.start())
        try await waiting.writeAndFlush(TransportFrame.packet(ByteBuffer(bytes: start.serialized())))
        // ... while an established session on the same event loops is answered at once.
        #expect(try await fixture.goodConnectionWorks(key))
        #expect(waitingRecorder.snapshot.frames.isEmpty)
        // The queue now holds the blocker and that step: a third exchange is refused with -429.
        let (refused, refusedRecorder) = try await fixture.framed()
        var other = AuthKeyClientExchange(publicKeys: [fixture.server.keys.rsaKey.publicKey], dcId: 2)
        let otherStart = PlainMessage(messageId: ids.next(.client, now: Date().timeIntervalSince1970), body: other.start())
        try await refused.writeAndFlush(TransportFrame.packet(ByteBuffer(bytes: otherStart.serialized())))
        #expect(await refusedRecorder.wait { $0.closed })
        #expect(refusedRecorder.snapshot.frames == [.transportError(-429)])
        // Released, the waiting exchange gets its resPQ.
        gate.signal()
        try await blocker.get()
        #expect(await waitingRecorder.wait { !$0.frames.isEmpty })
        try? await waiting.close()
        try? await refused.close()
        try await fixture.stop()
    }

    @Test func keysNeverUsedExpireAndThenGetMinus404() async throws {
        let fixture = ServerFixture()
        try await fixture.start()
        let used = try await fixture.createKey()
        #expect(try await fixture.goodConnectionWorks(used))
        let unused = try await fixture.createKey()
        #expect(fixture.server.keys.unconfirmedKeyCount == 1)
        let swept = fixture.server.keys.sweep(now: Date().timeIntervalSince1970 + ServerLimits().unconfirmedKeyLifetime + 1)
        #expect(swept.unconfirmed == 1)
        #expect(fixture.server.keys.authKey(id: unused.authKey.id) == nil)
        #expect(fixture.server.keys.authKey(id: used.authKey.id) != nil)
        let (channel, recorder) = try await fixture.framed()
        var session = ClientSession(authKey: unused.authKey, salt: unused.serverSalt, timeOffset: unused.timeOffset)
        for packet in try session.send(MTProto.functions.ping(pingId: 1).serialized(), now: Date().timeIntervalSince1970).packets {
            try await channel.writeAndFlush(TransportFrame.packet(ByteBuffer(bytes: packet)))
        }
        #expect(await recorder.wait { $0.closed })
        #expect(recorder.snapshot.frames == [.transportError(-404)])
        try await fixture.stop()
    }
}
