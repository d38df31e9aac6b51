/// An `rpc_error` a method answers with (core.telegram.org "Error handling"): the code and Telegram's name for it.
struct APIError: Error, Equatable {
    let code: Int32
    let message: String

    init(_ code: Int32, _ message: String) {
        self.code = code
        self.message = message
    }

    static func badRequest(_ message: String) -> APIError { APIError(400, message) }

    /// 403: the caller may not do this here (core.telegram.org "Error handling": `CHAT_WRITE_FORBIDDEN`,
    /// `MESSAGE_AUTHOR_REQUIRED`, `MESSAGE_DELETE_FORBIDDEN`, `RIGHT_FORBIDDEN`).
    static func forbidden(_ message: String) -> APIError { APIError(403, message) }

    /// 303 `<KIND>_MIGRATE_<dc>`: the client must repeat the call on `dc`.
    static func migrate(_ kind: String, to dc: Int32) -> APIError { APIError(303, "\(kind)_MIGRATE_\(dc)") }

    /// 420 `FLOOD_WAIT_<seconds>`: the client must wait that long before repeating the call.
    static func floodWait(_ seconds: Int) -> APIError { APIError(420, "FLOOD_WAIT_\(seconds)") }

    static let authKeyUnregistered = APIError(401, "AUTH_KEY_UNREGISTERED")
    static let sessionPasswordNeeded = APIError(401, "SESSION_PASSWORD_NEEDED")
    static let peerIdInvalid = badRequest("PEER_ID_INVALID")
    static let userIdInvalid = badRequest("USER_ID_INVALID")
    static let chatIdInvalid = badRequest("CHAT_ID_INVALID")
    static let messageIdInvalid = badRequest("MESSAGE_ID_INVALID")
    static let messageEmpty = badRequest("MESSAGE_EMPTY")
    static let messageTooLong = badRequest("MESSAGE_TOO_LONG")
    static let limitInvalid = badRequest("LIMIT_INVALID")
    /// A channel that does not exist, or an access hash that is not the caller's (core.telegram.org: `CHANNEL_INVALID`).
    static let channelInvalid = badRequest("CHANNEL_INVALID")
    static let internalError = APIError(500, "INTERNAL")
    /// A `random_id` the sender used before: a 500 in Telegram (Telethon's `RandomIdDuplicateError` is a
    /// `ServerError`), so clients written against this server meet the code they will meet there.
    static let randomIdDuplicate = APIError(500, "RANDOM_ID_DUPLICATE")
}
