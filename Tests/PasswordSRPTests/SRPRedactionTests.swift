import CryptoUtils
import PasswordSRP
import TestVectors
import Testing

/// Printing, interpolating or dumping anything that holds x, b, v or the password shows none of them; errors
/// never carry them either.
@Suite struct SRPRedactionTests {
    @Test func secretsNeverPrint() throws {
        let password = "redaction-probe-Ω"
        var rng = SeededGenerator(seed: 99)
        let algorithm = SRPAlgorithm.offeredForNewPassword { rng.bytes($0) }
        let x = try PasswordKDF.ph2(password: password, algorithm: algorithm)
        let verifier = try SRPVerifier(x: x, algorithm: algorithm)
        var secretB: [UInt8] = []
        let round = try SRPServerRound.start(algorithm: algorithm, verifier: verifier, id: 5) { count in
            secretB = rng.bytes(count)
            return secretB
        }
        let secrets: [(String, [UInt8])] = [
            ("x", x.x), ("v", verifier.bytes), ("b", secretB), ("password", Array(password.utf8)),
        ]
        struct Holder { let round: SRPServerRound; let x: SRPPasswordHash; let verifier: SRPVerifier }
        let values: [(String, Any)] = [
            ("x", x), ("verifier", verifier), ("round", round), ("optional round", Optional(round) as Any),
            ("array", [round]), ("holder", Holder(round: round, x: x, verifier: verifier)),
        ]
        for (what, value) in values {
            for (name, secret) in secrets {
                #expect(Redaction.leaks(of: secret, in: value).isEmpty, "\(what) shows \(name)")
            }
            for rendering in Redaction.renderings(of: value) {
                #expect(!rendering.text.contains(password), "\(what) \(rendering.how) shows the password")
            }
        }
        #expect(String(describing: x) == "SRPPasswordHash(redacted)")
        #expect(String(describing: round) == "SRPServerRound(srp_id 5, secret redacted)")
        #expect(String(describing: verifier) == "SRPVerifier(256 bytes, redacted)")
    }

    @Test func errorsCarryNoSecrets() throws {
        let algorithm = SRPAlgorithm.offeredForNewPassword()
        let verifier = try SRPVerifier(password: "hunter2", algorithm: algorithm)
        let round = try SRPServerRound.start(algorithm: algorithm, verifier: verifier)
        let wrong = try SRPClient.proof(
            password: "hunter3", algorithm: algorithm, srpB: round.publicValue, srpID: round.id)
        let error = try #require(throws: SRPError.self) { try round.check(srpID: round.id, A: wrong.A, M1: wrong.M1) }
        #expect(error == .proofMismatch)
        let text = String(describing: error)
        #expect(text.contains("M1 does not match") && !text.contains("hunter"))
        #expect(Redaction.leaks(of: verifier.bytes, in: error).isEmpty)
    }
}
