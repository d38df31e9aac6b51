import AccountNetworking
import Foundation
import Network
import SwiftSignalKit
public import TelegramCore

/// Where the answers of a sign-in come from — flags for scripts, prompts on a terminal. Returning `nil` stops the
/// flow at that step; the account keeps it, and the next `login` with the same name resumes there.
public struct SignInAnswers: Sendable {
    /// The phone number (digits).
    public var phone: @Sendable () async -> String?
    /// The code sent to the phone number.
    public var code: @Sendable (_ phone: String) async -> String?
    /// The two-step verification password (the hint the user set is passed).
    public var password: @Sendable (_ hint: String) async -> String?
    /// First and last name for a number without an account.
    public var name: @Sendable () async -> (first: String, last: String)?

    public init(
        phone: @escaping @Sendable () async -> String?, code: @escaping @Sendable (String) async -> String?,
        password: @escaping @Sendable (String) async -> String?,
        name: @escaping @Sendable () async -> (first: String, last: String)?
    ) {
        self.phone = phone
        self.code = code
        self.password = password
        self.name = name
    }
}

/// How a sign-in ended.
public enum SignInOutcome: Equatable, Sendable {
    /// Signed in as `userId`; the account is current.
    case signedIn(userId: Int64)
    /// Stopped at a step that needs an answer the flow did not get (`needs`: "phone", "code", "password", "name").
    case waiting(needs: String)
}

/// Sign-in as one flow over TelegramCore's `Authorization` (phone → code → password, or sign-up): each step is kept
/// in the unauthorized account, so a flow stopped at the code (a script that gets the code later) resumes there.
public enum SignInFlow {
    /// Signs in account `name` of `session` (whose network is the server's): resumes that name's sign-in if it has
    /// one, else adds an account and records `name`, `server` and `publicKeyPEM` in the profiles. An existing account
    /// given another address or key keeps them (the server restarted on other ports), signed in or not.
    public static func run(
        session: ClientSession, name: String, server: ServerAddress, publicKeyPEM: String, answers: SignInAnswers,
        timeout: Double = 30
    ) async throws(ClientError) -> SignInOutcome {
        let manager = session.manager
        var unauthorized: UnauthorizedAccount
        if let profile = session.profiles.account(named: name),
            let record = manager.records.first(where: { $0.id.rawValue == profile.id })
        {
            // The same server elsewhere (restarted on other ports, or its key file moved): the account follows it.
            let moved = ClientAccount(
                name: name, id: profile.id, server: server, publicKeyPEM: publicKeyPEM, proxy: session.proxy)
            if moved != profile { try session.updateProfiles { $0.upsert(moved) } }
            if case .authorized(let userId) = record.kind {
                do { try manager.switchTo(record.id) } catch { throw .storage(error.description) }
                return .signedIn(userId: userId)
            }
            do { unauthorized = try manager.unauthorizedAccount(record.id) } catch { throw .storage(error.description) }
        } else {
            do { unauthorized = try manager.addUnauthorizedAccount() } catch { throw .storage(error.description) }
            try session.updateProfiles {
                $0.upsert(
                    ClientAccount(
                        name: name, id: unauthorized.id.rawValue, server: server, publicKeyPEM: publicKeyPEM,
                        proxy: session.proxy))
            }
        }
        do {
            let outcome = try await steps(
                manager.authorization(unauthorized), unauthorized, answers: answers, timeout: timeout)
            await unauthorized.network.close()
            return outcome
        } catch {
            await unauthorized.network.close()
            throw error
        }
    }

    /// The steps from where `unauthorized` stands until signed in or an answer is missing.
    private static func steps(
        _ authorization: Authorization, _ unauthorized: UnauthorizedAccount, answers: SignInAnswers,
        timeout: Double
    ) async throws(ClientError) -> SignInOutcome {
        while true {
            let state: UnauthorizedAccountStateContents
            do { state = try unauthorized.state() } catch { throw .storage("\(error)") }
            switch state {
            case .empty, .phoneEntry:
                guard let phone = await answers.phone(), !phone.isEmpty else { return .waiting(needs: "phone") }
                do {
                    _ = try await withDeadline("sending the code", timeout: timeout) {
                        try await authorization.sendCode(phoneNumber: phone).get()
                    }
                } catch let error as AuthorizationCodeRequestError {
                    throw codeRequestError(error)
                } catch let error as ClientError {
                    throw error
                } catch {
                    throw .unreachable("sending the code: \(error) — check that the server is running")
                }
            case .confirmationCodeEntry(let phone, _, _):
                guard let code = await answers.code(phone) else { return .waiting(needs: "code") }
                if case .signedIn(let user)? = try await step(authorization.signIn(code: code), timeout: timeout) {
                    return .signedIn(userId: user)
                }
            case .signUp:
                guard let names = await answers.name() else { return .waiting(needs: "name") }
                if case .signedIn(let user)? = try await step(
                    authorization.signUp(firstName: names.first, lastName: names.last), timeout: timeout)
                {
                    return .signedIn(userId: user)
                }
            case .passwordEntry(_, let hint):
                guard let password = await answers.password(hint) else { return .waiting(needs: "password") }
                if case .signedIn(let user)? = try await step(authorization.checkPassword(password), timeout: timeout) {
                    return .signedIn(userId: user)
                }
            }
        }
    }

    /// One code, sign-up or password step: signed in, or `nil` to go on with the stored state.
    private static func step(
        _ signal: Signal<AuthorizationResult, AuthorizationError>, timeout: Double
    ) async throws(ClientError) -> SignInOutcome? {
        do {
            let result = try await withDeadline("signing in", timeout: timeout) { try await signal.get() }
            if case .loggedIn(let userId) = result { return .signedIn(userId: userId) }
            return nil
        } catch let error as AuthorizationError {
            throw verificationError(error)
        } catch let error as ClientError {
            throw error
        } catch {
            throw .unreachable("signing in: \(error) — check that the server is running")
        }
    }

    static func codeRequestError(_ error: AuthorizationCodeRequestError) -> ClientError {
        switch error {
        case .invalidPhoneNumber: return .badInput("the server says the phone number is invalid — check it")
        case .phoneBanned: return .refused("the phone number is banned")
        case .limitExceeded(let seconds): return .refused("too many attempts — wait \(seconds) s")
        case .network(let text): return .unreachable("sending the code: \(text) — check that the server is running")
        case .generic(let text): return .refused("sending the code: \(text)")
        }
    }

    static func verificationError(_ error: AuthorizationError) -> ClientError {
        switch error {
        case .invalidCode: return .badInput("wrong code — run 'tg login' again with the right --code")
        case .codeExpired: return .badInput("the code expired — run 'tg logout' for this account and log in again")
        case .invalidPassword: return .badInput("wrong password — run 'tg login' again with the right --password")
        case .invalidFirstName: return .badInput("the server refused the first name — pass another --first-name")
        case .invalidLastName: return .badInput("the server refused the last name — pass another --last-name")
        case .limitExceeded(let seconds): return .refused("too many attempts — wait \(seconds) s")
        case .wrongState: return .badInput("this step does not fit where the sign-in stands — run 'tg login' again")
        case .network(let text): return .unreachable("signing in: \(text) — check that the server is running")
        case .generic(let text): return .refused("signing in: \(text)")
        }
    }
}
