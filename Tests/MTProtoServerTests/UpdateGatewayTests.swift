import Foundation
import MTProtoServer
import Testing

/// The update gateway's batches: one look-up for many pushes, one piece of work per lane with its deliveries in the
/// batch's order, and the same sessions reached (and skipped) as pushing one at a time.
@Suite struct UpdateGatewayTests {
    /// A lane that queues its work until `drain` runs it, counting the pieces.
    final class QueuedLane: @unchecked Sendable {
        private let lock = NSLock()
        private var queued: [@Sendable () -> Void] = []
        private(set) var pieces = 0

        var lane: UpdateGateway.Lane {
            UpdateGateway.Lane(id: ObjectIdentifier(self)) { [self] work in
                lock.withLock {
                    queued.append(work)
                    pieces += 1
                }
            }
        }

        func drain() {
            let work = lock.withLock { () -> [@Sendable () -> Void] in
                defer { queued = [] }
                return queued
            }
            for piece in work { piece() }
        }
    }

    /// What each subscriber received, by name, in order.
    final class Received: @unchecked Sendable {
        private let lock = NSLock()
        private var bodies: [String: [[UInt8]]] = [:]

        func deliver(_ name: String) -> @Sendable ([UInt8]) -> Void {
            { [self] body in lock.withLock { bodies[name, default: []].append(body) } }
        }

        subscript(name: String) -> [[UInt8]] { lock.withLock { bodies[name] ?? [] } }
    }

    @Test func aBatchIsOnePieceOfWorkPerLaneWithItsDeliveriesInOrder() {
        let gateway = UpdateGateway()
        let first = QueuedLane()
        let second = QueuedLane()
        let received = Received()
        let connection = ObjectIdentifier(received)
        // Keys 1 and 2 on the first lane (key 2 with two sessions), key 3 on the second, key 4 with no lane.
        gateway.subscribe(
            .init(authKeyId: 1, sessionId: 1), connection: connection, lane: first.lane, deliver: received.deliver("1"))
        gateway.subscribe(
            .init(authKeyId: 2, sessionId: 1), connection: connection, lane: first.lane, deliver: received.deliver("2a")
        )
        gateway.subscribe(
            .init(authKeyId: 2, sessionId: 2), connection: connection, lane: first.lane, deliver: received.deliver("2b")
        )
        gateway.subscribe(
            .init(authKeyId: 3, sessionId: 1), connection: connection, lane: second.lane, deliver: received.deliver("3")
        )
        gateway.subscribe(.init(authKeyId: 4, sessionId: 1), connection: connection, deliver: received.deliver("4"))
        let count = gateway.push([
            .init(body: [1], authKeyIds: [1, 2, 3, 4]),
            .init(body: [2], authKeyIds: [2, 2, 9], except: .init(authKeyId: 2, sessionId: 2)),
            .init(body: [3], authKeyIds: [3, 1]),
        ])
        #expect(count == 5 + 1 + 2)
        // Without a lane the delivery is made at once; the lanes' wait for their work to run.
        #expect(received["4"] == [[1]])
        #expect(received["1"].isEmpty && received["3"].isEmpty)
        #expect(first.pieces == 1 && second.pieces == 1)
        first.drain()
        second.drain()
        #expect(received["1"] == [[1], [3]])
        // A key named twice in one push reaches each session once; `except` skips just that session.
        #expect(received["2a"] == [[1], [2]])
        #expect(received["2b"] == [[1]])
        #expect(received["3"] == [[1], [3]])
    }

    @Test func pushingOneBodyReachesWhatTheBatchWould() {
        let gateway = UpdateGateway()
        let lane = QueuedLane()
        let received = Received()
        let connection = ObjectIdentifier(received)
        gateway.subscribe(
            .init(authKeyId: 7, sessionId: 1), connection: connection, lane: lane.lane, deliver: received.deliver("a"))
        gateway.subscribe(
            .init(authKeyId: 7, sessionId: 2), connection: connection, lane: lane.lane, deliver: received.deliver("b"))
        #expect(gateway.push([5], authKeyIds: [7, 7], except: .init(authKeyId: 7, sessionId: 1)) == 1)
        #expect(gateway.push([], authKeyIds: [8]) == 0)
        #expect(gateway.push([UpdateGateway.Push]()) == 0)
        lane.drain()
        #expect(received["a"].isEmpty && received["b"] == [[5]])
        #expect(lane.pieces == 1)
    }

    @Test func anUnsubscribedSessionGetsNothingFromALaterBatch() {
        let gateway = UpdateGateway()
        let lane = QueuedLane()
        let received = Received()
        let connection = ObjectIdentifier(received)
        let target = UpdateGateway.Target(authKeyId: 5, sessionId: 1)
        gateway.subscribe(target, connection: connection, lane: lane.lane, deliver: received.deliver("a"))
        gateway.unsubscribe([target], connection: connection)
        #expect(gateway.push([.init(body: [1], authKeyIds: [5])]) == 0)
        lane.drain()
        #expect(received["a"].isEmpty && lane.pieces == 0)
    }
}

extension UpdateGatewayTests {
    @Test func areSubscribedAnswersForEachKeyInOrder() {
        let gateway = UpdateGateway()
        let received = Received()
        let connection = ObjectIdentifier(received)
        gateway.subscribe(.init(authKeyId: 3, sessionId: 1), connection: connection, deliver: received.deliver("3"))
        gateway.subscribe(.init(authKeyId: 1, sessionId: 4), connection: connection, deliver: received.deliver("1"))
        #expect(gateway.areSubscribed([1, 2, 3, 1, 4]) == [true, false, true, true, false])
        gateway.unsubscribe([.init(authKeyId: 3, sessionId: 1)], connection: connection)
        #expect(gateway.areSubscribed([3, 1]) == [false, true])
        #expect(gateway.areSubscribed([]).isEmpty)
    }
}

extension UpdateGatewayTests {
    @Test func aPushNamingThousandsOfKeysWithRepeatsReachesEachSessionOnce() {
        let gateway = UpdateGateway()
        let lane = QueuedLane()
        let received = Received()
        let connection = ObjectIdentifier(received)
        for key in Int64(1)...50 {
            gateway.subscribe(
                .init(authKeyId: key, sessionId: 1), connection: connection, lane: lane.lane,
                deliver: received.deliver("\(key)"))
        }
        // 5,000 keys, each of the 50 subscribed ones named 20 times, the others never subscribed.
        let keys = (0..<5_000).map { Int64($0 % 250 + 1) }
        #expect(gateway.push([.init(body: [7], authKeyIds: keys)]) == 50)
        lane.drain()
        #expect(lane.pieces == 1)
        for key in 1...50 { #expect(received["\(key)"] == [[7]]) }
    }
}
