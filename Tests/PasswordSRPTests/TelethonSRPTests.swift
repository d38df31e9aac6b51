import CryptoUtils
import Foundation
import PasswordSRP
import TestVectors
import Testing

/// Telethon 1.45.0's `telethon/password.py` over our server's values (`Tests/Fixtures/telethon/srp_crosscheck.py`,
/// run with the `.venv` that `make deps` creates): for each password, an `account.Password` built from our offered
/// salts, our client's new-password salt1, our round's `srp_B` and `srp_id`, serialized and parsed by Telethon's TL,
/// and then
/// - Telethon's `compute_hash` (PH2) and `compute_digest` (v) equal ours;
/// - with `os.urandom` fed our seeded bytes, Telethon's `compute_check` gives the same A and M1 as our client;
/// - with its own random a, Telethon's proof passes our server, and its proof of a wrong password does not.
@Suite struct TelethonSRPTests {
    struct Case {
        let password: String
        let algorithm: SRPAlgorithm
        let round: SRPServerRound
        let aStream: [UInt8]
    }

    @Test func telethonAgreesWithBothSides() throws {
        let passwords = [
            "hunter2", "", "пароль 🔑", "correct horse battery staple", String(repeating: "ab", count: 100),
        ]
        var cases: [Case] = []
        for (index, password) in passwords.enumerated() {
            var rng = SeededGenerator(seed: 1000 + UInt64(index))
            let offered = SRPAlgorithm.offeredForNewPassword { rng.bytes($0) }
            let (algorithm, verifier) = try SRPClient.newPassword(password, offered: offered) { rng.bytes($0) }
            let stored = try SRPVerifier.accept(newPasswordHash: verifier.bytes, algorithm: algorithm, offered: offered)
            let round = try SRPServerRound.start(algorithm: algorithm, verifier: stored)
            cases.append(Case(password: password, algorithm: algorithm, round: round, aStream: rng.bytes(256 * 4)))
        }
        let input =
            try cases.map { item -> String in
                let object: [String: Any] = [
                    "password": item.password, "wrong_password": item.password + "!",
                    "salt1": hex(item.algorithm.salt1),
                    "salt2": hex(item.algorithm.salt2), "g": Int(item.algorithm.g), "p": hex(item.algorithm.p),
                    "srp_B": hex(item.round.publicValue), "srp_id": item.round.id, "a_stream": hex(item.aStream),
                ]
                return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
            }.joined(separator: "\n") + "\n"
        let script = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/telethon/srp_crosscheck.py")
        let result = try ProcessRunner.run(
            ProcessRunner.venvPython, [script.path], input: Data(input.utf8), timeout: 300)
        try #require(result.succeeded, "srp_crosscheck.py failed: \(result.errorOutput.suffix(2000))")
        let lines = result.output.split(separator: "\n")
        try #require(lines.count == cases.count, "\(lines.count) answers for \(cases.count) cases")

        for (item, line) in zip(cases, lines) {
            let answer = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let name = "password of \(item.password.utf8.count) bytes"
            let x = try PasswordKDF.ph2(password: item.password, algorithm: item.algorithm)
            #expect(hex(x.x) == answer["hash"] as? String, "PH2, \(name)")
            let verifier = try SRPVerifier(password: item.password, algorithm: item.algorithm)
            #expect(hex(verifier.bytes) == answer["digest"] as? String, "v, \(name)")

            // Same a: same A and M1. Our client reads the stream as Telethon's os.urandom did.
            let fixed = try #require(answer["fixed"] as? [String: Any])
            var offset = 0
            let ours = try SRPClient.proof(
                password: item.password, algorithm: item.algorithm, srpB: item.round.publicValue, srpID: item.round.id
            ) { count in
                defer { offset += count }
                return Array(item.aStream[offset..<offset + count])
            }
            #expect(offset == fixed["used"] as? Int, "random bytes read, \(name)")
            #expect(hex(ours.A) == fixed["A"] as? String, "A, \(name)")
            #expect(hex(ours.M1) == fixed["M1"] as? String, "M1, \(name)")
            try item.round.check(srpID: item.round.id, A: ours.A, M1: ours.M1)

            // Telethon's own random a: our server accepts the right password and refuses the wrong one.
            for (key, right) in [("fixed", true), ("free", true), ("wrong", false)] {
                let proof = try #require(answer[key] as? [String: Any])
                let A = hex(try #require(proof["A"] as? String)), M1 = hex(try #require(proof["M1"] as? String))
                if right {
                    try item.round.check(srpID: item.round.id, A: A, M1: M1)
                } else {
                    #expect(throws: SRPError.proofMismatch, "\(key), \(name)") {
                        try item.round.check(srpID: item.round.id, A: A, M1: M1)
                    }
                }
            }
        }
    }
}
