/// When a socket needs a keepalive or must be replaced, as a pure function of time (MtProtoKit `MTTcpConnection`'s
/// response timeout and `MTProto`'s `ping_delay_disconnect` keepalive): a socket that owes an answer and has been
/// silent past `silenceTimeout` is dead; an idle one gets a ping every `keepaliveInterval`.
public struct ConnectionWatchdog: Sendable, Equatable {
    /// What the connection should do now.
    public enum Action: Equatable, Sendable {
        case none
        /// Send `ping_delay_disconnect` (the server closes the socket if it then hears nothing for 75 s).
        case ping
        /// Close this socket and reconnect.
        case replaceSocket
    }

    public var silenceTimeout: Double
    public var keepaliveInterval: Double
    private var lastPing = -Double.infinity

    public init(silenceTimeout: Double, keepaliveInterval: Double) {
        self.silenceTimeout = silenceTimeout
        self.keepaliveInterval = keepaliveInterval
    }

    /// The decision at `now`, given when the socket was last heard from and whether an answer is owed (requests or a
    /// ping unanswered). `DatacenterConnectionMachine` passes the later of the last packet received and the first
    /// request written since, so a request after a long idle stretch gets `silenceTimeout` for its answer.
    public mutating func check(now: Double, lastReceived: Double, awaitingAnswer: Bool) -> Action {
        let silent = now - lastReceived
        if awaitingAnswer, silent > silenceTimeout { return .replaceSocket }
        if !awaitingAnswer, silent > keepaliveInterval, now - lastPing > keepaliveInterval {
            lastPing = now
            return .ping
        }
        return .none
    }

    /// A new socket: pings start afresh.
    public mutating func reset() {
        lastPing = -Double.infinity
    }
}
