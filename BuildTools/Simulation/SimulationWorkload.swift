/// What one seed does, drawn before anything runs: the accounts (each on a DC, so sign-in migrates for some) and the
/// steps — messages between them, accounts going offline and coming back, the server restarting, pushes going bad.
public struct SimulationWorkload: Sendable, Equatable {
    /// Each account's DC (its phone number lives there).
    public let datacenters: [Int32]
    public let steps: [Step]

    public enum Step: Sendable, Equatable, CustomStringConvertible {
        /// Account `from` enqueues `count` messages to account `to` (while offline too: they wait in its queue).
        case send(from: Int, to: Int, count: Int)
        /// The account stops (its network closes); what is pushed to it meanwhile is lost.
        case offline(Int)
        /// The account starts again and must catch up.
        case online(Int)
        /// tg-server dies and starts again on its storage while clients run.
        case restartServer
        /// The account's pushes start (or stop) being dropped with a lost connection, repeated, or held back behind
        /// the next one.
        case faultyPushes(Int, Bool)
        /// The account edits one of the messages it sent (the `pick`-th, modulo how many it has; none while offline).
        case edit(Int, pick: Int)
        /// The account deletes one of the messages it sent, for everyone (the `pick`-th; none while offline).
        case delete(Int, pick: Int)

        public var description: String {
            switch self {
            case .send(let from, let to, let count): return "a\(from) sends \(count) to a\(to)"
            case .offline(let account): return "a\(account) goes offline"
            case .online(let account): return "a\(account) comes back"
            case .restartServer: return "the server restarts"
            case .faultyPushes(let account, let on): return "a\(account)'s pushes \(on ? "go bad" : "are clean again")"
            case .edit(let account, let pick): return "a\(account) edits its message \(pick)"
            case .delete(let account, let pick): return "a\(account) deletes its message \(pick) for everyone"
            }
        }
    }

    /// The workload of `seed`: 2–4 accounts, 6–20 steps.
    public init(seed: UInt64) {
        var random = SimulationRandom(seed: seed)
        let count = random.int(2...4)
        datacenters = (0..<count).map { _ in Int32(random.int(1...3)) }
        var online = Array(repeating: true, count: count)
        var faulty = Array(repeating: false, count: count)
        var steps: [Step] = []
        for _ in 0..<random.int(6...20) {
            let roll = random.int(0...99)
            let account = random.int(0...(count - 1))
            switch roll {
            case 0..<50:
                var to = random.int(0...(count - 2))
                if to >= account { to += 1 }
                steps.append(.send(from: account, to: to, count: random.int(1...3)))
            case 50..<65:
                online[account].toggle()
                steps.append(online[account] ? .online(account) : .offline(account))
            case 65..<72:
                steps.append(.restartServer)
            case 72..<79:
                steps.append(.edit(account, pick: random.int(0...99)))
            case 79..<86:
                steps.append(.delete(account, pick: random.int(0...99)))
            default:
                faulty[account].toggle()
                steps.append(.faultyPushes(account, faulty[account]))
            }
        }
        self.steps = steps
    }
}
