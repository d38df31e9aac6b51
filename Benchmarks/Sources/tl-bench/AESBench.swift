import BenchmarkSupport
import CAESNILimit
import COpenSSLPeer
import CryptoUtils
import Foundation

/// AES-256-IGE on 16 MiB against cryptg 0.6.0's IGE (Telethon's native AES) and against the limit of any chained
/// mode, dependent single-block AES-NI encryptions (`CAESNILimit`); bulk OpenSSL ECB is printed for scale only.
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
        let cryptg = try runCryptg(key: key, iv: iv, sample: Array(data[0..<256]))
        let ecb = bulkECB(data, key: key, megabytes: megabytes)

        printTable(
            title: "AES-256-IGE (16 MiB, \(AESIGE.usesHardwareAES ? "AES-NI" : "no AES-NI"))",
            peerName: "cryptg 0.6.0 IGE",
            [
                Comparison("IGE encrypt", ours: encrypt, peer: cryptg.encrypt, goal: "≥ 1.5×"),
                Comparison("IGE decrypt", ours: decrypt, peer: cryptg.decrypt, goal: "≥ 1.5×"),
            ])
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

    /// cryptg's encrypt and decrypt of 16 MiB in the repository's venv, after checking it encrypts `sample` to the
    /// same bytes as ours.
    static func runCryptg(
        key: [UInt8], iv: [UInt8], sample: [UInt8]
    ) throws -> (encrypt: BenchmarkSupport.Measurement, decrypt: BenchmarkSupport.Measurement) {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        let result = try runBenchmarkScript("cryptg_ige_bench.py", arguments: [hex(key), hex(iv), hex(sample)])
        let ours = try AESIGE.encrypt(sample, key: key, iv: iv)
        precondition((result["sample_hex"] as? String) == hex(ours), "cryptg's IGE and ours differ; fix the benchmark")
        let megabytes = (result["bytes"] as! NSNumber).doubleValue / 1_048_576
        return (
            BenchmarkSupport.Measurement(
                name: "cryptg encrypt", seconds: (result["encrypt_seconds"] as! NSNumber).doubleValue,
                items: megabytes, unit: "MB"),
            BenchmarkSupport.Measurement(
                name: "cryptg decrypt", seconds: (result["decrypt_seconds"] as! NSNumber).doubleValue,
                items: megabytes, unit: "MB")
        )
    }
}
