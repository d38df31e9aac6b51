import AccountNetworking
import CryptoUtils
import MTProtoApi
import MTProtoCore
@testable import Network
import TLRuntime
import Testing

/// `DatacenterConnectionMachine` alone: events and a virtual `now` in, actions out — no socket, no timer, no sleep.
/// The server's side is a `ServerSession` fed the machine's packets, so answers, acknowledgements and new sessions are
/// real MTProto.
@Suite struct DatacenterConnectionMachineTests {
    typealias Machine = DatacenterConnectionMachine<Int, String>
    static let t0: Double = 1_800_000_000
    static let first = Machine.firstSocket

    // MARK: - Sockets and backoff

    @Test func reconnectBackoffGrowsWhileConnectsFailAndResetsOnceASocketCarriesPackets() throws {
        var wire = Wire()
        var now = Self.t0
        #expect(wire.machine.socketOpened(Self.first, now: now).states == [.online])
        now += 1
        var actions = wire.machine.socketClosed(Self.first, now: now)
        #expect(actions.states == [.connecting])
        var delays: [Double] = []
        // Each failed connect doubles the wait, up to `maximumDelay` (8 s); the jitter is 0 with this randomness.
        for _ in 0..<9 {
            let deadline = try #require(actions.timers[.reconnect])
            delays.append(deadline - now)
            now = deadline
            let id = try #require(wire.machine.timerFired(.reconnect, now: now).opened.first)
            actions = wire.machine.connectFailed(id, now: now)
            #expect(actions.states == [.waitingForNetwork])
        }
        #expect(delays.map { ($0 * 1000).rounded() / 1000 } == [0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 6.4, 8, 8])

        // A socket that lives 1 s and carries nothing does not reset it…
        now = try #require(actions.timers[.reconnect])
        var id = try #require(wire.machine.timerFired(.reconnect, now: now).opened.first)
        #expect(wire.machine.socketOpened(id, now: now).states == [.online])
        now += 1
        actions = wire.machine.socketClosed(id, now: now)
        #expect(abs(try #require(actions.timers[.reconnect]) - now - 8) < 1e-3)

        // …one that carries a packet (even one that fails its checks) does.
        now = try #require(actions.timers[.reconnect])
        id = try #require(wire.machine.timerFired(.reconnect, now: now).opened.first)
        _ = wire.machine.socketOpened(id, now: now)
        #expect(wire.machine.packetReceived(Array(repeating: 7, count: 64), now: now + 0.5).isEmpty)
        actions = wire.machine.socketClosed(id, now: now + 1)
        #expect(abs(try #require(actions.timers[.reconnect]) - (now + 1) - 0.1) < 1e-4)
        #expect(wire.machine.packetsReceived == 1)
    }

    @Test func aSocketThatStaysUpPastStableAfterResetsTheBackoffAndJitterComesFromTheMachinesRandomness() throws {
        var wire = Wire(jitter: true)
        var now = Self.t0
        _ = wire.machine.socketOpened(Self.first, now: now)
        now += 1
        var actions = wire.machine.socketClosed(Self.first, now: now)
        // 0.1 s plus up to 30 %.
        #expect(abs(try #require(actions.timers[.reconnect]) - now - 0.13) < 1e-4)
        for _ in 0..<3 {
            now = try #require(actions.timers[.reconnect])
            let id = try #require(wire.machine.timerFired(.reconnect, now: now).opened.first)
            actions = wire.machine.connectFailed(id, now: now)
        }
        #expect(abs(try #require(actions.timers[.reconnect]) - now - 1.04) < 1e-4)
        now = try #require(actions.timers[.reconnect])
        let id = try #require(wire.machine.timerFired(.reconnect, now: now).opened.first)
        _ = wire.machine.socketOpened(id, now: now)
        // Up for `stableAfter` (10 s): the next drop starts over.
        actions = wire.machine.socketClosed(id, now: now + 10)
        #expect(abs(try #require(actions.timers[.reconnect]) - (now + 10) - 0.13) < 1e-4)
    }

    /// A socket can close on the loop before its connect is reported (a server that refuses at once): it is replaced
    /// after the backoff. Adopting it as the socket in use would leave the session on a dead socket, which nothing
    /// ever closes again, for good.
    @Test func aSocketThatClosesBeforeItIsReportedOpenIsReplaced() throws {
        var wire = Wire()
        let now = Self.t0
        _ = wire.machine.socketOpened(Self.first, now: now)
        let deadline = try #require(wire.machine.socketClosed(Self.first, now: now + 1).timers[.reconnect])
        let second = try #require(wire.machine.timerFired(.reconnect, now: deadline).opened.first)
        #expect(wire.machine.socketClosed(second, now: deadline + 0.01).isEmpty)
        let actions = wire.machine.socketOpened(second, now: deadline + 0.02)
        #expect(!actions.states.contains(.online))
        #expect(wire.machine.openSocket == nil && wire.machine.socketCount == 1)
        let next = try #require(actions.timers[.reconnect])
        #expect(next > deadline + 0.02)
        let third = try #require(wire.machine.timerFired(.reconnect, now: next).opened.first)
        #expect(third != second)
        let opened = wire.machine.socketOpened(third, now: next + 0.01)
        #expect(opened.states == [.online] && opened.emitted == [.reconnected])
        #expect(wire.machine.openSocket == third && wire.machine.socketCount == 2)
    }

    @Test func eventsOfSocketsTheMachineGaveUpOnAndTimersItDidNotArmChangeNothing() {
        var wire = Wire()
        let now = Self.t0
        _ = wire.machine.socketOpened(Self.first, now: now)
        #expect(wire.machine.socketClosed(42, now: now).isEmpty)
        #expect(wire.machine.connectFailed(42, now: now).isEmpty)
        #expect(wire.machine.socketOpened(42, now: now).closed == [42])
        #expect(wire.machine.timerFired(.reconnect, now: now).isEmpty)
        #expect(wire.machine.timerFired(.acknowledgements, now: now).isEmpty)
        #expect(wire.machine.openSocket == Self.first)
    }

    // MARK: - Calls and sockets

    @Test func callsQueuedWhileDisconnectedLeaveOnTheNextSocket() throws {
        var wire = Wire()
        var now = Self.t0
        _ = wire.machine.socketOpened(Self.first, now: now)
        let deadline = try #require(wire.machine.socketClosed(Self.first, now: now + 1).timers[.reconnect])
        now = deadline - 0.05
        var firsts: [Bool] = []
        let queued = wire.enqueue(1, body: Wire.body(1), now: now) { firsts.append($0) }
        #expect(queued.scheduledTurnEnd && queued.written.isEmpty)
        #expect(wire.machine.turnEnded(now: now).written.isEmpty)

        let id = try #require(wire.machine.timerFired(.reconnect, now: deadline).opened.first)
        let opened = wire.machine.socketOpened(id, now: deadline + 0.01)
        #expect(opened.states == [.online] && opened.emitted == [.reconnected] && opened.scheduledTurnEnd)
        let turn = wire.machine.turnEnded(now: deadline + 0.01)
        #expect(turn.flushed == [id])
        let sent = opened.writes + turn.writes
        #expect(sent.allSatisfy { $0.socket == id })
        #expect(try Wire.messages(sent.flatMap(\.packets)).map(\.body).contains(Wire.body(1)))
        // The session's first call, so the only one to be wrapped in initConnection.
        #expect(firsts == [true])
        _ = wire.enqueue(2, body: Wire.body(2), now: deadline + 0.02) { firsts.append($0) }
        #expect(firsts == [true, false])

        let answers = try wire.server.answer(sent.flatMap(\.packets), now: deadline + 0.1)
        let completed = wire.receive(answers, now: deadline + 0.1).completed
        #expect(completed.map(\.caller) == [1])
        #expect(try completed.first?.outcome.get().bytes == Wire.answer(to: Wire.body(1)))
    }

    @Test func unansweredCallsGoAgainOnTheNextSocketUnderTheirOwnMsgIds() throws {
        var wire = Wire()
        var now = Self.t0
        _ = wire.machine.socketOpened(Self.first, now: now)
        _ = wire.enqueue(1, body: Wire.body(1), now: now)
        _ = wire.enqueue(2, body: Wire.body(2), now: now)
        let lost = try Wire.messages(wire.machine.turnEnded(now: now).written)
        #expect(lost.map(\.body) == [Wire.body(1), Wire.body(2)])

        now += 2
        let deadline = try #require(wire.machine.socketClosed(Self.first, now: now).timers[.reconnect])
        let id = try #require(wire.machine.timerFired(.reconnect, now: deadline).opened.first)
        let opened = wire.machine.socketOpened(id, now: deadline)
        #expect(opened.writes.allSatisfy { $0.socket == id })
        let again = try Wire.messages(opened.written)
        #expect(again.map(\.messageId) == lost.map(\.messageId))
        #expect(again.map(\.body) == lost.map(\.body))

        let answers = try wire.server.answer(opened.written, now: deadline)
        let completed = answers.flatMap { wire.machine.packetReceived($0, now: deadline).completed }
        #expect(completed.map(\.caller).sorted() == [1, 2])
        #expect(wire.machine.waitingCount == 0)
    }

    /// A server that forgot the session (it restarted) creates it again at the next message and says so
    /// (`new_session_created`): what was sent before that message is never answered, so it goes again.
    @Test func callsTheForgottenSessionNeverAnsweredGoAgainAfterANewSession() throws {
        var wire = Wire()
        let now = Self.t0
        _ = wire.machine.socketOpened(Self.first, now: now)
        _ = wire.enqueue(1, body: Wire.body(1), now: now)
        _ = wire.machine.turnEnded(now: now)  // lost with the server that forgot it
        _ = wire.enqueue(2, body: Wire.body(2), now: now + 1)
        let second = wire.machine.turnEnded(now: now + 1).written
        #expect(try Wire.messages(second).map(\.body) == [Wire.body(2)], "one message: its msg_id is the first")
        let answers = try wire.server.answer(second, now: now + 1)
        #expect(answers.count == 1)
        let received = wire.receive(answers, now: now + 1)
        #expect(received.emitted == [.newSession])
        #expect(received.completed.map(\.caller) == [2])
        let again = try Wire.messages(received.written).filter { Wire.acknowledged($0) == nil }
        #expect(again.map(\.body) == [Wire.body(1)])
        let late = try wire.server.answer(received.written, now: now + 1.1)
        #expect(late.flatMap { wire.machine.packetReceived($0, now: now + 1.1).completed }.map(\.caller) == [1])
    }

    @Test func orderedCallsNameThePreviousOneWithInvokeAfterMsg() throws {
        var wire = Wire()
        let now = Self.t0
        _ = wire.machine.socketOpened(Self.first, now: now)
        #expect(wire.enqueue(1, body: Wire.body(1), ordered: true, now: now).written.isEmpty)
        // The first one is sealed at once, so that the second can name its msg_id.
        let sealed = try Wire.messages(wire.enqueue(2, body: Wire.body(2), ordered: true, now: now).written)
        try #require(sealed.map(\.body) == [Wire.body(1)])
        let next = try Wire.messages(wire.machine.turnEnded(now: now).written)
        var writer = TLWriter()
        writer.writeUInt32(0xcb9f_372d)
        writer.writeInt64(sealed[0].messageId)
        writer.writeRaw(Wire.body(2))
        #expect(next.map(\.body) == [writer.takeBytes()])
    }

    // MARK: - Acknowledgements

    @Test func acknowledgementsGoAloneByTheirDeadlineUnlessACallCarriesThemFirst() throws {
        var wire = Wire()
        var now = Self.t0
        _ = wire.machine.socketOpened(Self.first, now: now)
        _ = wire.enqueue(1, body: Wire.body(1), now: now)
        let answers = try wire.server.answer(wire.machine.turnEnded(now: now).written, now: now)
        now += 0.05
        let received = wire.receive(answers, now: now)
        #expect(received.timers == [.acknowledgements: now + 0.2])
        #expect(wire.server.session.unacknowledgedCount > 0)
        // A push 0.1 s later does not move the deadline.
        let push = wire.server.session.seal([wire.server.session.push(Wire.body(9))], now: now + 0.1)
        let pushed = wire.receive(push, now: now + 0.1)
        #expect(pushed.timers.isEmpty && pushed.emitted == [.updates(Wire.body(9))])
        #expect(wire.machine.turnEnded(now: now + 0.1).written.isEmpty)

        let acks = wire.machine.timerFired(.acknowledgements, now: now + 0.2)
        let messages = try Wire.messages(acks.written)
        #expect(!messages.isEmpty && messages.allSatisfy { Wire.acknowledged($0) != nil })
        _ = try wire.server.answer(acks.written, now: now + 0.2)
        #expect(wire.server.session.unacknowledgedCount == 0)

        // Next time a call leaves first and carries them: the timer then finds nothing to send.
        _ = wire.enqueue(2, body: Wire.body(2), now: now + 1)
        let second = try wire.server.answer(wire.machine.turnEnded(now: now + 1).written, now: now + 1)
        let armed = wire.receive(second, now: now + 1.01).timers
        #expect(armed == [.acknowledgements: now + 1.21])
        _ = wire.enqueue(3, body: Wire.body(3), now: now + 1.1)
        let carried = try Wire.messages(wire.machine.turnEnded(now: now + 1.1).written)
        #expect(carried.contains { Wire.acknowledged($0) != nil } && carried.contains { $0.body == Wire.body(3) })
        #expect(wire.machine.timerFired(.acknowledgements, now: now + 1.21).written.isEmpty)
    }

    /// Acknowledgements owed when the socket drops wait for the next socket instead of being sealed into a packet
    /// with nowhere to go (the server would otherwise send those messages again on every new socket).
    @Test func acknowledgementsOwedWhenTheSocketDropsLeaveOnTheNextOne() throws {
        var wire = Wire()
        var now = Self.t0
        _ = wire.machine.socketOpened(Self.first, now: now)
        _ = wire.enqueue(1, body: Wire.body(1), now: now)
        let answers = try wire.server.answer(wire.machine.turnEnded(now: now).written, now: now)
        _ = wire.receive(answers, now: now)
        now += 0.1
        let deadline = try #require(wire.machine.socketClosed(Self.first, now: now).timers[.reconnect])
        #expect(wire.machine.timerFired(.acknowledgements, now: now + 0.1).written.isEmpty)
        _ = wire.enqueue(2, body: Wire.body(2), now: now + 0.11)
        #expect(wire.machine.turnEnded(now: now + 0.11).written.isEmpty)

        let id = try #require(wire.machine.timerFired(.reconnect, now: deadline).opened.first)
        let sent = wire.machine.socketOpened(id, now: deadline).written + wire.machine.turnEnded(now: deadline).written
        let messages = try Wire.messages(sent)
        #expect(messages.contains { $0.body == Wire.body(2) })
        #expect(messages.contains { Wire.acknowledged($0) != nil })
        _ = try wire.server.answer(sent, now: deadline)
        #expect(wire.server.session.unacknowledgedCount == 1, "only the new answer is owed an acknowledgement")
    }

    // MARK: - HTTP

    @Test func eachLongPollRequestGetsOneHttpWaitWithWhatIsQueued() throws {
        var wire = Wire { $0.httpWait = .init(maxDelay: 0, waitAfter: 0, maxWait: 1_000) }
        let now = Self.t0
        // The transport asks as soon as the socket connects, before it is reported open.
        let poll = wire.machine.pollNeeded(on: Self.first, now: now)
        #expect(poll.writes.map(\.socket) == [Self.first] && poll.flushed == [Self.first])
        #expect(try Wire.messages(poll.written).compactMap(Wire.httpWait) == [1_000])
        _ = wire.machine.socketOpened(Self.first, now: now)
        _ = wire.enqueue(1, body: Wire.body(1), now: now + 0.5)
        let withCall = try Wire.messages(wire.machine.pollNeeded(on: Self.first, now: now + 0.5).written)
        #expect(withCall.compactMap(Wire.httpWait) == [1_000] && withCall.contains { $0.body == Wire.body(1) })
        // The poll took the call: the turn's end has nothing left to seal.
        #expect(wire.machine.turnEnded(now: now + 0.5).written.isEmpty)
        #expect(wire.machine.httpPolls == 2)
        _ = wire.machine.close(now: now + 1)
        #expect(wire.machine.pollNeeded(on: Self.first, now: now + 1).isEmpty && wire.machine.httpPolls == 2)
    }

    // MARK: - Watchdog and timeouts

    @Test func overdueCallsFailWithTheirTimeoutAtTheWatchdogsTickAndNotBefore() throws {
        var wire = Wire()
        let now = Self.t0
        let opened = wire.machine.socketOpened(Self.first, now: now)
        #expect(opened.timers[.watchdog] == now + 1)
        _ = wire.enqueue(1, body: Wire.body(1), timeout: 2, now: now)
        _ = wire.enqueue(2, body: Wire.body(2), timeout: 2.5, now: now)
        let sent = wire.machine.turnEnded(now: now).written

        let tick1 = wire.machine.timerFired(.watchdog, now: now + 1)
        #expect(tick1.completed.isEmpty && tick1.timers == [.watchdog: now + 2])
        #expect(wire.machine.timerFired(.watchdog, now: now + 1.999).completed.isEmpty)
        let tick2 = wire.machine.timerFired(.watchdog, now: now + 2)
        #expect(tick2.completed.map(\.caller) == [1])
        #expect(Wire.error(tick2.completed.first?.outcome) == .timedOut(2))
        #expect(wire.machine.timerFired(.watchdog, now: now + 2.499).completed.isEmpty)
        let tick3 = wire.machine.timerFired(.watchdog, now: now + 2.5)
        #expect(tick3.completed.map(\.caller) == [2] && Wire.error(tick3.completed.first?.outcome) == .timedOut(2.5))
        #expect(wire.machine.waitingCount == 0)
        // Answers that come after are dropped.
        let late = try wire.server.answer(sent, now: now + 4)
        #expect(late.flatMap { wire.machine.packetReceived($0, now: now + 4).completed }.isEmpty)
    }

    @Test func theWatchdogReplacesASilentSocketThatOwesAnAnswerAndPingsAnIdleOne() throws {
        var wire = Wire()
        var now = Self.t0
        _ = wire.machine.socketOpened(Self.first, now: now)
        // Idle: nothing for 30 s, then a ping_delay_disconnect, which is owed an answer.
        var pings: [Double] = []
        var closedAt: Double?
        while closedAt == nil, now < Self.t0 + 60 {
            now += 1
            let tick = wire.machine.timerFired(.watchdog, now: now)
            #expect(tick.timers[.watchdog] == now + 1)
            if try Wire.messages(tick.written).contains(where: Wire.isKeepalive) { pings.append(now - Self.t0) }
            if tick.closed == [Self.first] { closedAt = now - Self.t0 }
        }
        #expect(pings == [31])
        // Unanswered, the socket is given up once the ping has waited more than 15 s (not at once for the 31 s of
        // idling before it).
        #expect(closedAt == 47)
    }

    /// A call made after the socket idled past `silenceTimeout` gets that long for its answer: the socket's silence
    /// counts from the call, not from the last packet before the idle stretch (which replaced the socket at the next
    /// tick, before a server farther than the tick could answer).
    @Test func aCallAfterAnIdleStretchHasTheWholeSilenceTimeoutForItsAnswer() throws {
        var wire = Wire()
        var now = Self.t0
        _ = wire.machine.socketOpened(Self.first, now: now)
        for _ in 0..<20 {
            now += 1
            #expect(wire.machine.timerFired(.watchdog, now: now).closed.isEmpty)
        }
        _ = wire.enqueue(1, body: Wire.body(1), now: now + 0.5)
        _ = wire.machine.turnEnded(now: now + 0.5)
        var closedAt: Double?
        while closedAt == nil, now < Self.t0 + 60 {
            now += 1
            if wire.machine.timerFired(.watchdog, now: now).closed == [Self.first] { closedAt = now - Self.t0 }
        }
        #expect(closedAt == 36)
        // A packet makes it heard again: a later silence counts from the packet.
        var quiet = Wire()
        _ = quiet.machine.socketOpened(Self.first, now: Self.t0)
        _ = quiet.enqueue(1, body: Wire.body(1), now: Self.t0)
        let sent = quiet.machine.turnEnded(now: Self.t0).written
        _ = try quiet.server.calls(in: sent)  // taken, never answered
        let push = quiet.server.session.seal([quiet.server.session.push(Wire.body(9))], now: Self.t0 + 10)
        _ = quiet.receive(push, now: Self.t0 + 10)
        for second in 11...25 {
            _ = quiet.machine.timerFired(.acknowledgements, now: Self.t0 + Double(second) - 0.5)
            #expect(quiet.machine.timerFired(.watchdog, now: Self.t0 + Double(second)).closed.isEmpty)
        }
        #expect(quiet.machine.timerFired(.watchdog, now: Self.t0 + 26).closed == [Self.first])
    }

    // MARK: - Cancelling, closing, batches

    @Test func aCancelledCallEndsAtOnceAndNeverLeavesOrIsDroppedAtTheServer() throws {
        var wire = Wire()
        let now = Self.t0
        _ = wire.machine.socketOpened(Self.first, now: now)
        let token = wire.machine.reserveToken()
        _ = wire.machine.enqueue(token: token, timeout: 60, caller: 1, now: now) { _ in Wire.body(1) }
        let cancelled = wire.machine.cancel(token, now: now)
        #expect(cancelled.completed.map(\.caller) == [1] && cancelled.completed.first?.outcome.isCancellation == true)
        #expect(wire.machine.turnEnded(now: now).written.isEmpty)
        #expect(wire.machine.cancel(token, now: now).isEmpty)

        let sentToken = wire.machine.reserveToken()
        _ = wire.machine.enqueue(token: sentToken, timeout: 60, caller: 2, now: now) { _ in Wire.body(2) }
        let sent = try Wire.messages(wire.machine.turnEnded(now: now).written)
        let dropped = wire.machine.cancel(sentToken, now: now + 0.1)
        #expect(dropped.completed.map(\.caller) == [2])
        let drop = try Wire.messages(dropped.written).compactMap(Wire.droppedAnswer)
        #expect(drop == sent.filter { $0.body == Wire.body(2) }.map(\.messageId))
        #expect(wire.machine.waitingCount == 0)
    }

    @Test func closeFailsEveryWaitingCallStopsTheTimersAndRefusesLaterCalls() throws {
        var wire = Wire()
        let now = Self.t0
        _ = wire.machine.socketOpened(Self.first, now: now)
        _ = wire.enqueue(1, body: Wire.body(1), now: now)
        _ = wire.machine.enqueueBatch(id: 5, count: 2, timeout: 60, caller: "batch", now: now) { index, _ in
            Wire.body(UInt8(10 + index))
        }
        let answers = try wire.server.answer(wire.machine.turnEnded(now: now).written, now: now)
        for packet in answers { _ = wire.machine.packetReceived(packet, now: now) }  // arms the acknowledgements
        _ = wire.enqueue(2, body: Wire.body(2), now: now + 0.1)  // a call that came after the answers

        let closed = wire.machine.close(now: now + 0.1)
        #expect(Set(closed.cancelled) == [.watchdog, .acknowledgements])
        #expect(closed.finishedEvents && closed.closed == [Self.first] && wire.machine.isClosed)
        #expect(closed.completed.map(\.caller) == [2])
        #expect(Wire.error(closed.completed.first?.outcome) == .connectionClosed)
        #expect(closed.batches.isEmpty, "the batch was answered before the close")
        #expect(wire.machine.waitingCount == 0)

        let refused = wire.enqueue(3, body: Wire.body(3), now: now + 0.2)
        #expect(refused.completed.map(\.caller) == [3])
        #expect(Wire.error(refused.completed.first?.outcome) == .connectionClosed)
        #expect(wire.machine.socketClosed(Self.first, now: now + 0.2).isEmpty)
        #expect(wire.machine.timerFired(.watchdog, now: now + 1).isEmpty)
        #expect(wire.machine.close(now: now + 2).isEmpty)
    }

    @Test func closeFailsTheUnansweredCallsOfABatchAndCompletesIt() throws {
        var wire = Wire()
        let now = Self.t0
        _ = wire.machine.socketOpened(Self.first, now: now)
        _ = wire.machine.enqueueBatch(id: 5, count: 2, timeout: 60, caller: "batch", now: now) { index, _ in
            Wire.body(UInt8(10 + index))
        }
        _ = wire.machine.turnEnded(now: now)
        let closed = wire.machine.close(now: now + 0.1)
        #expect(closed.batches.map(\.caller) == ["batch"])
        #expect(closed.batches.first?.outcomes.map(Wire.error) == [.connectionClosed, .connectionClosed])
    }

    @Test func theServerNotKnowingTheKeyClosesTheSessionWithAuthKeyUnknown() throws {
        var wire = Wire()
        let now = Self.t0
        _ = wire.machine.socketOpened(Self.first, now: now)
        _ = wire.enqueue(1, body: Wire.body(1), now: now)
        _ = wire.machine.turnEnded(now: now)
        // Any other transport error only closes the socket.
        let flood = wire.machine.transportError(-429, on: Self.first, now: now)
        #expect(flood.closed == [Self.first] && flood.completed.isEmpty && !wire.machine.isClosed)
        let unknown = wire.machine.transportError(-404, on: Self.first, now: now)
        #expect(unknown.closed == [Self.first] && wire.machine.isClosed)
        #expect(unknown.completed.map(\.caller) == [1])
        #expect(Wire.error(unknown.completed.first?.outcome) == .authKeyUnknown)
        #expect(wire.machine.socketClosed(Self.first, now: now).isEmpty, "no reconnect")
        let refused = wire.enqueue(2, body: Wire.body(2), now: now)
        #expect(Wire.error(refused.completed.first?.outcome) == .authKeyUnknown)
        // `close` still ends the events and the timers.
        let closed = wire.machine.close(now: now + 1)
        #expect(closed.finishedEvents && closed.cancelled == [.watchdog])
    }

    @Test func aBatchCompletesOnceWhenItsLastCallEndsWithEveryOutcomeInOrder() throws {
        var wire = Wire()
        let now = Self.t0
        _ = wire.machine.socketOpened(Self.first, now: now)
        var firsts: [Bool] = []
        let queued = wire.machine.enqueueBatch(
            id: 7, count: 3, timeout: 60, caller: "batch", now: now
        ) { index, first in
            firsts.append(first)
            return Wire.body(UInt8(20 + index))
        }
        #expect(queued.scheduledTurnEnd && firsts == [true, false, false])
        let sent = wire.machine.turnEnded(now: now).written
        #expect(sent.count == 1, "one container for the batch")
        let calls = try wire.server.calls(in: sent)
        try #require(calls.count == 3)

        // Calls 0 and 2 are answered: nothing yet.
        let partial = wire.server.session.seal(
            [calls[0], calls[2]].map { wire.server.session.answer($0, result: Wire.answer(to: $0.query)) }, now: now)
        #expect(partial.flatMap { wire.machine.packetReceived($0, now: now).batches }.isEmpty)
        // Call 1 gets an rpc_error: the batch completes, once, in order.
        let last = wire.server.session.seal([wire.server.session.answer(calls[1], error: 400, "BAD_REQUEST")], now: now)
        let done = last.flatMap { wire.machine.packetReceived($0, now: now).batches }
        #expect(done.map(\.caller) == ["batch"])
        let outcomes = try #require(done.first?.outcomes)
        #expect(try outcomes[0].get().bytes == Wire.answer(to: Wire.body(20)))
        #expect(Wire.error(outcomes[1]) == .rpc(code: 400, message: "BAD_REQUEST"))
        #expect(try outcomes[2].get().bytes == Wire.answer(to: Wire.body(22)))
        #expect(wire.machine.waitingCount == 0)
    }

    @Test func aCancelledBatchEndsItsUnansweredCallsAndKeepsTheAnsweredOnes() throws {
        var wire = Wire()
        let now = Self.t0
        _ = wire.machine.socketOpened(Self.first, now: now)
        _ = wire.machine.enqueueBatch(id: 3, count: 3, timeout: 60, caller: "batch", now: now) { index, _ in
            Wire.body(UInt8(30 + index))
        }
        let sent = wire.machine.turnEnded(now: now).written
        let calls = try wire.server.calls(in: sent)
        try #require(calls.count == 3)
        let answer = wire.server.session.seal(
            [wire.server.session.answer(calls[1], result: Wire.answer(to: calls[1].query))], now: now)
        #expect(wire.receive(answer, now: now).batches.isEmpty)

        let cancelled = wire.machine.cancelBatch(3, now: now + 0.1)
        #expect(cancelled.batches.map(\.caller) == ["batch"])
        let outcomes = try #require(cancelled.batches.first?.outcomes)
        #expect(outcomes[0].isCancellation && outcomes[2].isCancellation)
        #expect(try outcomes[1].get().bytes == Wire.answer(to: Wire.body(31)))
        // The two unanswered ones are dropped at the server, together.
        let drops = try Wire.messages(cancelled.written).compactMap(Wire.droppedAnswer)
        #expect(Set(drops) == Set([calls[0], calls[2]].map(\.requestMessageId)))
        #expect(wire.machine.cancelBatch(3, now: now + 0.2).isEmpty)
    }

    @Test func aBatchWhoseCallsCannotBeQueuedCompletesAtOnce() {
        var wire = Wire()
        _ = wire.machine.socketOpened(Self.first, now: Self.t0)
        let actions = wire.machine.enqueueBatch(
            id: 1, count: 2, timeout: 60, caller: "batch", now: Self.t0
        ) { _, _ throws(NetworkError) in
            throw .requestTooLarge(1 << 30)
        }
        #expect(actions.batches.map(\.caller) == ["batch"])
        let errors = actions.batches.first?.outcomes.map(Wire.error)
        #expect(errors == [.requestTooLarge(1 << 30), .requestTooLarge(1 << 30)])
    }
}

// MARK: - The wire

/// A machine and the server session at the other end of its sockets.
struct Wire {
    typealias Machine = DatacenterConnectionMachine<Int, String>
    static let key = AuthKey(bytes: (0..<256).map { UInt8(truncatingIfNeeded: $0 &* 11 &+ 5) })!
    static let schedule = SaltSchedule(secret: Array("machine tests".utf8))
    static let sessionId: Int64 = 0x0bad_cafe

    var machine: Machine
    var server = Server()

    /// A machine whose randomness is fixed: no jitter, or (`jitter`) all of it (30 %).
    init(jitter: Bool = false, _ configure: (inout DatacenterConnection.Options) -> Void = { _ in }) {
        var options = DatacenterConnection.Options()
        configure(&options)
        let salt = Self.schedule.salt(authKeyId: Self.key.id, time: DatacenterConnectionMachineTests.t0)
        let session = ClientSession(authKey: Self.key, salt: salt, timeOffset: 0, sessionId: Self.sessionId)
        machine = Machine(session: session, options: options, random: FixedRandom(jitter: jitter))
    }

    init(_ configure: (inout DatacenterConnection.Options) -> Void) {
        self.init(jitter: false, configure)
    }

    /// Queues a call under a new token.
    mutating func enqueue(
        _ caller: Int, body: [UInt8], timeout: Double = 60, ordered: Bool = false, now: Double,
        first: (Bool) -> Void = { _ in }
    ) -> [Machine.Action] {
        let token = machine.reserveToken()
        return machine.enqueue(token: token, timeout: timeout, ordered: ordered, caller: caller, now: now) { isFirst in
            first(isFirst)
            return body
        }
    }

    /// Feeds server packets to the machine; returns every action they led to.
    mutating func receive(_ packets: [[UInt8]], now: Double) -> [Machine.Action] {
        packets.flatMap { machine.packetReceived($0, now: now) }
    }

    /// An API call's body the server passes on as a call (no MTProto constructor has such an id).
    static func body(_ tag: UInt8) -> [UInt8] { [tag, 0xee, 0xdd, 0x7c, 1, 2, 3, 4] }

    /// What the server answers to `body`.
    static func answer(to body: [UInt8]) -> [UInt8] { [0x99, 0x88, 0x77, 0x66] + body }

    /// The messages of client packets (a container's children, or the message itself).
    static func messages(_ packets: [[UInt8]]) throws -> [InnerMessage] {
        try packets.flatMap { packet -> [InnerMessage] in
            let message = try EncryptedMessage.decrypt(packet, authKey: key, direction: .clientToServer)
            #expect(message.sessionId == sessionId)
            let top = InnerMessage(messageId: message.messageId, seqNo: message.seqNo, body: message.body)
            guard top.constructorId == ServiceCodec.containerId else { return [top] }
            return try ServiceCodec.parseContainer(top.body)
        }
    }

    static func object(_ message: InnerMessage) -> (any TLObject)? {
        var reader = TLReader(message.body)
        return try? MTProto.parseObject(&reader)
    }

    /// The msg_ids a `msgs_ack` acknowledges.
    static func acknowledged(_ message: InnerMessage) -> [Int64]? {
        guard case .msgsAck(let value)? = object(message) as? MTProto.MsgsAck else { return nil }
        return value.msgIds
    }

    /// An `http_wait`'s `max_wait`.
    static func httpWait(_ message: InnerMessage) -> Int32? {
        guard case .httpWait(let value)? = object(message) as? MTProto.HttpWait else { return nil }
        return value.maxWait
    }

    static func isKeepalive(_ message: InnerMessage) -> Bool {
        var reader = TLReader(message.body)
        guard let ping = (try? MTProto.functions.parse(&reader)) as? MTProto.functions.pingDelayDisconnect else {
            return false
        }
        return ping.disconnectDelay == 75
    }

    /// The msg_id an `rpc_drop_answer` names.
    static func droppedAnswer(_ message: InnerMessage) -> Int64? {
        var reader = TLReader(message.body)
        return ((try? MTProto.functions.parse(&reader)) as? MTProto.functions.rpcDropAnswer)?.reqMsgId
    }

    static func error(_ outcome: Result<AnswerBytes, any Error>?) -> NetworkError? {
        guard case .failure(let error)? = outcome else { return nil }
        return error as? NetworkError
    }

    /// The server end of the session.
    struct Server {
        var session = ServerSession(
            authKey: Wire.key, sessionId: Wire.sessionId, schedule: Wire.schedule, handshakeSalt: nil)

        /// Takes client packets; returns the API calls they carry (the service replies wait for the next seal).
        mutating func calls(in packets: [[UInt8]], now: Double = DatacenterConnectionMachineTests.t0) throws
            -> [ServerSession.Call]
        {
            try take(packets, now: now).calls
        }

        /// Takes client packets and answers every call they carry (`Wire.answer(to:)`), with the service replies.
        mutating func answer(_ packets: [[UInt8]], now: Double) throws -> [[UInt8]] {
            let (calls, replies) = try take(packets, now: now)
            let answers = calls.map { session.answer($0, result: Wire.answer(to: $0.query)) }
            return session.seal(replies + answers, now: now)
        }

        private mutating func take(_ packets: [[UInt8]], now: Double) throws
            -> (calls: [ServerSession.Call], replies: [MessageSealer.Outgoing])
        {
            var calls: [ServerSession.Call] = []
            var replies: [MessageSealer.Outgoing] = []
            for packet in packets {
                let message = try EncryptedMessage.decrypt(packet, authKey: Wire.key, direction: .clientToServer)
                let reaction = session.receive(message, now: now)
                #expect(reaction.dropped.isEmpty, "the server dropped \(reaction.dropped)")
                calls += reaction.calls
                replies += reaction.replies
            }
            return (calls, replies)
        }
    }
}

/// Randomness that always gives the same number: a fraction of 0 (its low 53 bits, which `Double.random` reads,
/// are zero; not zero itself, which `Int64.random(in:)` would draw again forever) or the largest one.
struct FixedRandom: RandomNumberGenerator {
    let value: UInt64

    init(jitter: Bool) {
        value = jitter ? .max : 1 << 53
    }

    mutating func next() -> UInt64 { value }
}

extension Result where Success == AnswerBytes, Failure == any Error {
    var isCancellation: Bool {
        guard case .failure(let error) = self else { return false }
        return error is CancellationError
    }
}

/// The actions of one event, by kind.
extension Array where Element == DatacenterConnectionMachine<Int, String>.Action {
    var writes: [(packets: [[UInt8]], socket: Int)] {
        compactMap { if case .write(let packets, let socket) = $0 { (packets, socket) } else { nil } }
    }
    var written: [[UInt8]] { writes.flatMap(\.packets) }
    var flushed: [Int] { compactMap { if case .flush(let id) = $0 { id } else { nil } } }
    var opened: [Int] { compactMap { if case .openSocket(let id) = $0 { id } else { nil } } }
    var closed: [Int] { compactMap { if case .closeSocket(let id) = $0 { id } else { nil } } }
    var cancelled: [DatacenterConnectionMachine<Int, String>.Timer] {
        compactMap { if case .cancelTimer(let timer) = $0 { timer } else { nil } }
    }
    var timers: [DatacenterConnectionMachine<Int, String>.Timer: Double] {
        var timers: [DatacenterConnectionMachine<Int, String>.Timer: Double] = [:]
        for case .scheduleTimer(let timer, let deadline) in self { timers[timer] = deadline }
        return timers
    }
    var scheduledTurnEnd: Bool { contains { if case .scheduleTurnEnd = $0 { true } else { false } } }
    var completed: [(caller: Int, outcome: Result<AnswerBytes, any Error>)] {
        compactMap { if case .complete(let caller, let outcome) = $0 { (caller, outcome) } else { nil } }
    }
    var batches: [(caller: String, outcomes: [Result<AnswerBytes, any Error>])] {
        compactMap { if case .completeBatch(let caller, let outcomes) = $0 { (caller, outcomes) } else { nil } }
    }
    var emitted: [NetworkEvent] { compactMap { if case .emit(let event) = $0 { event } else { nil } } }
    var states: [DatacenterConnection.SocketState] {
        compactMap { if case .setState(let state) = $0 { state } else { nil } }
    }
    var finishedEvents: Bool { contains { if case .finishEvents = $0 { true } else { false } } }
}
