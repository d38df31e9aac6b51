import AccountNetworking
import Foundation
import Network
import PasswordSRP
import Postbox
public import SwiftSignalKit
import TLRuntime
import TelegramApi

/// Why a code could not be sent (Telegram-iOS `AuthorizationCodeRequestError`).
public enum AuthorizationCodeRequestError: Error, Equatable, Sendable {
    case invalidPhoneNumber
    case phoneBanned
    case limitExceeded(retryAfter: Int32)
    /// The server could not be reached (no `rpc_error`: the connection failed or timed out).
    case network(String)
    case generic(String)
}

/// Why a code, a password or a sign-up was refused (Telegram-iOS `AuthorizationCodeVerificationError`,
/// `PasswordVerificationError`, `SignUpError`), each something a sign-in screen can say.
public enum AuthorizationError: Error, Equatable, Sendable {
    case invalidCode
    case codeExpired
    case invalidPassword
    case invalidFirstName
    case invalidLastName
    case limitExceeded(retryAfter: Int32)
    /// The call does not fit the stored sign-in step (a code before one was sent …).
    case wrongState
    /// The server could not be reached (no `rpc_error`: the connection failed or timed out).
    case network(String)
    case generic(String)
}

/// Where a code or password check ended.
public enum AuthorizationResult: Equatable, Sendable {
    /// Signed in as this user; the account manager has made the account authorized.
    case loggedIn(userId: Int64)
    /// The number has no account: sign up with a name.
    case signUpRequired
    /// Two-step verification is on: enter the password.
    case passwordRequired(hint: String)
}

/// Sign-in as Signals (Telegram-iOS `Authorization.swift`): every step stores where it reached in the unauthorized
/// account, so the screens survive a restart, and every error is mapped to a case a UI can show.
public struct Authorization: Sendable {
    let account: UnauthorizedAccount
    let manager: AccountManager

    /// `auth.sendCode`; `PHONE_MIGRATE_X` moves the account's main DC and asks again there.
    public func sendCode(phoneNumber: String) -> Signal<UnauthorizedAccountStateContents, AuthorizationCodeRequestError>
    {
        let account = self.account
        return Signal { () async throws(AuthorizationCodeRequestError) -> UnauthorizedAccountStateContents in
            let sent: Api.auth.SentCode
            do {
                sent = try await account.network.request(
                    Api.functions.auth.sendCode(
                        phoneNumber: phoneNumber, apiId: account.environment.apiId,
                        apiHash: account.environment.apiHash,
                        settings: .codeSettings(.init())),
                    options: .init(automaticFloodWait: 0))
            } catch let error as NetworkError {
                throw Self.codeRequestError(error)
            } catch {
                // Not an rpc_error: the connection could not be made (the transport's own errors).
                throw .network("\(error)")
            }
            guard case .sentCode(let code) = sent else { throw .generic("unexpected answer to auth.sendCode") }
            var length: Int32 = 5
            if case .sentCodeTypeSms(let sms) = code.type { length = sms.length }
            let contents = UnauthorizedAccountStateContents.confirmationCodeEntry(
                phone: phoneNumber, codeHash: code.phoneCodeHash, codeLength: length)
            do { try account.setState(contents) } catch { throw .generic("\(error)") }
            return contents
        }
    }

    /// `auth.signIn` with the code sent before.
    public func signIn(code: String) -> Signal<AuthorizationResult, AuthorizationError> {
        let account = self.account
        let manager = self.manager
        return Signal { () async throws(AuthorizationError) -> AuthorizationResult in
            guard case .confirmationCodeEntry(let phone, let hash, _)? = try? account.state() else { throw .wrongState }
            do {
                let answer = try await account.network.request(
                    Api.functions.auth.signIn(phoneNumber: phone, phoneCodeHash: hash, phoneCode: code),
                    options: .init(automaticFloodWait: 0))
                switch answer {
                case .authorizationSignUpRequired:
                    try account.setState(.signUp(phone: phone, codeHash: hash))
                    return .signUpRequired
                case .authorization(let authorization):
                    return try await manager.finishSignIn(account, user: authorization.user)
                }
            } catch let error as NetworkError {
                if case .rpc(_, "SESSION_PASSWORD_NEEDED") = error {
                    let hint = (try? await Self.passwordHint(account)) ?? ""
                    do { try account.setState(.passwordEntry(phone: phone, hint: hint)) } catch {
                        throw .generic("\(error)")
                    }
                    return .passwordRequired(hint: hint)
                }
                throw Self.verificationError(error)
            } catch let error as AuthorizationError {
                throw error
            } catch {
                throw .generic("\(error)")
            }
        }
    }

    /// `auth.signUp` after the code, for a number without an account.
    public func signUp(firstName: String, lastName: String) -> Signal<AuthorizationResult, AuthorizationError> {
        let account = self.account
        let manager = self.manager
        return Signal { () async throws(AuthorizationError) -> AuthorizationResult in
            guard case .signUp(let phone, let hash)? = try? account.state() else { throw .wrongState }
            do {
                let answer = try await account.network.request(
                    Api.functions.auth.signUp(
                        phoneNumber: phone, phoneCodeHash: hash, firstName: firstName, lastName: lastName),
                    options: .init(automaticFloodWait: 0))
                guard case .authorization(let authorization) = answer else {
                    throw AuthorizationError.generic("sign-up needs sign-up")
                }
                return try await manager.finishSignIn(account, user: authorization.user)
            } catch let error as NetworkError {
                throw Self.verificationError(error)
            } catch let error as AuthorizationError {
                throw error
            } catch {
                throw .generic("\(error)")
            }
        }
    }

    /// `auth.checkPassword` with the SRP proof of `password` (core.telegram.org "Two-step verification").
    public func checkPassword(_ password: String) -> Signal<AuthorizationResult, AuthorizationError> {
        let account = self.account
        let manager = self.manager
        return Signal { () async throws(AuthorizationError) -> AuthorizationResult in
            guard case .passwordEntry? = try? account.state() else { throw .wrongState }
            do {
                let settings = try await account.network.request(Api.functions.account.getPassword())
                let check = try Self.srpCheck(settings, password: password)
                let answer = try await account.network.request(
                    Api.functions.auth.checkPassword(password: check), options: .init(automaticFloodWait: 0))
                guard case .authorization(let authorization) = answer else {
                    throw AuthorizationError.generic("unexpected answer")
                }
                return try await manager.finishSignIn(account, user: authorization.user)
            } catch let error as NetworkError {
                if case .rpc(_, "PASSWORD_HASH_INVALID") = error { throw .invalidPassword }
                throw Self.verificationError(error)
            } catch let error as AuthorizationError {
                throw error
            } catch {
                throw .generic("\(error)")
            }
        }
    }

    static func passwordHint(_ account: UnauthorizedAccount) async throws -> String {
        guard case .password(let settings) = try await account.network.request(Api.functions.account.getPassword())
        else { return "" }
        return settings.hint ?? ""
    }

    /// The client's SRP round for `account.password` (core.telegram.org "Two-step verification": A, M1).
    static func srpCheck(_ settings: Api.account.Password, password: String) throws -> Api.InputCheckPasswordSRP {
        guard case .password(let value) = settings,
            case .passwordKdfAlgoSHA256SHA256PBKDF2HMACSHA512iter100000SHA256ModPow(let algo)? = value.currentAlgo,
            let srpB = value.srpB, let srpId = value.srpId
        else { throw AuthorizationError.generic("the server offered no supported password algorithm") }
        let algorithm = SRPAlgorithm(salt1: algo.salt1, salt2: algo.salt2, g: algo.g, p: algo.p)
        let proof = try SRPClient.proof(password: password, algorithm: algorithm, srpB: srpB, srpID: srpId)
        return .inputCheckPasswordSRP(.init(srpId: srpId, a: proof.A, m1: proof.M1))
    }

    static func codeRequestError(_ error: NetworkError) -> AuthorizationCodeRequestError {
        guard case .rpc(let code, let message) = error else { return .network("\(error)") }
        if code == 420 || message.hasPrefix("FLOOD_WAIT_") {
            return .limitExceeded(retryAfter: Int32(message.split(separator: "_").last.flatMap { Int32($0) } ?? 0))
        }
        switch message {
        case "PHONE_NUMBER_INVALID", "PHONE_NUMBER_EMPTY": return .invalidPhoneNumber
        case "PHONE_NUMBER_BANNED": return .phoneBanned
        default: return .generic(message)
        }
    }

    static func verificationError(_ error: NetworkError) -> AuthorizationError {
        guard case .rpc(let code, let message) = error else { return .network("\(error)") }
        if code == 420 || message.hasPrefix("FLOOD_WAIT_") {
            return .limitExceeded(retryAfter: Int32(message.split(separator: "_").last.flatMap { Int32($0) } ?? 0))
        }
        switch message {
        case "PHONE_CODE_INVALID", "PHONE_CODE_EMPTY": return .invalidCode
        case "PHONE_CODE_EXPIRED": return .codeExpired
        case "FIRSTNAME_INVALID": return .invalidFirstName
        case "LASTNAME_INVALID": return .invalidLastName
        case "PASSWORD_HASH_INVALID": return .invalidPassword
        default: return .generic(message)
        }
    }
}
