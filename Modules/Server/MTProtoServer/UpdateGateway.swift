import Foundation

/// Where the server's own messages to clients go (core.telegram.org "Working with updates": updates are pushed to
/// every connected session of an account): the connection that last carried each (auth key, session) with a call
/// that did not say `invokeWithoutUpdates`.
///
/// A batch of pushes (`push(_:)`, one post to every member of a channel) takes the lock once and hands each lane (a
/// connection's event loop) one task with all of its deliveries, in the batch's order, instead of one task each.
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

    /// Where a subscriber's deliveries run: `run` queues work on it (an event loop's `execute`); deliveries to the
    /// subscribers of one lane in one `push(_:)` batch go in one piece of work. `id` names the lane.
    public struct Lane: Sendable {
        public let id: ObjectIdentifier
        public let run: @Sendable (@escaping @Sendable () -> Void) -> Void

        public init(id: ObjectIdentifier, run: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
            self.id = id
            self.run = run
        }
    }

    /// One serialized `Updates` for every subscribed session of `authKeyIds` but `except`.
    public struct Push: Sendable {
        public let body: [UInt8]
        public let authKeyIds: [Int64]
        public let except: Target?

        public init(body: [UInt8], authKeyIds: [Int64], except: Target? = nil) {
            self.body = body
            self.authKeyIds = authKeyIds
            self.except = except
        }
    }

    struct Subscriber {
        let connection: ObjectIdentifier
        let lane: Lane?
        let deliver: @Sendable ([UInt8]) -> Void
    }

    /// A delivery decided under the lock, made after it.
    private struct Delivery: Sendable {
        let deliver: @Sendable ([UInt8]) -> Void
        let body: [UInt8]
    }

    private let lock = NSLock()
    private var subscribers: [Int64: [Int64: Subscriber]] = [:]

    public init() {}

    /// Routes pushes for `target` to one connection's `deliver` (replacing the connection that had it). With a
    /// `lane`, `deliver` runs inside the lane's work (on the connection's event loop); without one, on the thread
    /// that pushes. Public for connections that are not MTProtoServer's (an in-process loopback in tests).
    public func subscribe(
        _ target: Target, connection: ObjectIdentifier, lane: Lane? = nil,
        deliver: @escaping @Sendable ([UInt8]) -> Void
    ) {
        lock.lock()
        subscribers[target.authKeyId, default: [:]][target.sessionId] = Subscriber(
            connection: connection, lane: lane, deliver: deliver)
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
        push([Push(body: body, authKeyIds: Array(authKeyIds), except: except)])
    }

    /// Sends each push as `push(_:authKeyIds:except:)` does, all under one look-up: each lane gets one piece of work
    /// with its deliveries in the order of `pushes`. Returns how many sessions they were handed to in all.
    @discardableResult
    public func push(_ pushes: [Push]) -> Int {
        var direct: [Delivery] = []
        // A handful of lanes (one per event loop): found by a scan, not hashed per delivery.
        var lanes: [(lane: Lane, deliveries: [Delivery])] = []
        var count = 0
        lock.lock()
        for push in pushes {
            for authKeyId in Self.distinct(push.authKeyIds) {
                guard let sessions = subscribers[authKeyId] else { continue }
                for (sessionId, subscriber) in sessions
                where push.except != Target(authKeyId: authKeyId, sessionId: sessionId) {
                    let delivery = Delivery(deliver: subscriber.deliver, body: push.body)
                    count += 1
                    if let lane = subscriber.lane {
                        if let index = lanes.firstIndex(where: { $0.lane.id == lane.id }) {
                            lanes[index].deliveries.append(delivery)
                        } else {
                            lanes.append((lane, [delivery]))
                        }
                    } else {
                        direct.append(delivery)
                    }
                }
            }
        }
        lock.unlock()
        for batch in lanes {
            let deliveries = batch.deliveries
            batch.lane.run { for delivery in deliveries { delivery.deliver(delivery.body) } }
        }
        for delivery in direct { delivery.deliver(delivery.body) }
        return count
    }

    /// `ids` in their order without repeats: a scan for the few keys of one account, a set past them (a push to every
    /// follower of an account names thousands).
    static func distinct(_ ids: [Int64]) -> [Int64] {
        if ids.count <= 8 {
            var result: [Int64] = []
            for id in ids where !result.contains(id) { result.append(id) }
            return result
        }
        var seen: Set<Int64> = []
        return ids.filter { seen.insert($0).inserted }
    }

    /// Whether each of `authKeyIds` has a subscribed session, in their order, under one look-up (the members of a
    /// channel a post goes to).
    public func areSubscribed(_ authKeyIds: [Int64]) -> [Bool] {
        lock.lock()
        defer { lock.unlock() }
        return authKeyIds.map { subscribers[$0]?.isEmpty == false }
    }

    /// How many sessions of `authKeyId` are subscribed.
    public func subscribedSessions(authKeyId: Int64) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return subscribers[authKeyId]?.count ?? 0
    }
}
