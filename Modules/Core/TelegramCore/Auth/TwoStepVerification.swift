public import AccountNetworking
public import Network
import PasswordSRP
import TelegramApi

/// Turns two-step verification on (or changes the password) for a signed-in account (Telegram-iOS
/// `updateTwoStepVerificationPassword`; core.telegram.org "Two-step verification"): the current password's SRP proof,
/// or `inputCheckPasswordEmpty` when none is set, and the new password's verifier under the server's offered
/// algorithm with 32 random bytes appended to `salt1`.
public func updateTwoStepVerificationPassword(
    network: any AccountNetworking, currentPassword: String?, newPassword: String, hint: String
) async throws {
    let settings = try await network.request(Api.functions.account.getPassword())
    guard case .password(let value) = settings,
        case .passwordKdfAlgoSHA256SHA256PBKDF2HMACSHA512iter100000SHA256ModPow(let offered) = value.newAlgo
    else { throw AuthorizationError.generic("the server offered no supported password algorithm") }
    let check: Api.InputCheckPasswordSRP
    if let currentPassword, value.hasPassword {
        check = try Authorization.srpCheck(settings, password: currentPassword)
    } else {
        check = .inputCheckPasswordEmpty
    }
    let (algorithm, verifier) = try SRPClient.newPassword(
        newPassword, offered: SRPAlgorithm(salt1: offered.salt1, salt2: offered.salt2, g: offered.g, p: offered.p))
    _ = try await network.request(
        Api.functions.account.updatePasswordSettings(
            password: check,
            newSettings: .passwordInputSettings(
                .init(
                    newAlgo: .passwordKdfAlgoSHA256SHA256PBKDF2HMACSHA512iter100000SHA256ModPow(
                        .init(salt1: algorithm.salt1, salt2: algorithm.salt2, g: algorithm.g, p: algorithm.p)),
                    newPasswordHash: verifier.bytes, hint: hint))))
}
