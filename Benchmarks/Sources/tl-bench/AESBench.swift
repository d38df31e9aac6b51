import BenchmarkSupport
import CAESNILimit
import COpenSSLPeer
import CryptoUtils
import Foundation

/// AES-256-IGE on 16 MiB against cryptg 0.6.0's IGE (Telethon's native AES) and against the limit of any chained
/// mode, dependent single-block AES-NI encryptions (`CAESNILimit`); bulk OpenSSL ECB is printed for scale only.
///
/// Against cryptg both sides allocate their output each run (cryptg returns a fresh `bytes`; ours `AESIGE.encrypt`,
/// a fresh array), in interleaved rounds with the peer kept running (`PeerProcess`), and every run's output compared
/// by SHA-256. Our in-place `AESIGE.crypt` into a reused buffer — what MTProto's transport does — is compared only with
/// the limit, which is in place too.
enum AESBench {
    static func run() throws {
        let size = 16 << 20
        var state: UInt64 = 0x5151
        let data = (0..<size).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        let key = Array(data[0..<32]), iv = Array(data[32..<64])
        var output = [UInt8](repeating: 0, count: size)
        let megabytes = Double(size) / 1_048_576
        let encrypt = measure("ige encrypt", items: megabytes, unit: "MB") {
            data.withUnsafeBytes { input in
                output.withUnsafeMutableBytes { out in
                    try! AESIGE.crypt(input, into: out, key: key, iv: iv, encrypt: true)
                }
            }
        }
        let ciphertext = output
        let decrypt = measure("ige decrypt", items: megabytes, unit: "MB") {
            ciphertext.withUnsafeBytes { input in
                output.withUnsafeMutableBytes { out in
                    try! AESIGE.crypt(input, into: out, key: key, iv: iv, encrypt: false)
                }
            }
        }
        precondition(output == data, "IGE decrypt(encrypt(x)) != x")
        let reference = try AESIGE.referenceCrypt(Array(data[0..<4096]), key: key, iv: iv, encrypt: true)
        precondition(Array(ciphertext[0..<4096]) == reference, "the fast IGE differs from OpenSSL's AES_ige_encrypt")

        let limit = dependentAESNI(key: key, megabytes: megabytes, size: size)
        let cryptg = try compareWithCryptg(data, key: key, iv: iv, megabytes: megabytes)
        let ecb = bulkECB(data, key: key, megabytes: megabytes)

        printTable(
            title: "AES-256-IGE (16 MiB, \(AESIGE.usesHardwareAES ? "AES-NI" : "no AES-NI"))",
            peerName: "cryptg 0.6.0 IGE",
            [cryptg.encrypt, cryptg.decrypt])
        if let limit {
            printTable(
                title: "AES-256-IGE against its limit (each block waits for the previous one)",
                peerName: "dependent single-block AES-NI encryptions",
                [
                    Comparison("IGE encrypt", ours: encrypt, peer: limit, goal: "≥ 0.9×"),
                    Comparison("IGE decrypt", ours: decrypt, peer: limit, goal: "≥ 0.9×"),
                ])
        }
        printTable(
            title: "For scale: bulk ECB (independent blocks, pipelined; no chained mode can reach it)",
            peerName: "OpenSSL AES-256-ECB (bulk)",
            [
                Comparison("IGE encrypt", ours: encrypt, peer: ecb),
                Comparison("dependent single-block AES-NI (the limit)", ours: limit ?? ecb, peer: ecb),
            ])
        print(
            String(
                format: "per 16-byte block: IGE encrypt %.2f ns, decrypt %.2f ns, dependent AES-NI %.2f ns",
                encrypt.seconds / Double(size / 16) * 1e9, decrypt.seconds / Double(size / 16) * 1e9,
                (limit?.seconds ?? .nan) / Double(size / 16) * 1e9))
    }

    /// `size / 16` dependent encryptions x = E(x): the most blocks per second any chained AES-256 mode can do.
    static func dependentAESNI(key: [UInt8], megabytes: Double, size: Int) -> BenchmarkSupport.Measurement? {
        guard aesni_limit_available() != 0 else { return nil }
        // Check the loop against OpenSSL: three chained ECB encryptions of a zero block.
        var check = [UInt8](repeating: 0, count: 16)
        aesni_limit_dependent_encrypt(key, &check, 3)
        precondition(check == chainedECB(key: key, blocks: 3), "the dependent AES-NI loop differs from AES-256")
        var block = [UInt8](repeating: 0, count: 16)
        return measure("dependent aes-ni", items: megabytes, unit: "MB") {
            aesni_limit_dependent_encrypt(key, &block, size / 16)
            blackHole(block)
        }
    }

    static func chainedECB(key: [UInt8], blocks: Int) -> [UInt8] {
        let context = EVP_CIPHER_CTX_new()
        defer { EVP_CIPHER_CTX_free(context) }
        EVP_EncryptInit_ex(context, EVP_aes_256_ecb(), nil, key, nil)
        EVP_CIPHER_CTX_set_padding(context, 0)
        var block = [UInt8](repeating: 0, count: 16)
        var written: Int32 = 0
        for _ in 0..<blocks {
            block.withUnsafeMutableBufferPointer { b in
                _ = EVP_EncryptUpdate(context, b.baseAddress, &written, b.baseAddress, 16)
            }
        }
        return block
    }

    static func bulkECB(_ data: [UInt8], key: [UInt8], megabytes: Double) -> BenchmarkSupport.Measurement {
        var output = [UInt8](repeating: 0, count: data.count)
        return measure("openssl ecb", items: megabytes, unit: "MB") {
            let context = EVP_CIPHER_CTX_new()
            defer { EVP_CIPHER_CTX_free(context) }
            EVP_EncryptInit_ex(context, EVP_aes_256_ecb(), nil, key, nil)
            EVP_CIPHER_CTX_set_padding(context, 0)
            var written: Int32 = 0
            data.withUnsafeBufferPointer { input in
                output.withUnsafeMutableBufferPointer { out in
                    _ = EVP_EncryptUpdate(context, out.baseAddress, &written, input.baseAddress, Int32(data.count))
                }
            }
        }
    }

    /// Ours (`AESIGE.encrypt` / `decrypt`, a fresh output array each run) against cryptg's `encrypt_ige` /
    /// `decrypt_ige` on the same 16 MiB, key and IV, in interleaved rounds; each run's output is compared by SHA-256.
    static func compareWithCryptg(
        _ data: [UInt8], key: [UInt8], iv: [UInt8], megabytes: Double
    ) throws -> (encrypt: Comparison, decrypt: Comparison) {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tl-bench-aes-\(getpid()).bin")
        try Data(data).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let cryptg = try PeerProcess("cryptg_ige_bench.py")
        let loaded = try cryptg.ask(["op": "load", "path": file.path, "key": hex(key), "iv": hex(iv)])
        precondition((loaded["bytes"] as? NSNumber)?.intValue == data.count, "cryptg did not load the plaintext")
        let ciphertext = try AESIGE.encrypt(data, key: key, iv: iv)
        func ours(_ encrypt: Bool) -> TimedRun<String> {
            let start = now()
            let output =
                try! encrypt ? AESIGE.encrypt(data, key: key, iv: iv) : AESIGE.decrypt(ciphertext, key: key, iv: iv)
            let seconds = now() - start
            return TimedRun(seconds: seconds, output: hex(Digest.sha256(output)))
        }
        func peer(_ op: String) -> TimedRun<String> {
            let answer = try! cryptg.ask(["op": op])
            return TimedRun(
                seconds: (answer["seconds"] as! NSNumber).doubleValue, output: answer["sha256"] as? String ?? "")
        }
        let encrypt = compareInterleaved(
            "IGE encrypt (fresh output each run)", items: megabytes, unit: "MB", goal: "≥ 1.5×",
            oursTimed: { ours(true) }, peerTimed: { peer("encrypt") })
        let decrypt = compareInterleaved(
            "IGE decrypt (fresh output each run)", items: megabytes, unit: "MB", goal: "≥ 1.5×",
            oursTimed: { ours(false) }, peerTimed: { peer("decrypt") })
        return (encrypt, decrypt)
    }
}
