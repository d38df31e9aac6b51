public import Postbox
import SyncCore
public import TelegramApi

/// The hole spaces an account keeps per chat (Telegram-iOS's Postbox seed configuration: one for all messages and one
/// per shared-media tag). A range unknown to the account is a hole in every space; `getHistory` fills all of them at
/// once (it brings every message, tagged or not), `messages.search` with a filter fills only its tag's space.
public enum HoleSpaces {
    /// The tags with their own hole space (SyncCore's `CloudHoleSpaces.tags`, in its order), and the
    /// `messages.search` filter that fetches each.
    public static let tags: [(tag: MessageTags, filter: Api.MessagesFilter)] = [
        (.photoOrVideo, .inputMessagesFilterPhotoVideo),
        (.photo, .inputMessagesFilterPhotos),
        (.video, .inputMessagesFilterVideo),
        (.file, .inputMessagesFilterDocument),
        (.music, .inputMessagesFilterMusic),
        (.voiceOrInstantVideo, .inputMessagesFilterRoundVoice),
        (.gif, .inputMessagesFilterGif),
    ]

    /// The search filter of a tagged view, if its tag has a space.
    public static func filter(for tag: MessageTags) -> Api.MessagesFilter? {
        tags.first { $0.tag == tag }?.filter
    }

    /// Marks `range` of a chat's cloud history unknown in every space (SyncCore's `CloudHoleSpaces`).
    public static func addHole(_ tx: Transaction, peerId: PeerId, range: ClosedRange<Int32>) throws {
        try CloudHoleSpaces.addHole(tx, peerId: peerId, range: range)
    }

    /// Marks `range` known in every space (after `getHistory`).
    public static func removeHole(_ tx: Transaction, peerId: PeerId, range: ClosedRange<Int32>) throws {
        try CloudHoleSpaces.removeHole(tx, peerId: peerId, range: range)
    }
}
