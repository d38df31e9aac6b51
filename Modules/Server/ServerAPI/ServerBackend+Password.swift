import CryptoUtils
import PasswordSRP
import ServerStore
import TLRuntime
import TelegramApi

/// Two-step verification (core.telegram.org "Two-factor authentication", SRP-2048 with
/// `passwordKdfAlgoSHA256SHA256PBKDF2HMACSHA512iter100000SHA256ModPow`): `account.getPassword` offers a fresh
/// server round (`srp_B`, `srp_id`) and the algorithm for a new password, `account.updatePasswordSettings` stores
/// the client's verifier, `auth.checkPassword` finishes a sign-in that answered `SESSION_PASSWORD_NEEDED`. A round
/// answers one proof: right or wrong, the next try needs a new `account.getPassword`.
extension ServerBackend {
    func apiAlgorithm(_ algorithm: SRPAlgorithm) -> Api.PasswordKdfAlgo {
        .passwordKdfAlgoSHA256SHA256PBKDF2HMACSHA512iter100000SHA256ModPow(
            .init(salt1: algorithm.salt1, salt2: algorithm.salt2, g: algorithm.g, p: algorithm.p))
    }

    static func algorithm(of password: PasswordRecord) -> SRPAlgorithm {
        SRPAlgorithm(salt1: password.salt1, salt2: password.salt2, g: password.g, p: password.p)
    }

    /// `account.getPassword`, for a signed-in account or one waiting for `auth.checkPassword`.
    func getPassword(userId: Int64) throws -> Api.account.Password {
        let current = try store.read { tx in try tx.password(userId: userId) }
        let offered = SRPAlgorithm.offeredForNewPassword()
        var round: SRPServerRound?
        if let current {
            do {
                round = try SRPServerRound.start(
                    algorithm: Self.algorithm(of: current), verifier: try SRPVerifier(stored: current.verifier))
            } catch {
                throw APIError.internalError
            }
        }
        passwordRounds.remember(userId: userId, round: round, offered: offered)
        return .password(
            .init(
                hasPassword: current != nil, currentAlgo: current.map { apiAlgorithm(Self.algorithm(of: $0)) },
                srpB: round?.publicValue,
                srpId: round?.id, hint: current.map(\.hint).flatMap { $0.isEmpty ? nil : $0 },
                newAlgo: apiAlgorithm(offered),
                newSecureAlgo: .securePasswordKdfAlgoSHA512(.init(salt: SecureRandom.bytes(8))),
                secureRandom: SecureRandom.bytes(256)))
    }

    /// Checks a proof of the current password against the account's last round (which it uses up). Wrong proofs
    /// count for the account (`AttemptLimit.wrongPasswordsPerAccount`): past the free ones every try waits
    /// (`FLOOD_WAIT_X`), across restarts and connections; the right password forgets them.
    private func checkProof(_ input: Api.InputCheckPasswordSRP, userId: Int64) throws {
        let subject = String(userId)
        try checkAttempts(.wrongPasswordsPerAccount, subject) { APIError.floodWait(Int($0)) }
        do {
            try checkProofOnce(input, userId: userId)
        } catch let error as APIError where error.message == "PASSWORD_HASH_INVALID" {
            try store.write { [self] tx in try countAttempt(.wrongPasswordsPerAccount, subject, tx: tx) }
            throw error
        }
        try store.write { tx in try tx.forgetAttempts(key: AttemptLimit.wrongPasswordsPerAccount.key(subject)) }
    }

    private func checkProofOnce(_ input: Api.InputCheckPasswordSRP, userId: Int64) throws {
        let hasPassword = try store.read { tx in try tx.password(userId: userId) } != nil
        switch input {
        case .inputCheckPasswordEmpty:
            guard !hasPassword else { throw APIError.badRequest("PASSWORD_HASH_INVALID") }
        case .inputCheckPasswordSRP(let proof):
            guard hasPassword, let round = passwordRounds.takeRound(userId: userId) else {
                throw APIError.badRequest("SRP_ID_INVALID")
            }
            do {
                try round.check(srpID: proof.srpId, A: proof.a, M1: proof.m1)
            } catch .wrongRound {
                throw APIError.badRequest("SRP_ID_INVALID")
            } catch {
                throw APIError.badRequest("PASSWORD_HASH_INVALID")
            }
        }
    }

    func updatePasswordSettings(_ call: Api.functions.account.updatePasswordSettings, caller: Caller) throws -> [UInt8]
    {
        guard let offered = passwordRounds.offeredAlgorithm(userId: caller.userId) else {
            throw APIError.badRequest("SRP_ID_INVALID")
        }
        try checkProof(call.password, userId: caller.userId)
        guard case .passwordInputSettings(let settings) = call.newSettings else {
            throw APIError.badRequest("NEW_SETTINGS_INVALID")
        }
        if settings.email != nil { throw APIError.badRequest("EMAIL_INVALID") }
        let record: PasswordRecord?
        switch settings.newAlgo {
        case .passwordKdfAlgoSHA256SHA256PBKDF2HMACSHA512iter100000SHA256ModPow(let algo)?:
            let algorithm = SRPAlgorithm(salt1: algo.salt1, salt2: algo.salt2, g: algo.g, p: algo.p)
            let verifier: SRPVerifier
            do {
                verifier = try SRPVerifier.accept(
                    newPasswordHash: settings.newPasswordHash ?? [], algorithm: algorithm, offered: offered)
            } catch .saltMismatch {
                throw APIError.badRequest("NEW_SALT_INVALID")
            } catch {
                throw APIError.badRequest("NEW_SETTINGS_INVALID")
            }
            record = PasswordRecord(
                userId: caller.userId, salt1: algorithm.salt1, salt2: algorithm.salt2, g: algorithm.g, p: algorithm.p,
                verifier: verifier.bytes, hint: (settings.hint ?? "").clipped(toUTF16Units: 64))
        case .passwordKdfAlgoUnknown?:
            record = nil  // removes the password
        case nil:
            throw APIError.badRequest("NEW_SETTINGS_INVALID")
        }
        _ = try store.write { tx in try tx.setPassword(record, userId: caller.userId) }
        return Reply.bool(true)
    }

    /// `auth.checkPassword`: the second step of a sign-in that answered `SESSION_PASSWORD_NEEDED`.
    func checkPassword(
        _ call: Api.functions.auth.checkPassword, authKeyId: Int64, dc: Int32
    ) throws -> Api.auth.Authorization {
        guard let userId = pendingPasswords.userId(authKeyId: authKeyId) else {
            throw APIError.badRequest("PASSWORD_HASH_INVALID")
        }
        try checkProof(call.password, userId: userId)
        guard let user = try store.read({ tx in try tx.user(id: userId) }) else { throw APIError.userIdInvalid }
        pendingPasswords.forget(authKeyId: authKeyId)
        return try authorize(user, authKeyId: authKeyId, dc: dc, consuming: nil)
    }
}
