public import CryptoUtils

/// The parameters of `passwordKdfAlgoSHA256SHA256PBKDF2HMACSHA512iter100000SHA256ModPow` (core.telegram.org
/// "Two-factor authentication", the only algorithm the API supports): the two salts, the generator `g` and the
/// 2048-bit safe prime `p`, as `account.password` carries them in `current_algo` and `new_algo`.
public struct SRPAlgorithm: Sendable, Equatable, Hashable {
    /// `salt1`, used in place of SRP's identity `I` (and as PBKDF2's salt).
    public var salt1: [UInt8]
    /// `salt2`, used in place of SRP's salt `s`.
    public var salt2: [UInt8]
    /// The generator (2…7).
    public var g: Int32
    /// The 2048-bit safe prime, big-endian.
    public var p: [UInt8]

    /// The longest salt either side accepts: salts arrive from the other side, and Telegram's are 8 to 40 bytes
    /// (a server's 8 random bytes, plus the 32 a client appends when it sets a password).
    public static let maximumSaltLength = 1024

    /// Parameters as given.
    public init(salt1: [UInt8], salt2: [UInt8], g: Int32, p: [UInt8]) {
        self.salt1 = salt1
        self.salt2 = salt2
        self.g = g
        self.p = p
    }

    /// What a server offers as `new_algo` in `account.password`: fresh salts (`salt1` 8 random bytes, `salt2` 16, the
    /// sizes Telegram's servers send) over Telegram's group (`DiffieHellman.telegramPrime`, g = 3). The client
    /// appends 32 random bytes to `salt1` before it derives the new verifier (`SRPClient.newPassword`).
    public static func offeredForNewPassword(random: (Int) -> [UInt8] = SecureRandom.bytes) -> SRPAlgorithm {
        SRPAlgorithm(
            salt1: random(8), salt2: random(16), g: DiffieHellman.telegramGenerator, p: DiffieHellman.telegramPrime)
    }

    /// Checks `p` and `g` as the page requires of a client before it uses them: p a safe 2048-bit prime, g one of
    /// 2…7 generating the subgroup of order (p − 1) / 2 — `DiffieHellman.checkParameters`, the auth-key exchange's
    /// checks. Telegram's own group (`DiffieHellman.telegramPrime` with g = 3, 4, 5 or 7, which
    /// `DiffieHellmanTests` prove) is recognised without the two primality tests, as Telethon and Telegram-iOS
    /// recognise it; the page suggests caching the result of the full check. Salts longer than
    /// `maximumSaltLength` are refused.
    public func check() throws(SRPError) {
        guard salt1.count <= Self.maximumSaltLength, salt2.count <= Self.maximumSaltLength else {
            throw .valueTooLong(what: "salt", bytes: max(salt1.count, salt2.count), limit: Self.maximumSaltLength)
        }
        guard p.count <= SRPMath.numberLength else {
            throw .valueTooLong(what: "p", bytes: p.count, limit: SRPMath.numberLength)
        }
        if p == DiffieHellman.telegramPrime, [3, 4, 5, 7].contains(g) { return }
        do { try DiffieHellman.checkParameters(prime: p, g: g) } catch { throw .unsafeGroup(error) }
    }
}
