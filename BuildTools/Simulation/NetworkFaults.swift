import AccountNetworking
import Foundation
import TLRuntime
import TelegramApi

/// One account's network as a bad one treats it, each choice drawn from the account's own generator. While faulty:
/// - a push is delivered (60 %), lost with its connection (10 %: nothing arrives, then the session says it
///   reconnected, as a dropped TCP connection does — MTProto loses no push silently), repeated (10 %), or held back
///   and delivered after the next one (20 %); `flush()` hands over what is held and the pending reconnect;
/// - a call that changes something (sending, editing, deleting, reading) loses its answer 1 time in 8: the server ran
///   it, the connection dropped, the transport sends it again and the server runs it again (`LoopbackNetwork`'s
///   call filter). Whether a call's answer is lost is a function of the seed, the account and what the call says
///   (not of when it happens), so a seed replays even where an account's calls race.
///
/// `@unchecked Sendable`: state under `lock`.
final class NetworkFaults: @unchecked Sendable {
    private let lock = NSLock()
    private var random = SimulationRandom(seed: 0)
    private var callSalt: UInt64 = 0
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

    /// Draws this account's choices from `random` (set once the account is known; the network before it is clean).
    func configure(random: SimulationRandom) {
        lock.withLock {
            self.random = random.split(1)
            var calls = random.split(2)
            callSalt = calls.next()
        }
    }

    /// The network's call filter: true when the call's answer is lost (and the server runs it twice).
    func loseAnswer(_ function: any TLFunction) -> Bool {
        guard let key = Self.faultKey(function) else { return false }
        let (faulty, salt) = lock.withLock { (self.faulty, callSalt) }
        guard faulty else { return false }
        // FNV-1a over what the call says, then one SplitMix64 step: a choice fixed by the seed and the call.
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ salt
        for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        var draw = SimulationRandom(seed: hash)
        return draw.next() % 8 == 0
    }

    /// What identifies a call that changes something, from the fields the workload fixes (texts, message ids), not
    /// the client's random ones (`random_id`, access hashes); nil for the calls that only read.
    static func faultKey(_ function: any TLFunction) -> String? {
        switch function {
        case let call as Api.functions.messages.sendMessage: "send \(call.message)"
        case let call as Api.functions.messages.editMessage: "edit \(call.id) \(call.message ?? "")"
        case let call as Api.functions.messages.deleteMessages: "delete \(call.id)"
        case let call as Api.functions.messages.readHistory: "read \(call.maxId)"
        default: nil
        }
    }

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
