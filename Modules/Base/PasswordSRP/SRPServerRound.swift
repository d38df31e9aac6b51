public import CryptoUtils

/// One server round of the password check (core.telegram.org "Two-factor authentication"): the server's secret
/// `b`, its public `g_b` — `srp_B` in `account.password` — and the round's `srp_id`. `check` then verifies the
/// client's `inputCheckPasswordSRP` (`srp_id`, `A`, `M1`) of `auth.checkPassword` and the methods that take a
/// password.
///
/// A round answers one check: the caller forgets it after `check` (right or wrong) and answers the next
/// `account.getPassword` with a new one, so each guess costs the client a round trip. Its description and mirror
/// show `srp_id` only: `b` is secret, and `v` (held for the check) allows offline guessing.
public struct SRPServerRound: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `srp_id`: names this round in the client's proof.
    public let id: Int64
    /// `srp_B` = `g_b := (k·v + pow(g, b)) mod p`, padded to 256 bytes.
    public let publicValue: [UInt8]
    /// The account's current algorithm (salts, g, p).
    public let algorithm: SRPAlgorithm
    private let verifier: SRPVerifier
    private let secret: [UInt8]

    /// A fresh round for an account whose password has `verifier` under `algorithm`: a random 2048-bit `b`, redrawn
    /// until both `pow(g, b)` and `g_b` lie in the range a client checks (2^(2048−64) from either end of (1, p − 1))
    /// — a client refuses a `g_b` outside it, and checks `g_b − k·v` the same way. `random` supplies bytes (tests
    /// inject a seeded source); `id` defaults to a random `srp_id`.
    public static func start(
        algorithm: SRPAlgorithm, verifier: SRPVerifier, id: Int64? = nil,
        random: (Int) -> [UInt8] = SecureRandom.bytes
    ) throws(SRPError) -> SRPServerRound {
        let k = SRPMath.k(algorithm)
        for _ in 0..<16 {
            let b = random(SRPMath.numberLength)
            let (gb, B) = try SRPMath.crypto { () throws(CryptoError) in
                let gb = try DiffieHellman.publicValue(g: algorithm.g, secret: b, prime: algorithm.p)
                let kv = try BigNum.modMul(k, verifier.bytes, modulus: algorithm.p)
                return (gb, SRPMath.padded(try BigNum.modAdd(kv, gb, modulus: algorithm.p)))
            }
            guard (try? SRPMath.checkPublicValue(gb, "g^b", prime: algorithm.p)) != nil,
                (try? SRPMath.checkPublicValue(B, "g_b", prime: algorithm.p)) != nil
            else { continue }
            let roundID = id ?? Int64(bitPattern: SecureRandom.uint64())
            return SRPServerRound(id: roundID, publicValue: B, algorithm: algorithm, verifier: verifier, secret: b)
        }
        throw .valueOutOfRange(what: "g_b (16 draws of b)")
    }

    /// Checks a client's proof, and returns normally only when it shows knowledge of the password:
    /// 1. `srpID` names this round (`.wrongRound`);
    /// 2. `A` (`g_a`) is at most 256 bytes, `1 < g_a < p − 1` and 2^(2048−64) from either end (`.valueTooLong`,
    ///    `.valueOutOfRange`): `g_a` = 0, 1 or p − 1 would let a client fix `S` without the password;
    /// 3. `u := H(g_a | g_b)` is not zero (`.scramblingParameterZero`);
    /// 4. `s_b := pow(g_a · pow(v, u), b) mod p`, `k_b := H(s_b)` and
    ///    `M1 := H(H(p) xor H(g) | H(salt1) | H(salt2) | g_a | g_b | k_b)` equals the client's `M1`, compared in
    ///    constant time (`ConstantTime.equals`); a 32-byte `M1` that differs is `.proofMismatch`, another length
    ///    `.valueTooLong` or `.proofMismatch`.
    public func check(srpID: Int64, A: [UInt8], M1: [UInt8]) throws(SRPError) {
        guard srpID == id else { throw .wrongRound }
        guard M1.count <= 32 else { throw .valueTooLong(what: "M1", bytes: M1.count, limit: 32) }
        try SRPMath.checkPublicValue(A, "g_a (A)", prime: algorithm.p)
        guard let u = SRPMath.u(A: A, B: publicValue) else { throw .scramblingParameterZero }
        let S = try SRPMath.crypto { () throws(CryptoError) in
            let vu = try BigNum.modExp(base: verifier.bytes, exponent: u, modulus: algorithm.p, exponentIsSecret: false)
            let base = try BigNum.modMul(A, vu, modulus: algorithm.p)
            return try BigNum.modExp(base: base, exponent: secret, modulus: algorithm.p)
        }
        let expected = SRPMath.m1(algorithm: algorithm, A: A, B: publicValue, S: S)
        guard ConstantTime.equals(expected, M1) else { throw .proofMismatch }
    }

    private init(id: Int64, publicValue: [UInt8], algorithm: SRPAlgorithm, verifier: SRPVerifier, secret: [UInt8]) {
        self.id = id
        self.publicValue = publicValue
        self.algorithm = algorithm
        self.verifier = verifier
        self.secret = secret
    }

    public var description: String { "SRPServerRound(srp_id \(id), secret redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["id": id], displayStyle: .struct) }
}
