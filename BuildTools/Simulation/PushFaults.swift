import AccountNetworking
import Foundation

/// One account's pushes as a bad network hands them over, each choice drawn from the account's own generator: while
/// faulty, a push is delivered (60 %), lost with its connection (10 %: nothing arrives, then the session says it
/// reconnected, as a dropped TCP connection does — MTProto loses no push silently), repeated (10 %), or held back and
/// delivered after the next one (20 %). `flush()` hands over what is held and the pending reconnect.
///
/// `@unchecked Sendable`: state under `lock`.
final class PushFaults: @unchecked Sendable {
    private let lock = NSLock()
    private var random = SimulationRandom(seed: 0)
    private var faulty = false
    private var held: [[UInt8]] = []
    private var lost = false
    private var deliver: (@Sendable (NetworkEvent) -> Void)?
    private var tally = Counts()
    /// What happened to this account's pushes so far.
    var counts: Counts { lock.withLock { tally } }

    struct Counts: Equatable, CustomStringConvertible {
        var delivered = 0
        var lost = 0
        var repeated = 0
        var held = 0
        var description: String { "\(delivered) delivered, \(lost) lost, \(repeated) repeated, \(held) held back" }
    }

    /// Draws this account's choices from `random` (set once the account is known; pushes before it are clean).
    func configure(random: SimulationRandom) { lock.withLock { self.random = random } }

    func setFaulty(_ on: Bool) { lock.withLock { faulty = on } }

    /// The network's push filter.
    func filter(_ body: [UInt8], _ deliver: @escaping @Sendable (NetworkEvent) -> Void) {
        var out: [NetworkEvent] = []
        lock.withLock {
            self.deliver = deliver
            let roll = faulty ? random.int(0...99) : 0
            switch roll {
            case 60..<70:
                tally.lost += 1
                lost = true
            case 70..<80:
                tally.repeated += 1
                out = [.updates(body), .updates(body)]
            case 80..<100:
                tally.held += 1
                held.append(body)
            default:
                tally.delivered += 1
                out = [.updates(body)] + held.map { .updates($0) }
                held = []
            }
        }
        for event in out { deliver(event) }
    }

    /// Hands over what is held, and the reconnect of a lost connection.
    func flush() {
        let (out, deliver) = lock.withLock { () -> ([NetworkEvent], (@Sendable (NetworkEvent) -> Void)?) in
            var out = held.map { NetworkEvent.updates($0) }
            if lost { out.append(.reconnected) }
            held = []
            lost = false
            return (out, self.deliver)
        }
        for event in out { deliver?(event) }
    }
}
