import CryptoUtils
import Synchronization

/// The Diffie–Hellman groups this process has already checked. Proving dh_prime a safe 2048-bit prime costs two
/// 2048-bit primality tests, so, as MtProtoKit does with its keychain cache, each (prime, g) is checked in full once
/// and then recognised; a group the server has not sent before is always checked in full.
enum VerifiedDHGroups {
    private static let verified = Mutex<Set<[UInt8]>>([])
    /// Client pools of precomputed (b, g_b), one per verified group, created on first use.
    private static let pools = Mutex<[[UInt8]: DHPairPool]>([:])

    /// `DiffieHellman.checkParameters`, skipped for a (prime, g) that passed it before in this process.
    static func check(prime: [UInt8], g: Int32) throws(DiffieHellman.Failure) {
        let key = prime + withUnsafeBytes(of: g.littleEndian) { Array($0) }
        if verified.withLock({ $0.contains(key) }) { return }
        try DiffieHellman.checkParameters(prime: prime, g: g)
        verified.withLock { _ = $0.insert(key) }
    }

    /// The pool of precomputed pairs for a verified (prime, g), created (and starting to fill) on the first call;
    /// nil for a group that has not passed `check`.
    static func pool(prime: [UInt8], g: Int32) -> DHPairPool? {
        let key = prime + withUnsafeBytes(of: g.littleEndian) { Array($0) }
        guard verified.withLock({ $0.contains(key) }) else { return nil }
        return pools.withLock { pools in
            if let pool = pools[key] { return pool }
            let pool = DHPairPool(g: g, prime: prime, capacity: 1)
            pools[key] = pool
            return pool
        }
    }
}
