import CryptoUtils
import Foundation
import TestVectors
import Testing

@Suite struct PQFactorizationTests {
    @Test func everyVector() throws {
        let vectors = try Fixtures.json("pq_vectors.json")["vectors"] as! [[String: Any]]
        #expect(vectors.count == 5)
        for v in vectors {
            let pq = (v["pq_dec"] as! NSNumber).uint64Value
            let p = (v["p_dec"] as! NSNumber).uint64Value, q = (v["q_dec"] as! NSNumber).uint64Value
            let result = try #require(PQFactorization.factorize(pq))
            #expect(result.p == p && result.q == q)
        }
    }

    /// Random products of two primes just below 2³² factor (about a millisecond each in release, see tl-bench; the
    /// bound here is loose because tests run unoptimized on a shared machine).
    @Test func randomSemiprimesAreFast() throws {
        let primes: [UInt64] = [4_294_967_291, 4_294_967_279, 4_294_967_231, 3_037_000_493, 2_147_483_647, 1_500_000_001]
        let start = Date()
        var count = 0
        for (i, p) in primes.enumerated() {
            for q in primes[(i + 1)...] {
                let result = try #require(PQFactorization.factorize(p * q))
                #expect(result.p == min(p, q) && result.q == max(p, q))
                count += 1
            }
        }
        let perFactorization = Date().timeIntervalSince(start) / Double(count)
        #expect(perFactorization < 1.0, "took \(perFactorization) s per factorization")
        #expect(PQFactorization.factorize(4_294_967_291) == nil)  // prime
        #expect(PQFactorization.factorize(3) == nil)
    }
}
