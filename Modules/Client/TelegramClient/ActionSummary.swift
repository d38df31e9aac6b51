public import SyncCore

/// A service message's action as `tg` prints it: Telegram's name for it (`chatCreate`, `chatAddUser`,
/// `chatDeleteUser`, `chatJoinedByLink`, `chatEditTitle`, `pinMessage`, …, the API's `messageAction…` without the
/// prefix), the title it names and the users it concerns.
public struct ActionSummary: Codable, Equatable, Sendable {
    public var type: String
    public var title: String?
    /// `user:ID` of each user added or removed (or the inviter of a join by link).
    public var users: [String]

    public init(type: String, title: String?, users: [String]) {
        self.type = type
        self.title = title
        self.users = users
    }

    /// The summary of a service message's action.
    public init(_ action: TelegramMediaActionType) {
        title = nil
        users = []
        switch action {
        case .groupCreated(let name):
            type = "chatCreate"
            title = name
        case .addedMembers(let peers):
            type = "chatAddUser"
            users = peers.map(PeerResolver.handle)
        case .removedMembers(let peers):
            type = "chatDeleteUser"
            users = peers.map(PeerResolver.handle)
        case .joinedByLink(let inviter):
            type = "chatJoinedByLink"
            users = [PeerResolver.handle(inviter)]
        case .joinedByRequest: type = "chatJoinedByRequest"
        case .titleUpdated(let name):
            type = "chatEditTitle"
            title = name
        case .photoUpdated(let image): type = image ? "chatEditPhoto" : "chatDeletePhoto"
        case .pinnedMessageUpdated: type = "pinMessage"
        case .historyCleared: type = "historyClear"
        case .historyScreenshot: type = "screenshotTaken"
        case .messageAutoremoveTimeoutUpdated: type = "setMessagesTTL"
        case .contactSignUp: type = "contactSignUp"
        case .customText(let text):
            type = "customAction"
            title = text
        case .unsupported(let constructor):
            type =
                constructor.hasPrefix("messageAction") ? String(constructor.dropFirst(13)).lowercasedFirst : constructor
        }
    }

    private enum CodingKeys: String, CodingKey { case type, title, users }

    /// Every key, `null` when it does not apply.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(title, forKey: .title)
        try container.encode(users, forKey: .users)
    }

    /// In words, for a message line by `from` (`user:ID`): `created “Trip”`, `added user:2`, `joined` (added
    /// oneself), `left` (removed oneself), `changed the title to “Trip 2”`, ….
    public func label(from: String? = nil) -> String {
        if let from, users == [from] {
            if type == "chatAddUser" { return "joined" }
            if type == "chatDeleteUser" { return "left" }
        }
        switch type {
        case "chatCreate": return "created “\(title ?? "")”"
        case "chatAddUser": return "added " + users.joined(separator: ", ")
        case "chatDeleteUser": return "removed " + users.joined(separator: ", ")
        case "chatJoinedByLink": return "joined by a link"
        case "chatEditTitle": return "changed the title to “\(title ?? "")”"
        case "pinMessage": return "pinned a message"
        default: return type
        }
    }
}

extension String {
    fileprivate var lowercasedFirst: String { prefix(1).lowercased() + dropFirst() }
}
