import AccountNetworking
import MTProtoCore

extension DatacenterConnectionMachine {
    /// A socket, as the machine names it: each connect attempt gets a new one, so an event of a socket the machine
    /// has given up on is told apart from one of the socket in use.
    typealias SocketID = Int

    /// The timers the machine runs. The shell arms one at the deadline the machine returns and reports it with
    /// `timerFired`; a firing the machine did not arm, or armed and then cancelled, changes nothing.
    enum Timer: Hashable, Sendable, CaseIterable {
        /// The backoff before the next connect attempt is over.
        case reconnect
        /// Acknowledgements owed have waited `ackDelay` for a request to carry them: they go alone.
        case acknowledgements
        /// The once-a-second tick: overdue calls fail, a silent socket is replaced, an idle one is pinged.
        case watchdog
    }

    /// What the shell does for the machine, in order.
    enum Action {
        /// Connect socket `id` to the data center; report `socketOpened(id)` or `connectFailed(id)`, later
        /// `socketClosed(id)`, and what it receives.
        case openSocket(SocketID)
        /// Write these packets to socket `id` (one transport frame each), without flushing.
        case write([[UInt8]], to: SocketID)
        /// Flush what was written to socket `id`.
        case flush(SocketID)
        case closeSocket(SocketID)
        /// Arm `timer` to fire at `deadline` (on the clock the events' `now` come from).
        case scheduleTimer(Timer, at: Double)
        case cancelTimer(Timer)
        /// Call `turnEnded` once the tasks already queued on the event loop have run: the calls made in this turn
        /// leave together.
        case scheduleTurnEnd
        /// The server has received this call (its quick ack); its answer is still to come.
        case acknowledged(Caller)
        /// A call ended: hand its outcome to whoever waits.
        case complete(Caller, Result<AnswerBytes, any Error>)
        /// The last call of a batch ended: every outcome, in the batch's order.
        case completeBatch(BatchCaller, [Result<AnswerBytes, any Error>])
        /// Something the server sent on its own, or a new socket: for `events` and `eventSignal`.
        case emit(NetworkEvent)
        case setState(DatacenterConnection.SocketState)
        /// The session closed for good: `events` ends.
        case finishEvents
    }
}
