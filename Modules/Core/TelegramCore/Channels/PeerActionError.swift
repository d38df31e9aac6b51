/// Why an action on a group or channel (create, join, leave, invite, list members, promote, ban, rename) did not
/// happen. The server's refusals keep Telegram's error name (core.telegram.org "Error handling": the method pages list
/// them, e.g. "channels.editBanned") so a caller can match it, and `description` says what it means.
public enum PeerActionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server answered an `rpc_error` with this name (`CHAT_ADMIN_REQUIRED`, `USER_NOT_PARTICIPANT`, …).
    case server(String)
    /// The request did not reach the server or its answer did not come back.
    case network
    /// The peer is not stored in the account (or has no access hash), so it cannot be named in a call.
    case unknownPeer(String)
    /// The action does not apply to this kind of peer (a user where a group or channel is needed, a basic group where
    /// a supergroup is needed).
    case unsupported(String)
    /// No one has the username (`USERNAME_NOT_OCCUPIED`, `USERNAME_INVALID` when resolving).
    case notFound(String)
    /// What the server returned could not be stored in the account's Postbox, or had an unexpected shape.
    case storage(String)

    public var description: String {
        switch self {
        case .server(let name):
            guard let meaning = Self.meanings[name] else { return "the server refused: \(name)" }
            return "\(name): \(meaning)"
        case .network: return "the server did not answer"
        case .unknownPeer(let text), .unsupported(let text), .notFound(let text), .storage(let text): return text
        }
    }

    /// The `rpc_error` name when the server refused, else `nil`.
    public var serverError: String? {
        if case .server(let name) = self { return name }
        return nil
    }

    /// What Telegram's errors for these methods mean (core.telegram.org method pages' "Possible errors").
    static let meanings: [String: String] = [
        "CHAT_ADMIN_REQUIRED": "you must be an admin with the right to do this",
        "USER_NOT_PARTICIPANT": "that user is not a member of the chat",
        "CHANNEL_PRIVATE": "the channel is private or you were banned from it",
        "CHANNEL_INVALID": "the channel is not known to the server under this access hash",
        "CHAT_WRITE_FORBIDDEN": "you cannot write in this chat",
        "USER_ALREADY_PARTICIPANT": "already a member",
        "USER_KICKED": "the user was banned from this chat; only an admin who may ban can add them",
        "USER_ADMIN_INVALID": "admins and the creator cannot be banned, nor can you ban yourself",
        "USER_CREATOR": "the creator's rights cannot be changed",
        "RIGHT_FORBIDDEN": "you cannot grant rights you do not have",
        "USERNAME_OCCUPIED": "the username is taken",
        "USERNAME_INVALID": "the username is malformed",
        "USERNAME_NOT_OCCUPIED": "nobody has this username",
        "USERNAME_NOT_MODIFIED": "the channel has this username already",
        "CHAT_TITLE_EMPTY": "the title is empty",
        "CHAT_TITLE_TOO_LONG": "the title is too long",
        "CHAT_ABOUT_TOO_LONG": "the description is longer than 255 characters",
        "CHAT_NOT_MODIFIED": "nothing changed",
        "CHANNELS_TOO_MUCH": "you are in too many channels and supergroups",
        "USERS_TOO_MUCH": "the chat has as many members as it may",
        "USERS_TOO_FEW": "a basic group needs at least one other member",
        "USER_ID_INVALID": "no such user",
        "PEER_ID_INVALID": "no such chat",
        "CHAT_ID_INVALID": "no such group",
        "PARTICIPANT_ID_INVALID": "no such member",
        "USER_PRIVACY_RESTRICTED": "the user's privacy settings do not allow this",
        "ADMIN_RANK_INVALID": "the admin title is longer than 16 characters",
        "INVITE_HASH_EXPIRED": "the invite link was revoked, has expired or was used up",
        "INVITE_HASH_INVALID": "no such invite link",
        "INVITE_HASH_EMPTY": "the invite link is empty",
        "INVITE_REQUEST_SENT": "the link asks an admin first: the request to join was sent",
        "INVITES_TOO_MUCH": "the chat has as many invite links as it may",
        "HIDE_REQUESTER_MISSING": "that user has not asked to join",
        "EXPIRE_DATE_INVALID": "the expiry date is in the past",
        "USAGE_LIMIT_INVALID": "the usage limit must be between 1 and 99999",
    ]
}
