import MTProtoCore
import ServerStore
import TelegramApi

/// `account.registerDevice` / `unregisterDevice` (core.telegram.org "Handling PUSH-notifications"): a device token
/// with the 256-byte secret its pushes are encrypted with; every account of an installation registers the same token,
/// each with its own secret. With a push folder (`--push-dir`), each new message for
/// the account is written there as the device would receive it (`PushFiles`).
extension ServerBackend {
    /// Token types as Telegram numbers them: 1 APNs, 2 FCM, … (only the token's form is checked here).
    static let tokenTypes: ClosedRange<Int32> = 1...15

    func registerDevice(_ call: Api.functions.account.registerDevice, caller: Caller) throws -> [UInt8] {
        guard Self.tokenTypes.contains(call.tokenType), Self.isValidToken(call.token) else {
            throw APIError.badRequest("TOKEN_INVALID")
        }
        // Only encrypted pushes are served: the secret is what the extension decrypts them with.
        guard NotificationKey(bytes: call.secret) != nil else { throw APIError.badRequest("SECRET_INVALID") }
        try store.write { tx in
            try tx.register(
                PushDeviceRecord(
                    tokenType: call.tokenType, token: call.token, userId: caller.userId, authKeyId: caller.authKeyId,
                    secret: call.secret))
        }
        return Reply.bool(true)
    }

    func unregisterDevice(_ call: Api.functions.account.unregisterDevice, caller: Caller) throws -> [UInt8] {
        guard Self.isValidToken(call.token) else { throw APIError.badRequest("TOKEN_INVALID") }
        let removed = try store.write { tx in
            try tx.unregisterDevice(tokenType: call.tokenType, token: call.token, userId: caller.userId)
        }
        return Reply.bool(removed)
    }

    /// A token names a folder under the push directory: 1–200 of `[A-Za-z0-9_-]` (an APNs token is 64 hex digits).
    static func isValidToken(_ token: String) -> Bool {
        !token.isEmpty && token.utf8.count <= 200
            && token.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a)
                    || byte == 0x5f || byte == 0x2d
            }
    }
}
