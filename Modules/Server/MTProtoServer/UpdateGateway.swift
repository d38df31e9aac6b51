import Foundation

/// Where the server's own messages to clients go (core.telegram.org "Working with updates": updates are pushed to
/// every connected session of an account): the connection that last carried each (auth key, session) with a call
/// that did not say `invokeWithoutUpdates`.
///
/// A push to a session whose connection is gone, or whose client is not reading (its socket is over the write
/// high-water mark), is dropped: the client finds the gap in pts and calls `updates.getDifference`, as the docs
/// describe. Entries are bounded by the connections open: a closed connection's entries go with it.
///
/// `@unchecked Sendable`: the table is read and written under `lock`; deliveries run on each connection's event loop.
public final class UpdateGateway: @unchecked Sendable {
    /// One session of one auth key.
    public struct Target: Hashable, Sendable {
        public let authKeyId: Int64
        public let sessionId: Int64

        public init(authKeyId: Int64, sessionId: Int64) {
            self.authKeyId = authKeyId
            self.sessionId = sessionId
        }
    }

    struct Subscriber {
        let connection: ObjectIdentifier
        let deliver: @Sendable ([UInt8]) -> Void
    }

    private let lock = NSLock()
    private var subscribers: [Int64: [Int64: Subscriber]] = [:]

    public init() {}

    /// Routes pushes for `target` to one connection's `deliver` (replacing the connection that had it). Public for
    /// connections that are not MTProtoServer's (an in-process loopback in tests).
    public func subscribe(
        _ target: Target, connection: ObjectIdentifier, deliver: @escaping @Sendable ([UInt8]) -> Void
    ) {
        lock.lock()
        subscribers[target.authKeyId, default: [:]][target.sessionId] = Subscriber(
            connection: connection, deliver: deliver)
        lock.unlock()
    }

    /// Forgets `targets` if `connection` still has them (it closed); an auth key left without sessions is handed to
    /// the `whenKeyLosesItsSessions` handler.
    public func unsubscribe(_ targets: some Sequence<Target>, connection: ObjectIdentifier) {
        lock.lock()
        var emptied: [Int64] = []
        for target in targets where subscribers[target.authKeyId]?[target.sessionId]?.connection == connection {
            subscribers[target.authKeyId]?[target.sessionId] = nil
            if subscribers[target.authKeyId]?.isEmpty == true {
                subscribers[target.authKeyId] = nil
                emptied.append(target.authKeyId)
            }
        }
        let handler = keyLostSessions
        lock.unlock()
        if let handler { for authKeyId in emptied { handler(authKeyId) } }
    }

    private var keyLostSessions: (@Sendable (Int64) -> Void)?

    /// Calls `handler` (outside the gateway's lock, on the closing connection's thread) with each auth key whose last
    /// subscribed session went away: the server's presence takes the account offline when it was its last.
    public func whenKeyLosesItsSessions(_ handler: @escaping @Sendable (Int64) -> Void) {
        lock.lock()
        keyLostSessions = handler
        lock.unlock()
    }

    /// Sends `body` (a serialized `Updates`) to every subscribed session of these auth keys but `except`; returns how
    /// many sessions it was handed to. Pushes handed over from one thread arrive in the order they were handed.
    @discardableResult
    public func push(_ body: [UInt8], authKeyIds: some Sequence<Int64>, except: Target? = nil) -> Int {
        lock.lock()
        var deliveries: [@Sendable ([UInt8]) -> Void] = []
        for authKeyId in Set(authKeyIds) {
            for (sessionId, subscriber) in subscribers[authKeyId] ?? [:]
            where except != Target(authKeyId: authKeyId, sessionId: sessionId) {
                deliveries.append(subscriber.deliver)
            }
        }
        lock.unlock()
        for deliver in deliveries { deliver(body) }
        return deliveries.count
    }

    /// How many sessions of `authKeyId` are subscribed.
    public func subscribedSessions(authKeyId: Int64) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return subscribers[authKeyId]?.count ?? 0
    }
}
