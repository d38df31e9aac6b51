import CryptoUtils
import PasswordSRP
import TestVectors
import Testing

/// Our client against our server: a password is set (client derives v under the offered salts, server accepts it),
/// then checked; right passwords pass, wrong ones and every tampered or out-of-range value are refused.
@Suite struct RoundTripTests {
    static let passwords = ["", "a", "correct horse battery staple", "пароль 🔑", String(repeating: "long", count: 64)]

    /// Sets `password` as a client and server would: offered `new_algo`, client salt and verifier, server acceptance.
    static func account(_ password: String, seed: UInt64) throws -> (SRPAlgorithm, SRPVerifier) {
        var rng = SeededGenerator(seed: seed)
        let offered = SRPAlgorithm.offeredForNewPassword { rng.bytes($0) }
        let (algorithm, verifier) = try SRPClient.newPassword(password, offered: offered) { rng.bytes($0) }
        #expect(algorithm.salt1.count == 8 + 32 && algorithm.salt1.starts(with: offered.salt1))
        #expect(algorithm.salt2 == offered.salt2 && algorithm.salt2.count == 16)
        let stored = try SRPVerifier.accept(newPasswordHash: verifier.bytes, algorithm: algorithm, offered: offered)
        #expect(stored == verifier)
        return (algorithm, stored)
    }

    @Test(arguments: passwords)
    func rightPasswordPassesWrongOneFails(_ password: String) throws {
        let (algorithm, verifier) = try Self.account(password, seed: UInt64(password.utf8.count))
        let round = try SRPServerRound.start(algorithm: algorithm, verifier: verifier)
        let proof = try SRPClient.proof(
            password: password, algorithm: algorithm, srpB: round.publicValue, srpID: round.id)
        #expect(proof.A.count == 256 && proof.M1.count == 32)
        try round.check(srpID: proof.srpID, A: proof.A, M1: proof.M1)

        for wrong in [password + " ", password.uppercased() == password ? "x" : password.uppercased()] {
            let guess = try SRPClient.proof(
                password: wrong, algorithm: algorithm, srpB: round.publicValue, srpID: round.id)
            #expect(throws: SRPError.proofMismatch) { try round.check(srpID: guess.srpID, A: guess.A, M1: guess.M1) }
        }
    }

    /// A proof is bound to its round: another round (other b, other srp_id) refuses it, under either id.
    @Test func proofIsBoundToItsRound() throws {
        let (algorithm, verifier) = try Self.account("hunter2", seed: 40)
        let first = try SRPServerRound.start(algorithm: algorithm, verifier: verifier, id: 1)
        let second = try SRPServerRound.start(algorithm: algorithm, verifier: verifier, id: 2)
        let proof = try SRPClient.proof(password: "hunter2", algorithm: algorithm, srpB: first.publicValue, srpID: 1)
        #expect(throws: SRPError.wrongRound) { try second.check(srpID: 1, A: proof.A, M1: proof.M1) }
        #expect(throws: SRPError.proofMismatch) { try second.check(srpID: 2, A: proof.A, M1: proof.M1) }
        #expect(throws: SRPError.wrongRound) { try first.check(srpID: 2, A: proof.A, M1: proof.M1) }
        try first.check(srpID: 1, A: proof.A, M1: proof.M1)
    }

    /// Every bit of M1 and a sample of A's bits matter; A = 0, 1, p − 1, p, 2^(2048−64) − 1 and oversized values
    /// are refused before any arithmetic; M1 of the wrong length is refused.
    @Test func tamperedAndOutOfRangeValuesAreRefused() throws {
        let (algorithm, verifier) = try Self.account("s3cret", seed: 41)
        let round = try SRPServerRound.start(algorithm: algorithm, verifier: verifier)
        let proof = try SRPClient.proof(
            password: "s3cret", algorithm: algorithm, srpB: round.publicValue, srpID: round.id)
        let id = round.id
        for bit in 0..<256 {
            var m1 = proof.M1
            m1[bit / 8] ^= 1 << UInt8(bit % 8)
            #expect(throws: SRPError.proofMismatch) { try round.check(srpID: id, A: proof.A, M1: m1) }
        }
        var rng = SeededGenerator(seed: 42)
        for _ in 0..<16 {
            var a = proof.A
            let bit = rng.int(16..<2048)  // below the top 16 bits, so A stays in range
            a[255 - bit / 8] ^= 1 << UInt8(bit % 8)
            #expect(throws: SRPError.proofMismatch) { try round.check(srpID: id, A: a, M1: proof.M1) }
        }
        let p = algorithm.p
        let pMinusOne = try BigNum.subtract(p, [1])
        let belowBound = try BigNum.subtract(BigNum.powerOfTwo(2048 - 64), [1])
        let outOfRange: [(String, [UInt8])] = [
            ("0", []), ("0 padded", [UInt8](repeating: 0, count: 256)), ("1", [1]), ("p − 1", pMinusOne), ("p", p),
            ("p + 1", Array(p.dropLast()) + [p[255] + 1]), ("2^1984 − 1", belowBound),
            ("all ones", [UInt8](repeating: 0xFF, count: 256)),
        ]
        for (name, value) in outOfRange {
            #expect(throws: SRPError.valueOutOfRange(what: "g_a (A)"), "A = \(name)") {
                try round.check(srpID: id, A: value, M1: proof.M1)
            }
        }
        // The attack the range check stops: with A ≡ 0 (mod p), S = 0 whatever the password, so anyone can compute
        // M1. Forged that way (as an attacker would, from the page's formula), A = 0 and A = p are refused.
        let zeroS = Digest.sha256([UInt8](repeating: 0, count: 256))
        let hg = Digest.sha256([UInt8](repeating: 0, count: 255) + [UInt8(algorithm.g)])
        for forgedA in [[UInt8](repeating: 0, count: 256), p] {
            let forgedM1 = Digest.sha256(
                zip(Digest.sha256(p), hg).map { $0 ^ $1 }, Digest.sha256(algorithm.salt1),
                Digest.sha256(algorithm.salt2),
                forgedA, round.publicValue, zeroS)
            #expect(throws: SRPError.valueOutOfRange(what: "g_a (A)")) {
                try round.check(srpID: id, A: forgedA, M1: forgedM1)
            }
        }
        #expect(throws: SRPError.valueTooLong(what: "g_a (A)", bytes: 257, limit: 256)) {
            try round.check(srpID: id, A: [0] + proof.A, M1: proof.M1)
        }
        #expect(throws: SRPError.valueTooLong(what: "M1", bytes: 33, limit: 32)) {
            try round.check(srpID: id, A: proof.A, M1: proof.M1 + [0])
        }
        #expect(throws: SRPError.proofMismatch) {
            try round.check(srpID: id, A: proof.A, M1: Array(proof.M1.prefix(31)))
        }
        #expect(throws: SRPError.proofMismatch) { try round.check(srpID: id, A: proof.A, M1: []) }
        // After all that, the genuine proof still passes: a refusal changes nothing.
        try round.check(srpID: id, A: proof.A, M1: proof.M1)
    }

    /// The client refuses a g_b out of range, an unsafe group and a generator outside 2…7 — before hashing the
    /// password.
    @Test func clientRefusesBadServerValues() throws {
        let (algorithm, verifier) = try Self.account("pw", seed: 43)
        let round = try SRPServerRound.start(algorithm: algorithm, verifier: verifier)
        let p = algorithm.p
        for (name, value) in [("0", [UInt8]()), ("1", [1]), ("p", p), ("p − 1", try BigNum.subtract(p, [1]))] {
            #expect(throws: SRPError.valueOutOfRange(what: "g_b (srp_B)"), "B = \(name)") {
                try SRPClient.proof(password: "pw", algorithm: algorithm, srpB: value, srpID: round.id)
            }
        }
        #expect(throws: SRPError.valueTooLong(what: "g_b (srp_B)", bytes: 257, limit: 256)) {
            try SRPClient.proof(password: "pw", algorithm: algorithm, srpB: [0] + round.publicValue, srpID: round.id)
        }
        var notPrime = algorithm
        notPrime.p[255] ^= 0x02  // odd, 2048-bit, not prime (DiffieHellmanTests); g = 4 has no residue condition
        notPrime.g = 4
        #expect(throws: SRPError.unsafeGroup(.primeNotPrime)) {
            try SRPClient.proof(password: "pw", algorithm: notPrime, srpB: round.publicValue, srpID: round.id)
        }
        var wrongGenerator = algorithm
        wrongGenerator.g = 2  // Telegram's prime is 3 mod 8, so 2 does not generate the prime-order subgroup
        #expect(throws: SRPError.unsafeGroup(.generatorCondition(g: 2, residue: 3))) {
            try SRPClient.proof(password: "pw", algorithm: wrongGenerator, srpB: round.publicValue, srpID: round.id)
        }
        wrongGenerator.g = -1
        #expect(throws: SRPError.unsafeGroup(.generatorOutOfRange(-1))) {
            try SRPVerifier(password: "pw", algorithm: wrongGenerator)
        }
        var longSalt = algorithm
        longSalt.salt1 = [UInt8](repeating: 1, count: SRPAlgorithm.maximumSaltLength + 1)
        #expect(throws: SRPError.valueTooLong(what: "salt", bytes: 1025, limit: 1024)) { try longSalt.check() }
    }

    /// With the same random source the client's proof is the same; with the next bytes it differs but still passes.
    @Test func clientIsDeterministicInItsRandomSource() throws {
        let (algorithm, verifier) = try Self.account("repeat", seed: 44)
        let round = try SRPServerRound.start(algorithm: algorithm, verifier: verifier)
        func prove(_ seed: UInt64) throws -> SRPClientProof {
            var rng = SeededGenerator(seed: seed)
            return try SRPClient.proof(
                password: "repeat", algorithm: algorithm, srpB: round.publicValue, srpID: round.id
            ) {
                rng.bytes($0)
            }
        }
        let one = try prove(9), again = try prove(9), other = try prove(10)
        #expect(one == again && one != other)
        try round.check(srpID: round.id, A: other.A, M1: other.M1)
    }
}
