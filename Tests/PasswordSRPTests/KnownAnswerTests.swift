import CryptoUtils
import PasswordSRP
import TestVectors
import Testing

/// Known answers computed from the page's formulas by another implementation (Python's hashlib and pow,
/// `Tests/Fixtures/vectors/srp_known_answer.py`): PH1 and PH2, and one whole transcript — v, the server's g_b for a
/// fixed b, the client's A and M1 for a fixed a — that the server side then accepts. core.telegram.org
/// "Two-factor authentication" itself gives no numbers.
@Suite struct KnownAnswerTests {

    @Test func kdfMatchesTheIndependentComputation() throws {
        let cases = try #require(try Fixtures.json("srp_known_answer.json")["kdf"] as? [[String: String]])
        #expect(cases.count == 3)
        for item in cases {
            let password = hex(item["password"]!), salt1 = hex(item["salt1"]!), salt2 = hex(item["salt2"]!)
            #expect(hex(PasswordKDF.ph1(password: password, salt1: salt1, salt2: salt2)) == item["ph1"])
            let x = try PasswordKDF.ph2(password: password, salt1: salt1, salt2: salt2)
            #expect(hex(x.x) == item["ph2"], "PH2 of \(item["password"]!)")
        }
        // SH is H(salt | data | salt), not H(data | salt) or H(salt | data).
        #expect(PasswordKDF.sh([1, 2], salt: [9]) == Digest.sha256([9, 1, 2, 9]))
    }

    @Test func transcriptMatchesAndIsAccepted() throws {
        let t = try #require(try Fixtures.json("srp_known_answer.json")["transcript"] as? [String: Any])
        let algorithm = SRPAlgorithm(
            salt1: hex(t["salt1"] as! String), salt2: hex(t["salt2"] as! String), g: Int32(t["g"] as! Int),
            p: hex(t["p"] as! String))
        #expect(algorithm.p == DiffieHellman.telegramPrime)
        let password = t["password"] as! String
        let verifier = try SRPVerifier(password: password, algorithm: algorithm)
        #expect(hex(verifier.bytes) == t["v"] as? String)

        let b = hex(t["b"] as! String), a = hex(t["a"] as! String)
        let round = try SRPServerRound.start(algorithm: algorithm, verifier: verifier, id: 77) { count in
            #expect(count == 256)
            return b
        }
        #expect(hex(round.publicValue) == t["B"] as? String)
        #expect(round.id == 77)

        let proof = try SRPClient.proof(password: password, algorithm: algorithm, srpB: round.publicValue, srpID: 77) {
            count in
            #expect(count == 256)
            return a
        }
        #expect(hex(proof.A) == t["A"] as? String)
        #expect(hex(proof.M1) == t["M1"] as? String)
        #expect(proof.srpID == 77)
        try round.check(srpID: proof.srpID, A: proof.A, M1: proof.M1)
    }
}
