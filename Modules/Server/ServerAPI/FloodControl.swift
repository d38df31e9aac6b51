import CoreMetrics
import Foundation

/// The server's flood control (core.telegram.org "Error handling", 420 `FLOOD_WAIT_X`): every account has a sending
/// budget (`SendBudget`, messages a second with a burst) so one client cannot fill the database as fast as the disk
/// takes it; and, for client tests, chosen methods can be made to flood on purpose.
///
/// Each `FLOOD_WAIT_X` it answers counts in `tg_server_flood_waits_total` (`reason`: `send_budget` or `test_flood`).
///
/// `@unchecked Sendable`: the maps are read and written under `lock`. Both are bounded: full buckets and expired
/// test floods are forgotten once a map passes `trackedLimit` entries, and past it new entries are refused
/// tracking (budgets) or not made (test floods).
public final class FloodControl: @unchecked Sendable {
    /// How much an account may send, and which methods flood on purpose.
    public struct Configuration: Sendable, Equatable {
        /// Messages an account may send a second, sustained; 0 turns the budget off.
        public var messagesPerSecond: Double
        /// Messages an account may send at once after a quiet spell.
        public var messageBurst: Int
        /// Method name (`help.getNearestDc`) → seconds: a call of it answers `FLOOD_WAIT_<seconds>` unless it
        /// comes at least that long after the key's last flood answer for it (so the first call floods, and a
        /// client that waits as told is served).
        public var testFloods: [String: Int]
        /// The most phone contacts one `contacts.importContacts` imports; the rest of the call come back in
        /// `retry_contacts`, as Telegram answers an account that imports too many at once.
        public var contactImportsPerCall: Int

        public init(
            messagesPerSecond: Double = 100, messageBurst: Int = 3_000, testFloods: [String: Int] = [:],
            contactImportsPerCall: Int = ServerBackend.importContactsLimit
        ) {
            self.messagesPerSecond = messagesPerSecond
            self.messageBurst = messageBurst
            self.testFloods = testFloods
            self.contactImportsPerCall = contactImportsPerCall
        }
    }

    /// Entries either map may hold before it is swept.
    static let trackedLimit = 100_000

    public let configuration: Configuration
    private let lock = NSLock()
    private var budgets: [Int64: SendBudget] = [:]
    private var testFloodAnswers: [TestFloodKey: Double] = [:]

    private struct TestFloodKey: Hashable {
        let authKeyId: Int64
        let method: String
    }

    public init(_ configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Charges `count` sent messages to `userId`; throws `FLOOD_WAIT_X` when the account's budget is spent.
    func chargeSending(_ count: Int, userId: Int64, now: Double) throws(APIError) {
        guard configuration.messagesPerSecond > 0 else { return }
        let wait: Int? = lock.withLock {
            var budget =
                budgets[userId]
                ?? SendBudget(
                    rate: configuration.messagesPerSecond, capacity: Double(configuration.messageBurst), now: now)
            let wait = budget.spend(count, now: now)
            if budgets.count >= Self.trackedLimit, budgets[userId] == nil {
                budgets = budgets.filter { !$0.value.isFull(now: now) }
            }
            if budgets.count < Self.trackedLimit || budgets[userId] != nil { budgets[userId] = budget }
            return wait
        }
        if let wait {
            Counter(label: "tg_server_flood_waits_total", dimensions: [("reason", "send_budget")]).increment()
            throw APIError.floodWait(wait)
        }
    }

    /// Throws `FLOOD_WAIT_X` for a method configured to flood, as `Configuration.testFloods` describes.
    func checkTestFlood(method: String, authKeyId: Int64, now: Double) throws(APIError) {
        guard let seconds = configuration.testFloods[method] else { return }
        let key = TestFloodKey(authKeyId: authKeyId, method: method)
        let wait: Int? = lock.withLock {
            if let last = testFloodAnswers[key] {
                // A worker that read the clock before the one that recorded the flood took the lock first: it has
                // waited nothing, not less than nothing (it would be told more than the configured wait).
                let waited = max(0, now - last)
                return waited >= Double(seconds) ? nil : max(1, Int((Double(seconds) - waited).rounded(.up)))
            }
            if testFloodAnswers.count >= Self.trackedLimit {
                testFloodAnswers = testFloodAnswers.filter {
                    now - $0.value < Double(configuration.testFloods[$0.key.method] ?? 0)
                }
            }
            if testFloodAnswers.count < Self.trackedLimit { testFloodAnswers[key] = now }
            return seconds
        }
        if let wait {
            Counter(label: "tg_server_flood_waits_total", dimensions: [("reason", "test_flood")]).increment()
            throw APIError.floodWait(wait)
        }
    }
}
