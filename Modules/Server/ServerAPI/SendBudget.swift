/// A token bucket: `rate` tokens a second up to `capacity`, each sent message spending one. What is left when the
/// bucket is empty is the wait a `FLOOD_WAIT_X` names (core.telegram.org "Error handling", 420 FLOOD_WAIT: "the
/// client must wait X seconds before repeating the call"). Pure: the caller passes the time.
struct SendBudget: Equatable, Sendable {
    let rate: Double
    let capacity: Double
    private(set) var tokens: Double
    private(set) var updated: Double

    /// A full bucket at `now`.
    init(rate: Double, capacity: Double, now: Double) {
        self.rate = rate
        self.capacity = capacity
        tokens = capacity
        updated = now
    }

    /// Spends `count` tokens, or — if there are too few — spends none and returns the whole seconds until there are
    /// enough (at least 1). A request larger than the bucket waits for a full bucket and then passes.
    mutating func spend(_ count: Int, now: Double) -> Int? {
        refill(now: now)
        let needed = min(Double(count), capacity)
        if tokens >= needed {
            tokens -= Double(count)
            return nil
        }
        let wait = (needed - tokens) / rate
        return max(1, Int(wait.rounded(.up)))
    }

    /// Whether the bucket has refilled completely by `now` (then it can be forgotten and made again).
    func isFull(now: Double) -> Bool {
        tokens + (now - updated) * rate >= capacity
    }

    private mutating func refill(now: Double) {
        if now > updated {
            tokens = min(capacity, tokens + (now - updated) * rate)
            updated = now
        }
    }
}
