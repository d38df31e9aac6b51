import CryptoUtils
import Foundation
import TestVectors
import Testing

@Suite struct RSATests {
    /// Telegram's published server keys, with the fingerprints Telethon 1.45.0 computes for them.
    @Test func telegramKeyFingerprints() throws {
        let keys = try Fixtures.json("telegram_rsa_keys.json")["keys"] as! [[String: Any]]
        #expect(keys.count == 8)
        for entry in keys {
            let key = try RSAPublicKey(pem: entry["pem"] as! String)
            #expect(key.size == 256)
            #expect(key.exponent == [0x01, 0x00, 0x01])
            #expect(key.fingerprint == (entry["fingerprint"] as! NSNumber).uint64Value)
        }
    }

    @Test func rejectsGarbagePEM() {
        #expect(throws: CryptoError.self) { try RSAPublicKey(pem: "-----BEGIN RSA PUBLIC KEY-----\nAAAA\n-----END RSA PUBLIC KEY-----\n") }
        #expect(throws: CryptoError.self) { try RSAPublicKey(pem: "") }
    }

    @Test func rsaPadRoundTripAndStructure() throws {
        let pair = try RSAPrivateKey.generate(bits: 2048)
        let pem = try pair.publicKeyPEM()
        #expect(try RSAPublicKey(pem: pem) == pair.publicKey)
        var rng = SeededGenerator(seed: 99)
        let data = rng.bytes(96)
        var randomCalls: [Int] = []
        let encrypted = try RSAPad.encrypt(data, key: pair.publicKey) { count in
            randomCalls.append(count)
            return rng.bytes(count)
        }
        #expect(encrypted.count == 256)
        #expect(randomCalls.first == 96)  // padding to 192
        let padded = try RSAPad.decrypt(encrypted, key: pair)
        #expect(Array(padded[0..<96]) == data)
        // Raw RSA is a permutation: decrypt(encrypt(m)) == m.
        let block = [0] + rng.bytes(255)
        #expect(try pair.decryptRaw(try pair.publicKey.encryptRaw(block)) == block)
        // Legacy scheme: SHA1(data) ‖ data ‖ random, 255 bytes, then raw RSA.
        let legacy = try RSAPad.encryptLegacy(data, key: pair.publicKey) { rng.bytes($0) }
        let opened = try pair.decryptRaw(legacy)
        #expect(opened[0] == 0 && Array(opened[1..<21]) == Digest.sha1(data) && Array(opened[21..<117]) == data)
        #expect(throws: CryptoError.self) { try pair.publicKey.encryptRaw([UInt8](repeating: 0xff, count: 256)) }
    }
}

@Suite struct DiffieHellmanTests {
    /// The prime of the samples-auth_key page (Telegram's production dh_prime).
    func telegramPrime() throws -> [UInt8] {
        let sample = try Fixtures.json("mtproto_samples_auth_key.json")
        let answer = hex(sample["answer_with_hash"] as! String)
        // answer_with_hash: SHA1 (20) ‖ id (4) ‖ nonce (16) ‖ server_nonce (16) ‖ g (4) ‖ dh_prime as TL bytes (4 + 256)
        return Array(answer[(20 + 4 + 32 + 4 + 4)..<(20 + 4 + 32 + 4 + 4 + 256)])
    }

    @Test func acceptsTelegramPrimeAndRejectsBadParameters() throws {
        let p = try telegramPrime()
        try DiffieHellman.checkParameters(prime: p, g: 3)
        #expect(throws: DiffieHellman.Failure.generatorOutOfRange(8)) { try DiffieHellman.checkGenerator(prime: p, g: 8) }
        #expect(throws: DiffieHellman.Failure.generatorOutOfRange(1)) { try DiffieHellman.checkGenerator(prime: p, g: 1) }
        // p mod 8 for this prime is not 7, so g = 2 fails its condition (as the guidelines require checking).
        let mod8 = try BigNum.mod(p, 8)
        if mod8 != 7 { #expect(throws: DiffieHellman.Failure.self) { try DiffieHellman.checkGenerator(prime: p, g: 2) } }
        var notPrime = p
        notPrime[255] ^= 0x02  // still odd and 2048-bit, no longer prime (checked)
        #expect(throws: DiffieHellman.Failure.self) { try DiffieHellman.checkParameters(prime: notPrime, g: 4) }
        #expect(throws: DiffieHellman.Failure.primeNotTwoThousandFortyEightBits(bits: 2047)) {
            try DiffieHellman.checkParameters(prime: [0x7f] + Array(p[1...]), g: 3)
        }
    }

    /// `DiffieHellman.telegramPrime` is the samples page's dh_prime and, with g = 3, passes the full checks.
    @Test func telegramGroupConstant() throws {
        #expect(DiffieHellman.telegramPrime == (try telegramPrime()))
        try DiffieHellman.checkParameters(prime: DiffieHellman.telegramPrime, g: DiffieHellman.telegramGenerator)
    }

    @Test func publicValueRange() throws {
        let p = try telegramPrime()
        #expect(throws: DiffieHellman.Failure.valueOutOfRange) { try DiffieHellman.checkPublicValue([1], prime: p) }
        #expect(throws: DiffieHellman.Failure.valueOutOfRange) { try DiffieHellman.checkPublicValue([2], prime: p) }
        // Just below 2^(2048-64) fails, 2^(2048-64) passes; p - 2^(2048-64) passes, one more fails.
        let bound = BigNum.powerOfTwo(2048 - 64)
        #expect(throws: DiffieHellman.Failure.valueOutOfRange) {
            try DiffieHellman.checkPublicValue(try BigNum.subtract(bound, [1]), prime: p)
        }
        try DiffieHellman.checkPublicValue(bound, prime: p)
        let upper = try BigNum.subtract(p, bound)
        try DiffieHellman.checkPublicValue(upper, prime: p)
        #expect(throws: DiffieHellman.Failure.valueOutOfRange) {
            try DiffieHellman.checkPublicValue(try BigNum.subtract(p, try BigNum.subtract(bound, [1])), prime: p)
        }
        #expect(throws: DiffieHellman.Failure.valueOutOfRange) {
            try DiffieHellman.checkPublicValue(try BigNum.subtract(p, [1]), prime: p)
        }
    }

    /// Both sides of a random exchange reach the same key.
    @Test func exchangeAgrees() throws {
        let p = try telegramPrime()
        var rng = SeededGenerator(seed: 5)
        let a = rng.bytes(256), b = rng.bytes(256)
        let gA = try DiffieHellman.publicValue(g: 3, secret: a, prime: p)
        let gB = try DiffieHellman.publicValue(g: 3, secret: b, prime: p)
        #expect(try DiffieHellman.sharedKey(peerValue: gB, secret: a, prime: p)
            == (try DiffieHellman.sharedKey(peerValue: gA, secret: b, prime: p)))
    }
}

@Suite struct KeyDerivationTests {
    /// MTProto 2.0 key/IV for both directions against values computed by Telethon 1.45.0.
    @Test func mtproto2AgainstTelethon() throws {
        let fixture = try Fixtures.json("mtproto2_key_derivation_telethon.json")
        let authKey = hex(fixture["auth_key"] as! String)
        #expect(MTProtoKeyDerivation.authKeyId(authKey) == (fixture["auth_key_id"] as! NSNumber).uint64Value)
        let cases = fixture["cases"] as! [[String: String]]
        #expect(cases.count == 2)
        for c in cases {
            let direction: MTProtoDirection = c["direction"] == "client_to_server" ? .clientToServer : .serverToClient
            let msgKey = MTProtoKeyDerivation.messageKey(
                authKey: authKey, paddedPlaintext: hex(c["padded_plaintext"]!), direction: direction)
            #expect(hex(msgKey) == c["msg_key"])
            let derived = MTProtoKeyDerivation.aesKeyIV(authKey: authKey, messageKey: msgKey, direction: direction)
            #expect(hex(derived.key) == c["aes_key"] && hex(derived.iv) == c["aes_iv"])
        }
    }

    /// MTProto 1.0: the two directions differ, and the layout matches the SHA-1 formulas on a hand-built key.
    @Test func mtproto1Derivation() {
        let authKey = (0..<256).map { UInt8($0) }
        let msgKey = [UInt8](repeating: 0xab, count: 16)
        let client = MTProtoKeyDerivation.aesKeyIVv1(authKey: authKey, messageKey: msgKey, direction: .clientToServer)
        let server = MTProtoKeyDerivation.aesKeyIVv1(authKey: authKey, messageKey: msgKey, direction: .serverToClient)
        #expect(client.key.count == 32 && client.iv.count == 32 && client.key != server.key)
        let a = Digest.sha1(msgKey + Array(authKey[0..<32]))
        let b = Digest.sha1(Array(authKey[32..<48]) + msgKey + Array(authKey[48..<64]))
        let c = Digest.sha1(Array(authKey[64..<96]) + msgKey)
        #expect(client.key == Array(a[0..<8]) + Array(b[8..<20]) + Array(c[4..<16]))
    }
}
