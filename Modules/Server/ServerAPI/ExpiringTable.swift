import Synchronization

/// Values by an `Int64` key (an account, a key, a token id), each living `lifetime` seconds from when it was kept,
/// at most `capacity` at once: when full, expired entries are dropped first, and a key not already kept is then
/// refused. What the server keeps between two calls of one client — a password round, a pending sign-in, an exported
/// authorization — is bounded this way, so that no client can make it grow.
final class ExpiringTable<Value: Sendable>: Sendable {
    private struct Entry: Sendable {
        var value: Value
        let expires: Double
    }

    private let entries = Mutex<[Int64: Entry]>([:])
    private let clock: @Sendable () -> Double
    let capacity: Int
    let lifetime: Double

    init(clock: @escaping @Sendable () -> Double, capacity: Int, lifetime: Double) {
        self.clock = clock
        self.capacity = capacity
        self.lifetime = lifetime
    }

    /// When a value kept now expires.
    var expiryOfNew: Double { clock() + lifetime }

    /// Keeps `value` under `key` for `lifetime` seconds, replacing what the key had; `false` when the table is full
    /// of live entries and `key` is not among them.
    @discardableResult
    func keep(_ key: Int64, _ value: Value) -> Bool {
        let now = clock()
        return entries.withLock { entries in
            if entries.count >= capacity { entries = entries.filter { $0.value.expires > now } }
            guard entries.count < capacity || entries[key] != nil else { return false }
            entries[key] = Entry(value: value, expires: now + lifetime)
            return true
        }
    }

    /// The value under `key`, while it lives.
    func value(_ key: Int64) -> Value? {
        let now = clock()
        return entries.withLock { entries in
            guard let entry = entries[key], entry.expires > now else { return nil }
            return entry.value
        }
    }

    /// Runs `body` on the live value under `key` in place; returns what it returns, or nil when none lives.
    func update<T>(_ key: Int64, _ body: (inout Value) -> T?) -> T? {
        let now = clock()
        return entries.withLock { entries -> T? in
            guard var entry = entries[key], entry.expires > now else { return nil }
            let result = body(&entry.value)
            entries[key] = entry
            return result
        }
    }

    /// Removes and returns the live value under `key` when `accept` takes it (an expired one is only removed); a
    /// value `accept` refuses stays.
    func take(_ key: Int64, if accept: (Value) -> Bool = { _ in true }) -> Value? {
        let now = clock()
        return entries.withLock { entries -> Value? in
            guard let entry = entries[key] else { return nil }
            guard entry.expires > now else {
                entries[key] = nil
                return nil
            }
            guard accept(entry.value) else { return nil }
            entries[key] = nil
            return entry.value
        }
    }
}
