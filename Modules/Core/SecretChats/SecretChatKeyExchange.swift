public import CryptoUtils

/// Which side of a secret chat this client is: the one that called `messages.requestEncryption` (the originator,
/// "admin") or the one that accepted. It sets x in the message keys and the parity of sequence numbers.
public enum SecretChatRole: String, Sendable, Codable, Equatable {
    case originator
    case participant
}

/// The first key exchange (core.telegram.org "End-to-End Encryption", Key Generation), without I/O.
///
/// ```
/// A: config.check() → SecretChatRequest.make → requestEncryption(g_a)           (a kept secret)
/// B: config.check() → SecretChatAcceptance.make(g_a) → acceptEncryption(g_b, fp)  (key ready)
/// A: request.complete(g_b, fp)                                                    (key ready, fp must match)
/// ```
public enum SecretChatKeyExchange {
    /// A secret exponent: 256 client-random bytes XOR the server's 256 random bytes, as the docs ask.
    static func secret(serverRandom: [UInt8], random: SecretChatRandom) throws(SecretChatError) -> [UInt8] {
        guard serverRandom.count == 256 else { throw .badServerRandom(count: serverRandom.count) }
        let own = random.bytes(256)
        return zip(own, serverRandom).map { $0 ^ $1 }
    }

    /// `pow(g, secret) mod p`, checked in range (a value out of range means a bad secret: draw again).
    static func publicValue(config: SecretChatDHConfig, secret: [UInt8]) throws(SecretChatError) -> [UInt8] {
        let value: [UInt8]
        do { value = try DiffieHellman.publicValue(g: config.g, secret: secret, prime: config.prime) } catch {
            throw .crypto(error)
        }
        let padded = leftPadded(value, to: 256)
        try checkPublicValue(padded, config: config)
        return padded
    }

    /// The guidelines' range check on g_a / g_b.
    static func checkPublicValue(_ value: [UInt8], config: SecretChatDHConfig) throws(SecretChatError) {
        do { try DiffieHellman.checkPublicValue(value, prime: config.prime) } catch { throw .publicValueOutOfRange }
    }

    /// `pow(peer, secret) mod p` as a key.
    static func sharedKey(
        peer: [UInt8], secret: [UInt8], config: SecretChatDHConfig
    ) throws(SecretChatError)
        -> SecretChatKey
    {
        let raw: [UInt8]
        do { raw = try DiffieHellman.sharedKey(peerValue: peer, secret: secret, prime: config.prime) } catch {
            throw .crypto(error)
        }
        guard let key = SecretChatKey(bytes: leftPadded(raw, to: 256)) else { throw .wrongState("key size") }
        return key
    }
}

/// The originator's half of the first exchange: its secret `a` and `g_a` for `messages.requestEncryption`.
public struct SecretChatRequest: Sendable, Codable, Equatable {
    public let config: SecretChatDHConfig
    let a: [UInt8]
    public let gA: [UInt8]

    /// Checks the group (cached), draws `a` and computes `g_a`.
    public static func make(
        config: SecretChatDHConfig, serverRandom: [UInt8], random: SecretChatRandom = .secure
    )
        throws(SecretChatError) -> SecretChatRequest
    {
        try config.check()
        let a = try SecretChatKeyExchange.secret(serverRandom: serverRandom, random: random)
        let gA = try SecretChatKeyExchange.publicValue(config: config, secret: a)
        return SecretChatRequest(config: config, a: a, gA: gA)
    }

    /// The chat's `encryptedChat` answer: g_b checked in range, the key computed, its fingerprint compared with the
    /// one the participant sent.
    public func complete(gB: [UInt8], fingerprint: Int64) throws(SecretChatError) -> SecretChatEstablished {
        try SecretChatKeyExchange.checkPublicValue(gB, config: config)
        let key = try SecretChatKeyExchange.sharedKey(peer: gB, secret: a, config: config)
        guard key.fingerprint == fingerprint else {
            throw .fingerprintMismatch(expected: key.fingerprint, received: fingerprint)
        }
        return SecretChatEstablished(role: .originator, key: key, config: config, originatorGA: gA)
    }
}

/// The participant's half: `b`, `g_b` and the key, from the originator's g_a (`encryptedChatRequested`).
public struct SecretChatAcceptance: Sendable, Equatable {
    public let gB: [UInt8]
    public let established: SecretChatEstablished

    public static func make(
        gA: [UInt8], config: SecretChatDHConfig, serverRandom: [UInt8], random: SecretChatRandom = .secure
    ) throws(SecretChatError) -> SecretChatAcceptance {
        try config.check()
        try SecretChatKeyExchange.checkPublicValue(gA, config: config)
        let b = try SecretChatKeyExchange.secret(serverRandom: serverRandom, random: random)
        let gB = try SecretChatKeyExchange.publicValue(config: config, secret: b)
        let key = try SecretChatKeyExchange.sharedKey(peer: gA, secret: b, config: config)
        return SecretChatAcceptance(
            gB: gB, established: SecretChatEstablished(role: .participant, key: key, config: config, originatorGA: gA))
    }

    /// `key_fingerprint` for `messages.acceptEncryption`.
    public var fingerprint: Int64 { established.key.fingerprint }
}

/// What both sides hold once the first exchange is done: the role, the first key, the group (re-keying uses it)
/// and the originator's g_a (the emoji visualization hashes it with the key).
public struct SecretChatEstablished: Sendable, Codable, Equatable {
    public let role: SecretChatRole
    public let key: SecretChatKey
    public let config: SecretChatDHConfig
    public let originatorGA: [UInt8]
}

extension SecretChatRequest: CustomStringConvertible {
    /// Never the secret `a`.
    public var description: String { "SecretChatRequest(group version \(config.version), <redacted>)" }
}

extension SecretChatEstablished: CustomStringConvertible {
    public var description: String { "SecretChatEstablished(\(role), fingerprint \(key.fingerprint), <redacted>)" }
}
