public import Postbox

/// The hole spaces an account keeps per chat in the cloud namespace (Telegram-iOS's Postbox seed configuration: one
/// for all messages and one per shared-media tag). A range unknown to the account is a hole in every space; the
/// account layer fills them (`getHistory` all at once, `messages.search` one tag's). The notification service marks
/// the history of a chat it stores the first message of the same way.
public enum CloudHoleSpaces {
    /// The tags with their own hole space.
    public static let tags: [MessageTags] = [.photoOrVideo, .photo, .video, .file, .music, .voiceOrInstantVideo, .gif]

    /// Marks `range` of a chat's cloud history unknown in every space.
    public static func addHole(_ tx: Transaction, peerId: PeerId, range: ClosedRange<Int32>) throws {
        try tx.addHole(peerId: peerId, namespace: Namespaces.Message.cloud, space: .everywhere, range: range)
        for tag in tags {
            try tx.addHole(peerId: peerId, namespace: Namespaces.Message.cloud, space: .tag(tag), range: range)
        }
    }

    /// Marks `range` known in every space.
    public static func removeHole(_ tx: Transaction, peerId: PeerId, range: ClosedRange<Int32>) throws {
        try tx.removeHole(peerId: peerId, namespace: Namespaces.Message.cloud, space: .everywhere, range: range)
        for tag in tags {
            try tx.removeHole(peerId: peerId, namespace: Namespaces.Message.cloud, space: .tag(tag), range: range)
        }
    }

    /// Telegram-iOS marks the history of a chat it first hears about as unknown below the first message it stores:
    /// for each chat of `messages` with no cloud message stored and no hole yet, a hole from 1 to below its lowest
    /// cloud id (a chat whose only stored messages are local or scheduled ones gets its hole too).
    public static func addHolesBelowFirstMessages(_ messages: [StoreMessage], transaction tx: Transaction) throws {
        var lowest: [PeerId: Int32] = [:]
        for message in messages {
            guard case .id(let id) = message.id, id.namespace == Namespaces.Message.cloud else { continue }
            lowest[id.peerId] = min(lowest[id.peerId] ?? Int32.max, id.id)
        }
        for (peerId, firstId) in lowest where firstId > 1 {
            guard try !tx.hasMessages(peerId: peerId, namespace: Namespaces.Message.cloud),
                try tx.getHoles(peerId: peerId, namespace: Namespaces.Message.cloud).isEmpty
            else { continue }
            try addHole(tx, peerId: peerId, range: 1...(firstId - 1))
        }
    }
}
