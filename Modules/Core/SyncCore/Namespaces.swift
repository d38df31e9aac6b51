public import Postbox

/// Telegram's identity namespaces for peers, messages and media (Telegram-iOS `TelegramCore/SyncCore/Namespaces.swift`).
public enum Namespaces {
    /// Peer namespaces, the 3 bits packed into a `PeerId`.
    public enum Peer {
        public static let cloudUser = PeerId.Namespace(rawValue: 0)
        public static let cloudGroup = PeerId.Namespace(rawValue: 1)
        public static let cloudChannel = PeerId.Namespace(rawValue: 2)
        public static let secretChat = PeerId.Namespace(rawValue: 3)
        public static let empty = PeerId.Namespace(rawValue: 7)
    }

    /// Message namespaces: ids the server assigned, and ids allocated on this device before sending.
    public enum Message {
        public static let cloud: MessageId.Namespace = 0
        public static let local: MessageId.Namespace = 1
        public static let secretIncoming: MessageId.Namespace = 2
        /// Scheduled messages, by the ids the server gave them (their own id space per account; Telegram-iOS
        /// `Namespaces.Message.ScheduledCloud`). Kept apart from the chat's history (`ScheduledMessages`).
        public static let scheduledCloud: MessageId.Namespace = 3
        /// Scheduled messages not yet confirmed by the server (Telegram-iOS `Namespaces.Message.ScheduledLocal`).
        public static let scheduledLocal: MessageId.Namespace = 4
    }

    /// The messages Telegram names by id alone: the server's messages in private chats and basic groups share one
    /// id sequence per account (`updateDeleteMessages` carries ids without chats). Postbox indexes them when opened
    /// with this set.
    public static let globalMessageIds: Set<GlobalMessageIdsNamespace> = [
        GlobalMessageIdsNamespace(peerNamespace: Peer.cloudUser, messageNamespace: Message.cloud),
        GlobalMessageIdsNamespace(peerNamespace: Peer.cloudGroup, messageNamespace: Message.cloud),
    ]

    /// Media namespaces for shared media ids.
    public enum Media {
        public static let cloudImage: Int32 = 0
        /// A link preview, shared by the messages that show it (its id: the server's page id; Telegram-iOS
        /// `CloudWebpage`), replaced when `updateWebPage` brings the fetched page.
        public static let cloudWebpage: Int32 = 2
        public static let cloudFile: Int32 = 5
        public static let localImage: Int32 = 7
        public static let localFile: Int32 = 8
        /// A photo or file received in a secret chat (its id: the message's random_id).
        public static let cloudSecretImage: Int32 = 9
        public static let cloudSecretFile: Int32 = 10
        /// A poll we are sending, until the server's poll replaces it (its id: random; Telegram-iOS `LocalPoll`).
        public static let localPoll: Int32 = 14
        /// A poll, shared by the messages that show it (its id: the server's poll id; Telegram-iOS `CloudPoll`).
        public static let cloudPoll: Int32 = 15
    }
}

extension PeerId {
    /// The peer id of a user.
    public static func user(_ id: Int64) -> PeerId {
        PeerId(namespace: Namespaces.Peer.cloudUser, id: Id(rawValue: id))
    }
    /// The peer id of a basic group.
    public static func group(_ id: Int64) -> PeerId {
        PeerId(namespace: Namespaces.Peer.cloudGroup, id: Id(rawValue: id))
    }
    /// The peer id of a channel or supergroup.
    public static func channel(_ id: Int64) -> PeerId {
        PeerId(namespace: Namespaces.Peer.cloudChannel, id: Id(rawValue: id))
    }
}
