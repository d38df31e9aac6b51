/// What one seed does, drawn before anything runs: the accounts (each on a DC, so sign-in migrates for some) and the
/// steps — messages between them and in their group and supergroup, reads, edits, deletes, accounts going offline and coming back,
/// the server restarting, pushes going bad.
public struct SimulationWorkload: Sendable, Equatable {
    /// Each account's DC (its phone number lives there).
    public let datacenters: [Int32]
    /// How far the server's clock is from the clients' (whole hours, −48…+48): dates the server gives are that far
    /// from what the clients' own clocks say.
    public let serverClockSkew: Double
    /// How far each account's device clock is from true time (whole minutes, −180…+180): what it dates before the
    /// server has (a message waiting to be sent, a secret chat's timers) is that far off.
    public let deviceClockSkews: [Double]
    public let steps: [Step]

    /// Where a message goes: another account's private chat, the basic group of every account (made when there
    /// are three or more), the supergroup of every account (a channel with its own pts, made at the start), or the
    /// secret chat of a0 and a1 (made at the start).
    public enum Chat: Sendable, Equatable, CustomStringConvertible {
        case account(Int)
        case group
        case supergroup
        case secret

        public var description: String {
            switch self {
            case .account(let index): return "a\(index)"
            case .group: return "the group"
            case .supergroup: return "the supergroup"
            case .secret: return "the secret chat"
            }
        }
    }

    public enum Step: Sendable, Equatable, CustomStringConvertible {
        /// Account `from` enqueues `count` messages in `to` (while offline too: they wait in its queue).
        case send(from: Int, to: Chat, count: Int)
        /// Account `from` enqueues a document of `bytes` bytes (drawn from the seed) with a caption in `to`: uploaded
        /// in parts before it is sent (while offline too: it waits in the queue).
        case sendFile(from: Int, to: Chat, bytes: Int)
        /// The account stops (its network closes); what is pushed to it meanwhile is lost.
        case offline(Int)
        /// The account starts again and must catch up.
        case online(Int)
        /// tg-server dies and starts again on its storage while clients run.
        case restartServer
        /// The account's pushes start (or stop) being dropped with a lost connection, repeated, or held back behind
        /// the next one.
        case faultyNetwork(Int, Bool)
        /// The account edits one of the messages it sent (the `pick`-th, modulo how many it has; none while offline).
        case edit(Int, pick: Int)
        /// The account deletes one of the messages it sent, for everyone (the `pick`-th; none while offline).
        case delete(Int, pick: Int)
        /// The account reads the chat up to its newest message (none while offline).
        case read(Int, chat: Chat)
        /// The world's clock — the server's, every device's, every timer's — jumps forward by `seconds` (a long pause).
        case timePasses(seconds: Int)

        public var description: String {
            switch self {
            case .send(let from, let to, let count): return "a\(from) sends \(count) to \(to)"
            case .offline(let account): return "a\(account) goes offline"
            case .online(let account): return "a\(account) comes back"
            case .restartServer: return "the server restarts"
            case .faultyNetwork(let account, let on):
                return "a\(account)'s network \(on ? "goes bad" : "is clean again")"
            case .edit(let account, let pick): return "a\(account) edits its message \(pick)"
            case .delete(let account, let pick): return "a\(account) deletes its message \(pick) for everyone"
            case .read(let account, let chat): return "a\(account) reads its chat with \(chat)"
            case .timePasses(let seconds): return "time jumps \(seconds) s forward"
            case .sendFile(let from, let to, let bytes): return "a\(from) sends a file of \(bytes) bytes to \(to)"
            }
        }
    }

    /// The workload of `seed`: 2–4 accounts, 6–20 steps.
    public init(seed: UInt64) {
        var random = SimulationRandom(seed: seed)
        let count = random.int(2...4)
        datacenters = (0..<count).map { _ in Int32(random.int(1...3)) }
        serverClockSkew = Double(random.int(-48...48) * 3600)
        var online = Array(repeating: true, count: count)
        var faulty = Array(repeating: false, count: count)
        var steps: [Step] = []
        for _ in 0..<random.int(6...20) {
            let roll = random.int(0...99)
            let account = random.int(0...(count - 1))
            // Another account, the supergroup (one time in six) or (from three accounts on, one time in three) the
            // group.
            var other = random.int(0...(count - 2))
            if other >= account { other += 1 }
            let place = random.int(0...5)
            let chat: Chat = place == 0 ? .supergroup : count >= 3 && place <= 2 ? .group : .account(other)
            switch roll {
            case 0..<32:
                steps.append(.send(from: account, to: chat, count: random.int(1...3)))
            case 32..<38:
                // Small (one part), middling, or over one 512 KB part (uploaded and fetched in several).
                let sizes = [1...2_000, 2_000...200_000, 600_000...1_100_000]
                steps.append(.sendFile(from: account, to: chat, bytes: random.int(sizes[random.int(0...2)])))
            case 38..<45:
                steps.append(.send(from: random.int(0...1), to: .secret, count: random.int(1...3)))
            case 45..<57:
                online[account].toggle()
                steps.append(online[account] ? .online(account) : .offline(account))
            case 57..<63:
                steps.append(.restartServer)
            case 63..<70:
                steps.append(.edit(account, pick: random.int(0...99)))
            case 70..<76:
                steps.append(.delete(account, pick: random.int(0...99)))
            case 76..<86:
                steps.append(.read(account, chat: chat))
            case 86..<90:
                steps.append(.timePasses(seconds: [60, 3600, 86_400, 3 * 86_400][random.int(0...3)]))
            default:
                faulty[account].toggle()
                steps.append(.faultyNetwork(account, faulty[account]))
            }
        }
        self.steps = steps
        // Drawn last, so every seed's accounts and steps are what they were before devices' clocks were skewed.
        deviceClockSkews = (0..<count).map { _ in Double(random.int(-180...180) * 60) }
    }
}
