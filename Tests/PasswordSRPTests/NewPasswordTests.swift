import CryptoUtils
import PasswordSRP
import TestVectors
import Testing

/// The server's side of `account.updatePasswordSettings`: what it accepts as `new_algo` and `new_password_hash`.
@Suite struct NewPasswordTests {
    static func offered(seed: UInt64) -> SRPAlgorithm {
        var rng = SeededGenerator(seed: seed)
        return SRPAlgorithm.offeredForNewPassword { rng.bytes($0) }
    }

    @Test func offeredAlgorithmIsTelegramsGroupWithFreshSalts() throws {
        let one = SRPAlgorithm.offeredForNewPassword(), two = SRPAlgorithm.offeredForNewPassword()
        #expect(one.salt1.count == 8 && one.salt2.count == 16)
        #expect(one.salt1 != two.salt1 && one.salt2 != two.salt2)
        #expect(one.p == DiffieHellman.telegramPrime && one.g == 3)
        try one.check()
    }

    @Test func refusesAlgorithmsThatDoNotExtendTheOffer() throws {
        let offered = Self.offered(seed: 1)
        let (algorithm, verifier) = try SRPClient.newPassword("new", offered: offered)
        var otherSalt1 = algorithm
        otherSalt1.salt1[0] ^= 1
        var otherSalt2 = algorithm
        otherSalt2.salt2[0] ^= 1
        var otherG = algorithm
        otherG.g = 5
        var otherP = algorithm
        otherP.p[255] ^= 2
        var longSalt = algorithm
        longSalt.salt1 += [UInt8](repeating: 7, count: SRPAlgorithm.maximumSaltLength)
        let cases: [(String, SRPAlgorithm, SRPError)] = [
            ("salt1", otherSalt1, .saltMismatch("the new salt1 does not begin with the offered salt1")),
            ("salt2", otherSalt2, .saltMismatch("the new algorithm's salt2 differs from the one offered")),
            ("g", otherG, .saltMismatch("the new algorithm's g or p differs from the one offered")),
            ("p", otherP, .saltMismatch("the new algorithm's g or p differs from the one offered")),
            ("long salt1", longSalt, .valueTooLong(what: "salt1", bytes: 40 + 1024, limit: 1024)),
        ]
        for (name, candidate, error) in cases {
            #expect(throws: error, "\(name)") {
                try SRPVerifier.accept(newPasswordHash: verifier.bytes, algorithm: candidate, offered: offered)
            }
        }
        // The offered salt1 unchanged (a client that appends nothing) is still an extension of itself.
        let unchanged = try SRPVerifier(password: "new", algorithm: offered)
        #expect(
            try SRPVerifier.accept(newPasswordHash: unchanged.bytes, algorithm: offered, offered: offered) == unchanged)
    }

    @Test func refusesVerifiersOutOfRange() throws {
        let offered = Self.offered(seed: 2)
        let (algorithm, verifier) = try SRPClient.newPassword("new", offered: offered)
        let p = algorithm.p
        for (name, v) in [("0", [UInt8]()), ("1", [1]), ("p − 1", try BigNum.subtract(p, [1])), ("p", p)] {
            #expect(throws: SRPError.valueOutOfRange(what: "new_password_hash"), "v = \(name)") {
                try SRPVerifier.accept(newPasswordHash: v, algorithm: algorithm, offered: offered)
            }
        }
        #expect(throws: SRPError.valueTooLong(what: "new_password_hash", bytes: 257, limit: 256)) {
            try SRPVerifier.accept(newPasswordHash: [0] + verifier.bytes, algorithm: algorithm, offered: offered)
        }
        // A verifier without its leading zero bytes is padded back to 256.
        let two = try SRPVerifier.accept(newPasswordHash: [2], algorithm: algorithm, offered: offered)
        #expect(two.bytes.count == 256 && two.bytes.last == 2)
        #expect(try SRPVerifier(stored: verifier.bytes) == verifier)
        #expect(throws: SRPError.valueTooLong(what: "stored verifier", bytes: 300, limit: 256)) {
            try SRPVerifier(stored: [UInt8](repeating: 1, count: 300))
        }
    }
}
