public import CryptoUtils
import Dispatch
import Synchronization

/// One Diffie–Hellman pair of a group (g, dh_prime): the secret exponent and `g^secret mod dh_prime` — the server's
/// (a, g_a) or the client's (b, g_b).
///
/// Secret: its description and its mirror (`dump`) hide both numbers, so that logging one never leaks the exponent.
public struct DHPair: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The secret exponent (256 random bytes).
    public let secret: [UInt8]
    /// `g^secret mod dh_prime`, already checked against the range the security guidelines require.
    public let publicValue: [UInt8]

    /// A fresh pair: random secrets until the public value lies in the allowed range (MTProto security guidelines:
    /// 2^{2048−64} ≤ g_a, g_b ≤ dh_prime − 2^{2048−64}). Gives up after 16 draws (a wrong group).
    public static func generate(
        g: Int32, prime: [UInt8], random: (Int) -> [UInt8] = SecureRandom.bytes
    ) throws(CryptoError) -> DHPair {
        for _ in 0..<16 {
            let secret = random(256)
            let value = try DiffieHellman.publicValue(g: g, secret: secret, prime: prime)
            if (try? DiffieHellman.checkPublicValue(value, prime: prime)) != nil {
                return DHPair(secret: secret, publicValue: value)
            }
        }
        throw .outOfRange("no DH public value in range after 16 draws")
    }

    public var description: String { "DHPair(<secret>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

/// Precomputed DH pairs of one group, so that a key exchange does not wait for its own `g^x mod p` (one of the
/// 2048-bit exponentiations on the critical path): the server's g_a, and the client's g_b for a group it has
/// already verified.
///
/// Each pair is handed out **once**: `take()` removes it under the lock, so two exchanges never share a secret.
/// After each take (and at start) a background task refills the pool up to `capacity`, off the connection's path.
/// When the pool is empty, `take()` returns nil and the exchange computes its pair inline.
public final class DHPairPool: Sendable {
    /// How many pairs the pool keeps ready.
    public let capacity: Int
    private let state = Mutex<State>(State())
    private let queue = DispatchQueue(label: "DHPairPool.refill", qos: .utility)
    private let generate: @Sendable () throws(CryptoError) -> DHPair
    private let refillInBackground: Bool

    private struct State {
        var pairs: [DHPair] = []
        var refilling = false
        var handedOut = 0
    }

    /// A pool of `capacity` pairs of the group (g, prime), refilled in the background.
    public convenience init(g: Int32, prime: [UInt8], capacity: Int) {
        self.init(capacity: capacity) { () throws(CryptoError) in try DHPair.generate(g: g, prime: prime) }
    }

    /// A pool of `capacity` pairs made by `generate` (injectable for tests). `refillInBackground: false` leaves
    /// filling to `refill()` (deterministic tests).
    public init(
        capacity: Int, refillInBackground: Bool = true,
        generate: @escaping @Sendable () throws(CryptoError) -> DHPair
    ) {
        self.capacity = max(0, capacity)
        self.generate = generate
        self.refillInBackground = refillInBackground
        scheduleRefill()
    }

    /// Removes and returns one ready pair, or nil when none is ready; schedules a refill.
    public func take() -> DHPair? {
        let pair = state.withLock { state -> DHPair? in
            guard !state.pairs.isEmpty else { return nil }
            state.handedOut += 1
            return state.pairs.removeLast()
        }
        scheduleRefill()
        return pair
    }

    /// How many pairs are ready now.
    public var readyCount: Int { state.withLock { $0.pairs.count } }

    /// How many pairs `take()` has handed out so far.
    public var handedOutCount: Int { state.withLock { $0.handedOut } }

    /// Fills the pool up to `capacity` on the calling thread; false when a generation failed (the pool stays short).
    @discardableResult
    public func refill() -> Bool {
        while state.withLock({ $0.pairs.count < capacity }) {
            guard let pair = try? generate() else { return false }
            state.withLock { state in
                if state.pairs.count < capacity { state.pairs.append(pair) }
            }
        }
        return true
    }

    private func scheduleRefill() {
        guard refillInBackground else { return }
        let start = state.withLock { state -> Bool in
            guard !state.refilling, state.pairs.count < capacity else { return false }
            state.refilling = true
            return true
        }
        guard start else { return }
        queue.async { [self] in
            let filled = refill()
            state.withLock { $0.refilling = false }
            // A take() during the last generation may have found `refilling` set and skipped scheduling. After a
            // failed generation the next take() schedules again, so a broken generator never spins.
            if filled, state.withLock({ $0.pairs.count < capacity }) { scheduleRefill() }
        }
    }
}
