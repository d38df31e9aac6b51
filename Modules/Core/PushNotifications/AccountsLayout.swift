/// Where an installation keeps its accounts (Telegram-iOS's layout, TelegramCore's `AccountManager`), for the
/// processes that read it without the account manager — the notification service:
///
/// ```
/// <root>/accounts-metadata/records.json                     account records (the account manager's)
/// <root>/accounts-metadata/keys/account-<id>.key            each account's Postbox key
/// <root>/accounts-metadata/notification-keys/<key id hex>   each account's notification key, by its id
/// <root>/account-<id>/postbox/                              each account's encrypted Postbox
/// ```
public struct AccountsLayout: Sendable, Equatable {
    public let rootPath: String

    public init(rootPath: String) {
        self.rootPath = rootPath
    }

    /// `<root>/accounts-metadata`.
    public var metadataPath: String { rootPath + "/accounts-metadata" }
    /// The account records file.
    public var recordsPath: String { metadataPath + "/records.json" }
    /// The folder of Postbox keys.
    public var postboxKeysPath: String { metadataPath + "/keys" }
    /// The folder of notification keys.
    public var notificationKeysPath: String { metadataPath + "/notification-keys" }

    /// An account's folder.
    public func accountPath(_ accountId: Int64) -> String { rootPath + "/account-\(accountId)" }
    /// An account's Postbox key file.
    public func postboxKeyPath(_ accountId: Int64) -> String { postboxKeysPath + "/account-\(accountId).key" }
    /// The file of the notification key with this id (16 hex digits).
    public func notificationKeyPath(idHex: String) -> String { notificationKeysPath + "/" + idHex }
}
