public import Network
import TelegramApi

/// Signing a benchmark client up with a Telegram test number (99966 2 YYYY: DC 2, code 22222).
public enum Accounts {
    /// A signed-up account: its connection, its user id and its access hash (as it sees itself).
    public struct SignedUp: Sendable {
        public let connection: MTProtoConnection
        public let userId: Int64
        public let accessHash: Int64
    }

    /// A sign-up step that answered something else than expected.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// Signs `connection` up as test number 99966 2 `number` ("Bench <number>").
    public static func signUp(_ connection: MTProtoConnection, number: Int) async throws -> SignedUp {
        let phone = "999662" + String(format: "%04d", number)
        let sent = try await connection.invoke(
            Api.functions.auth.sendCode(phoneNumber: phone, apiId: 1, apiHash: "", settings: .codeSettings(.init())))
        guard case .sentCode(let code) = sent else { throw Failure(description: "sendCode: \(sent)") }
        let signIn = try await connection.invoke(
            Api.functions.auth.signIn(phoneNumber: phone, phoneCodeHash: code.phoneCodeHash, phoneCode: "22222"))
        guard case .authorizationSignUpRequired = signIn else { throw Failure(description: "signIn: \(signIn)") }
        let signUp = try await connection.invoke(
            Api.functions.auth.signUp(
                phoneNumber: phone, phoneCodeHash: code.phoneCodeHash, firstName: "Bench \(number)", lastName: ""))
        guard case .authorization(let authorization) = signUp, case .user(let user) = authorization.user,
            let hash = user.accessHash
        else {
            throw Failure(description: "signUp: \(signUp)")
        }
        return SignedUp(connection: connection, userId: user.id, accessHash: hash)
    }
}
