public import CryptoUtils

/// What a client sends to prove it knows the password: `inputCheckPasswordSRP#d27ff082 srp_id:long A:bytes
/// M1:bytes` (core.telegram.org "Two-factor authentication"). All three are public.
public struct SRPClientProof: Sendable, Equatable {
    /// The round's `srp_id`, from `account.password`.
    public let srpID: Int64
    /// `g_a := pow(g, a) mod p`, padded to 256 bytes.
    public let A: [UInt8]
    /// `M1`, 32 bytes.
    public let M1: [UInt8]
}

/// The client's half of two-step verification (core.telegram.org "Two-factor authentication"; Telethon's
/// `telethon/password.py`, Telegram-iOS's `passwordKDF` and `passwordUpdateKDF` in
/// `submodules/TelegramCore/Sources/Account/Account.swift`).
public enum SRPClient {
    /// The proof for `password` against the `account.password` the server sent: `algorithm` is its
    /// `current_algo`, `srpB` its `srp_B`, `srpID` its `srp_id`. In the page's order:
    /// 1. `p` and `g` are checked (`SRPAlgorithm.check`), `g_b` is at most 256 bytes and in range;
    /// 2. a random 2048-bit `a` (from `random`), redrawn until `g_a := pow(g, a) mod p` is in range and
    ///    `u := H(g_a | g_b)` is not zero;
    /// 3. `x := PH2(password, salt1, salt2)`, `v := pow(g, x) mod p`, `k := H(p | g)`, `k_v := k·v mod p`,
    ///    `t := (g_b − k_v) mod p` (checked in range, as Telethon and Telegram-iOS do);
    /// 4. `s_a := pow(t, a + u·x) mod p` (the exponent reduced mod p − 1, a secret: constant-time), `k_a := H(s_a)`,
    ///    `M1 := H(H(p) xor H(g) | H(salt1) | H(salt2) | g_a | g_b | k_a)`.
    public static func proof(
        password: String, algorithm: SRPAlgorithm, srpB: [UInt8], srpID: Int64,
        random: (Int) -> [UInt8] = SecureRandom.bytes
    ) throws(SRPError) -> SRPClientProof {
        try algorithm.check()
        let p = algorithm.p
        try SRPMath.checkPublicValue(srpB, "g_b (srp_B)", prime: p)
        let B = SRPMath.padded(srpB)
        var chosen: (a: [UInt8], A: [UInt8], u: [UInt8])?
        for _ in 0..<16 where chosen == nil {
            let a = random(SRPMath.numberLength)
            let A = try SRPMath.crypto { () throws(CryptoError) in
                SRPMath.padded(try DiffieHellman.publicValue(g: algorithm.g, secret: a, prime: p))
            }
            guard (try? SRPMath.checkPublicValue(A, "g_a", prime: p)) != nil, let u = SRPMath.u(A: A, B: B) else {
                continue
            }
            chosen = (a, A, u)
        }
        guard let (a, A, u) = chosen else { throw .valueOutOfRange(what: "g_a (16 draws of a)") }
        let x = try SRPMath.crypto { () throws(CryptoError) in
            try PasswordKDF.ph2(password: password, algorithm: algorithm)
        }
        let v = try SRPVerifier(x: x, algorithm: algorithm)
        let t = try SRPMath.crypto { () throws(CryptoError) in
            try BigNum.modSub(B, try BigNum.modMul(SRPMath.k(algorithm), v.bytes, modulus: p), modulus: p)
        }
        try SRPMath.checkPublicValue(t, "g_b − k·v", prime: p)
        let S = try SRPMath.crypto { () throws(CryptoError) in
            let order = try SRPMath.groupOrder(algorithm)
            let exponent = try BigNum.modAdd(a, try BigNum.modMul(u, x.x, modulus: order), modulus: order)
            return try BigNum.modExp(base: t, exponent: exponent, modulus: p)
        }
        return SRPClientProof(srpID: srpID, A: A, M1: SRPMath.m1(algorithm: algorithm, A: A, B: B, S: S))
    }

    /// The client's side of setting a password (`account.updatePasswordSettings`'s `new_settings`): appends 32
    /// random bytes to the offered `new_algo`'s `salt1` (as Telethon and Telegram-iOS do) and derives
    /// `new_password_hash` = `v` under the result. Returns the algorithm to send as `new_algo` and the verifier.
    public static func newPassword(
        _ password: String, offered: SRPAlgorithm, random: (Int) -> [UInt8] = SecureRandom.bytes
    ) throws(SRPError) -> (algorithm: SRPAlgorithm, verifier: SRPVerifier) {
        try offered.check()
        var algorithm = offered
        algorithm.salt1 += random(32)
        return (algorithm, try SRPVerifier(password: password, algorithm: algorithm))
    }
}
