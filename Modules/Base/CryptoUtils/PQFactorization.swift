/// Splits MTProto's `pq` (a product of two primes below 2³²) with Pollard's rho in Brent's variant
/// (MTProto §Creating an Authorization Key, step 2: "decompose pq into prime factors such that p < q").
public enum PQFactorization {
    /// The most iterations of x ↦ x² + c one call spends over all its attempts. A genuine pq (two primes below 2³²)
    /// splits after about 2¹⁷ of them; the bound keeps a forged pq (a large prime, a product of a small and a
    /// 62-bit prime) from costing more than a few milliseconds.
    public static let defaultMaximumSteps: UInt64 = 1 << 22

    /// `(p, q)` with `p ≤ q` and `p * q == pq`; `nil` when pq is below 4, prime, or the search spends
    /// `maximumSteps` iterations without a factor.
    public static func factorize(_ pq: UInt64, maximumSteps: UInt64 = defaultMaximumSteps) -> (p: UInt64, q: UInt64)? {
        var budget = maximumSteps
        return factorize(pq, budget: &budget)
    }

    /// `factorize`, charging the iterations it spends to `budget` (what is left comes back).
    public static func factorize(_ pq: UInt64, budget: inout UInt64) -> (p: UInt64, q: UInt64)? {
        guard pq >= 4 else { return nil }
        if pq % 2 == 0 { return (2, pq / 2) }
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<32 where budget > 0 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let c = seed % (pq - 1) + 1
            let y0 = (seed >> 17) % pq
            if let divisor = brent(pq, c: c, y0: y0, budget: &budget), divisor != 1, divisor != pq {
                let other = pq / divisor
                return divisor < other ? (divisor, other) : (other, divisor)
            }
        }
        return nil
    }

    static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return x
    }

    /// Montgomery arithmetic modulo an odd n < 2⁶⁴ (R = 2⁶⁴): multiplication without 128-bit division.
    struct Montgomery {
        let n: UInt64
        /// −n⁻¹ mod 2⁶⁴.
        let nPrime: UInt64

        init(_ n: UInt64) {
            self.n = n
            var inverse: UInt64 = n  // Newton's iteration: correct to 3, 6, 12, 24, 48, 96 bits
            for _ in 0..<5 { inverse = inverse &* (2 &- n &* inverse) }
            nPrime = 0 &- inverse
        }

        /// a·b·R⁻¹ mod n for a, b < n.
        @inline(__always)
        func multiply(_ a: UInt64, _ b: UInt64) -> UInt64 {
            let t = a.multipliedFullWidth(by: b)
            let m = t.low &* nPrime
            let mn = m.multipliedFullWidth(by: n)
            let carry: UInt64 = t.low == 0 ? 0 : 1  // t.low + mn.low is 0 or 2⁶⁴
            let (sum, overflow1) = t.high.addingReportingOverflow(mn.high)
            let (u, overflow2) = sum.addingReportingOverflow(carry)
            return (overflow1 || overflow2 || u >= n) ? u &- n : u
        }
    }

    /// Brent's cycle search with batched gcds (R. P. Brent, "An improved Monte Carlo factorization algorithm", 1980),
    /// iterating x ↦ x² + c in Montgomery form (the gcds are unaffected: R is coprime to the odd n).
    static func brent(_ n: UInt64, c: UInt64, y0: UInt64, budget: inout UInt64) -> UInt64? {
        let mont = Montgomery(n)
        func f(_ x: UInt64) -> UInt64 {
            let square = mont.multiply(x, x)
            return square >= n - c ? square - (n - c) : square + c
        }
        let m: UInt64 = 128
        var y = y0, x = y0, ys = y0
        var g: UInt64 = 1, r: UInt64 = 1, q: UInt64 = 1
        while g == 1 {
            x = y
            for _ in 0..<r { y = f(y) }
            var k: UInt64 = 0
            while k < r && g == 1 {
                ys = y
                for _ in 0..<min(m, r - k) {
                    y = f(y)
                    q = mont.multiply(q, x > y ? x - y : y - x)
                }
                g = gcd(q, n)
                k += m
            }
            // This round walked r steps to move y and up to r more inside the batches.
            let spent = 2 * r
            guard budget > spent else {
                budget = 0
                return nil
            }
            budget -= spent
            r *= 2
        }
        if g == n {
            // The batch overshot: step back through it one gcd at a time (at most m steps).
            var backtrack: UInt64 = 0
            repeat {
                ys = f(ys)
                g = gcd(x > ys ? x - ys : ys - x, n)
                backtrack += 1
            } while g == 1 && backtrack < 2 * m
        }
        return g
    }
}
