import CryptoUtils
import SecretChats
import Testing
import TestVectors

@Suite struct KeyExchangeTests {
    @Test func bothSidesDeriveTheSameKeyAndFingerprint() throws {
        let (alice, bob) = try establishedPair()
        #expect(alice.key == bob.key)
        #expect(alice.role == .originator && bob.role == .participant)
        #expect(alice.key.bytes.count == 256)
        // The fingerprint is the low 64 bits of SHA1(key): digest bytes 12…19, little-endian.
        let digest = Digest.sha1(alice.key.bytes)
        let expected = digest[12..<20].enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        #expect(alice.key.fingerprint == Int64(bitPattern: expected))
        #expect(!"\(alice.key)".contains(hex(alice.key.bytes).prefix(16)))
    }

    @Test func theGroupIsCheckedOnceAndRemembered() throws {
        try telegramConfig.check()
        #expect(telegramConfig.isVerified)
        var notPrime = DiffieHellman.telegramPrime
        notPrime[255] ^= 2  // still odd, no longer prime
        let bad = SecretChatDHConfig(g: 3, prime: notPrime, version: 2)
        #expect(throws: SecretChatError.self) { try bad.check() }
        #expect(!bad.isVerified)
        let badGenerator = SecretChatDHConfig(g: 9, prime: DiffieHellman.telegramPrime, version: 3)
        #expect(throws: SecretChatError.unsafeGroup(.generatorOutOfRange(9))) { try badGenerator.check() }
    }

    @Test func publicValuesOutOfRangeAreRefused() throws {
        let random = seededRandom(7)
        let p = DiffieHellman.telegramPrime
        let pMinusOne = try BigNum.subtract(p, [1])
        let tooSmall = leftPad(BigNum.powerOfTwo(2048 - 64 - 1))
        for gA in [leftPad([1]), leftPad(pMinusOne), tooSmall, leftPad([2])] {
            #expect(throws: SecretChatError.publicValueOutOfRange) {
                _ = try SecretChatAcceptance.make(gA: gA, config: telegramConfig, serverRandom: random.bytes(256), random: random)
            }
        }
        let request = try SecretChatRequest.make(config: telegramConfig, serverRandom: random.bytes(256), random: random)
        #expect(throws: SecretChatError.publicValueOutOfRange) { _ = try request.complete(gB: leftPad([1]), fingerprint: 0) }
    }

    @Test func aWrongFingerprintIsRefused() throws {
        let random = seededRandom(8)
        let request = try SecretChatRequest.make(config: telegramConfig, serverRandom: random.bytes(256), random: random)
        let acceptance = try SecretChatAcceptance.make(
            gA: request.gA, config: telegramConfig, serverRandom: random.bytes(256), random: random)
        #expect(throws: SecretChatError.self) {
            _ = try request.complete(gB: acceptance.gB, fingerprint: acceptance.fingerprint ^ 1)
        }
    }

    @Test func theServerRandomMustBe256Bytes() throws {
        #expect(throws: SecretChatError.badServerRandom(count: 16)) {
            _ = try SecretChatRequest.make(config: telegramConfig, serverRandom: [UInt8](repeating: 1, count: 16))
        }
    }

    func leftPad(_ value: [UInt8]) -> [UInt8] { [UInt8](repeating: 0, count: 256 - value.count) + value }
}

@Suite struct RedactionTests {
    /// Keys and secrets never appear in what a log or a failed expectation prints.
    @Test func descriptionsNeverCarryKeys() throws {
        let random = seededRandom(301)
        let request = try SecretChatRequest.make(config: telegramConfig, serverRandom: random.bytes(256), random: random)
        let (alice, _) = try establishedPair(seed: 302)
        var session = SecretChatSession(established: alice, now: 0)
        _ = session.startRekeyIfDue(now: 8 * 24 * 3600, policy: .init(messageLimit: 0), random: random)
        let keyHex = hex(alice.key.bytes)
        for text in ["\(request)", String(reflecting: request), "\(alice)", "\(session)", String(reflecting: session), "\(session.rekey)"] {
            #expect(!text.contains(keyHex.prefix(16)) && !text.contains("\(alice.key.bytes.prefix(4))"), "\(text)")
        }
        #expect("\(session.rekey)".hasPrefix("requesting("))
    }
}
