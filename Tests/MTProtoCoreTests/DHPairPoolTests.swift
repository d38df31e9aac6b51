import CryptoUtils
import Dispatch
import MTProtoApi
@testable import MTProtoCore
import Synchronization
import TLRuntime
import Testing

/// Pools of precomputed DH pairs: each pair goes to one exchange only, and never shows its secret.
@Suite struct DHPairPoolTests {
    /// The public values a pool generated.
    final class Made: Sendable {
        let values = Mutex<[[UInt8]]>([])
    }

    /// A pool of server-group pairs whose generation is recorded, filled by hand (no background refill).
    static func countingPool(capacity: Int) -> (DHPairPool, Made) {
        let made = Made()
        let pool = DHPairPool(capacity: capacity, refillInBackground: false) { () throws(CryptoError) in
            let pair = try DHPair.generate(g: DHGroup.generator, prime: DHGroup.prime)
            made.values.withLock { $0.append(pair.publicValue) }
            return pair
        }
        return (pool, made)
    }

    @Test func pairsAreValidAndHandedOutOnce() throws {
        let (pool, made) = Self.countingPool(capacity: 3)
        #expect(pool.readyCount == 0 && pool.take() == nil)
        pool.refill()
        #expect(pool.readyCount == 3)
        var seen: [[UInt8]] = []
        while let pair = pool.take() {
            try DiffieHellman.checkPublicValue(pair.publicValue, prime: DHGroup.prime)
            #expect(
                pair.publicValue
                    == (try DiffieHellman.publicValue(g: DHGroup.generator, secret: pair.secret, prime: DHGroup.prime)))
            seen.append(pair.publicValue)
        }
        #expect(seen.count == 3 && Set(seen).count == 3)
        #expect(Set(seen) == Set(made.values.withLock { $0 }))
        #expect(pool.handedOutCount == 3 && pool.take() == nil)
    }

    /// Two exchanges on one server pool of one pair: the first uses it, the second (pool now empty) computes its
    /// own; both complete and their auth keys differ.
    @Test func serverExchangeUsesAPooledPairAtMostOnce() throws {
        let serverKey = try RSAPrivateKey.generate(bits: 2048)
        let (pool, _) = Self.countingPool(capacity: 1)
        pool.refill()
        var keys: [AuthKey] = []
        for round in 0..<2 {
            var client = AuthKeyClientExchange(publicKeys: [serverKey.publicKey], dcId: 2)
            var server = AuthKeyServerExchange(keys: [serverKey], dhPool: pool)
            let (ours, theirs) = try AuthKeyExchangeTests.exchange(client: &client, server: &server)
            #expect(ours.authKey == theirs.authKey)
            keys.append(ours.authKey)
            #expect(pool.handedOutCount == 1, "round \(round)")
            #expect(pool.readyCount == 0)
        }
        #expect(keys[0] != keys[1])
    }

    /// The client's pool for a verified group: exchanges that use it agree with the server, and each takes a new
    /// pair (the pool's hand-out count grows by one per exchange that found a ready pair).
    @Test func clientExchangeUsesPooledPairs() throws {
        let serverKey = try RSAPrivateKey.generate(bits: 2048)
        let (pool, _) = Self.countingPool(capacity: 2)
        pool.refill()
        var keys: [AuthKey] = []
        for round in 0..<3 {
            var client = AuthKeyClientExchange(publicKeys: [serverKey.publicKey], dcId: 2, dhPools: { prime, g in
                prime == DHGroup.prime && g == DHGroup.generator ? pool : nil
            })
            var server = AuthKeyServerExchange(keys: [serverKey])
            let (ours, theirs) = try AuthKeyExchangeTests.exchange(client: &client, server: &server)
            #expect(ours.authKey == theirs.authKey)
            keys.append(ours.authKey)
            #expect(pool.handedOutCount == min(round + 1, 2))
        }
        #expect(Set(keys.map(\.bytes)).count == 3)
    }

    /// Concurrent takes never hand one pair to two callers.
    @Test func concurrentTakesAreDisjoint() {
        let pool = DHPairPool(capacity: 40, refillInBackground: false) { () throws(CryptoError) in
            DHPair(secret: SecureRandom.bytes(256), publicValue: SecureRandom.bytes(256))
        }
        pool.refill()
        let taken = Made()
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            if let pair = pool.take() { taken.values.withLock { $0.append(pair.publicValue) } }
        }
        let all = taken.values.withLock { $0 }
        #expect(all.count == 40 && Set(all).count == 40)
        #expect(pool.handedOutCount == 40 && pool.readyCount == 0)
    }

    /// The background refill tops the pool up after a take (polls a real background queue, bounded at 10 s).
    @Test func backgroundRefillTopsUp() async throws {
        let pool = DHPairPool(g: DHGroup.generator, prime: DHGroup.prime, capacity: 2)
        var waited = 0
        while pool.readyCount < 2, waited < 2_000 {
            try await Task.sleep(for: .milliseconds(5))
            waited += 1
        }
        #expect(pool.readyCount == 2)
        #expect(pool.take() != nil)
        waited = 0
        while pool.readyCount < 2, waited < 2_000 {
            try await Task.sleep(for: .milliseconds(5))
            waited += 1
        }
        #expect(pool.readyCount == 2 && pool.handedOutCount == 1)
    }

    @Test func descriptionHidesTheSecret() {
        let pair = DHPair(secret: [UInt8](repeating: 0xab, count: 256), publicValue: [UInt8](repeating: 0xcd, count: 256))
        for text in ["\(pair)", String(reflecting: pair)] {
            #expect(!text.contains("ab") && !text.contains("171") && !text.contains("cd") && !text.contains("205"))
        }
    }
}

extension DHPairPoolTests {
    /// A generator that fails leaves the pool empty (exchanges compute inline) and is not retried in a loop: only
    /// each take() schedules another attempt.
    @Test func failingGeneratorDoesNotSpin() async throws {
        let calls = Made()
        let pool = DHPairPool(capacity: 2) { () throws(CryptoError) in
            calls.values.withLock { $0.append([]) }
            throw CryptoError.outOfRange("test")
        }
        func count() -> Int { calls.values.withLock { $0.count } }
        func waitFor(_ n: Int) async throws {
            for _ in 0..<1_000 where count() < n { try await Task.sleep(for: .milliseconds(5)) }
        }
        try await waitFor(1)
        try await Task.sleep(for: .milliseconds(50))  // a spinning refill would have called it hundreds of times
        #expect(count() == 1)
        #expect(pool.take() == nil)
        try await waitFor(2)
        try await Task.sleep(for: .milliseconds(50))
        #expect(count() == 2)
        #expect(pool.readyCount == 0)
    }
}
