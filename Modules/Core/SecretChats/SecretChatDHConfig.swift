public import CryptoUtils
import Synchronization

/// The Diffie–Hellman group of `messages.getDhConfig` (p, g) with the version a client sends back to hear
/// `dhConfigNotModified`, and the server's 256 random bytes that are XORed into each new secret.
public struct SecretChatDHConfig: Sendable, Codable, Equatable {
    public let g: Int32
    public let prime: [UInt8]
    public let version: Int32

    public init(g: Int32, prime: [UInt8], version: Int32) {
        self.g = g
        self.prime = prime
        self.version = version
    }

    /// Checks the group as the security guidelines require before any key is made with it: p a safe 2048-bit
    /// prime, g generating the subgroup of order (p − 1)/2. The two primality tests run once per (p, g) in a
    /// process, as for the auth key; a group not seen before is always checked in full.
    public func check() throws(SecretChatError) {
        let key = prime + withUnsafeBytes(of: g.littleEndian) { Array($0) }
        if SecretChatDHConfig.verified.withLock({ $0.contains(key) }) { return }
        do { try DiffieHellman.checkParameters(prime: prime, g: g) } catch { throw .unsafeGroup(error) }
        SecretChatDHConfig.verified.withLock { _ = $0.insert(key) }
    }

    /// Whether `check()` has passed for this group in this process (tests assert the cache).
    public var isVerified: Bool {
        let key = prime + withUnsafeBytes(of: g.littleEndian) { Array($0) }
        return SecretChatDHConfig.verified.withLock { $0.contains(key) }
    }

    private static let verified = Mutex<Set<[UInt8]>>([])
}

/// Random bytes for secrets, exchange ids, padding and random_ids; tests pass a seeded source.
public struct SecretChatRandom: Sendable {
    public let bytes: @Sendable (Int) -> [UInt8]

    public init(bytes: @escaping @Sendable (Int) -> [UInt8]) { self.bytes = bytes }

    /// The system's CSPRNG.
    public static let secure = SecretChatRandom { SecureRandom.bytes($0) }

    func int64() -> Int64 {
        bytes(8).reversed().reduce(Int64(0)) { $0 << 8 | Int64($1) }
    }
}

/// Why a secret-chat step was refused. None of these is ever shown as a message.
public enum SecretChatError: Error, Equatable, Sendable {
    /// p or g failed the checks (safe 2048-bit prime, generator conditions).
    case unsafeGroup(DiffieHellman.Failure)
    /// g_a or g_b outside 1 < v < p − 1 and 2^1984 ≤ v ≤ p − 2^1984.
    case publicValueOutOfRange
    /// The other side's key fingerprint differs from the one computed here.
    case fingerprintMismatch(expected: Int64, received: Int64)
    /// The server's random for `a`/`b` is not 256 bytes.
    case badServerRandom(count: Int)
    case crypto(CryptoError)
    /// The chat is not in the state this step needs.
    case wrongState(String)
    /// A message body TL cannot encode.
    case encoding(String)
}
