public import SyncCore

/// The admin rights by the names `tg admin --rights` takes, as Telegram's API names them in `chatAdminRights` (short
/// forms first: `post`, `edit`, `delete`, `ban`, `invite`, `pin`, `info`, `add-admins`, `anonymous`, `calls`,
/// `topics`).
public enum AdminRightNames {
    public static let all: [(names: [String], right: TelegramChatAdminRightsFlags)] = [
        (["info", "change_info"], .canChangeInfo), (["post", "post_messages"], .canPostMessages),
        (["edit", "edit_messages"], .canEditMessages), (["delete", "delete_messages"], .canDeleteMessages),
        (["ban", "ban_users"], .canBanUsers), (["invite", "invite_users"], .canInviteUsers),
        (["pin", "pin_messages"], .canPinMessages), (["add-admins", "add_admins"], .canAddAdmins),
        (["anonymous"], .canBeAnonymous), (["calls", "manage_call"], .canManageCalls),
        (["topics", "manage_topics"], .canManageTopics),
    ]

    /// The rights a comma-separated list names, or the first name that is none.
    public static func parse(_ list: String) -> Result<TelegramChatAdminRightsFlags, UnknownRight> {
        var rights: TelegramChatAdminRightsFlags = []
        for raw in list.split(separator: ",") {
            let name = raw.filter { $0 != " " }.lowercased()
            guard let entry = all.first(where: { $0.names.contains(name) }) else { return .failure(UnknownRight(name)) }
            rights.insert(entry.right)
        }
        return .success(rights)
    }

    /// The short names of `rights`, in the table's order.
    public static func names(_ rights: TelegramChatAdminRightsFlags) -> [String] {
        all.filter { rights.contains($0.right) }.map { $0.names[0] }
    }

    /// A right name nobody knows.
    public struct UnknownRight: Error, Equatable, Sendable {
        public var name: String
        public init(_ name: String) { self.name = name }
    }
}
