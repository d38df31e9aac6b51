public import Postbox
import SyncCore

/// A message's pinned state as Postbox keeps it: the `MessageTags.pinned` tag (Telegram-iOS's
/// `AccountStateManagementUtils.swift` adds or removes it as it replays `updatePinnedMessages`), so the chat's pinned
/// messages are its tag index — the newest is what the pinned bar shows.
public enum PinnedMessages {
    /// Tags or untags the stored messages `ids` (`updatePinnedMessages`, `updatePinnedChannelMessages`); messages not
    /// stored are left to the history fetch that brings them with their `pinned` flag. Returns the ids changed.
    @discardableResult
    static func setPinned(_ pinned: Bool, _ ids: [MessageId], transaction tx: Transaction) throws -> [MessageId] {
        var changed: [MessageId] = []
        for id in ids {
            guard try tx.messageIndex(id) != nil, let message = try tx.getMessage(id),
                message.tags.contains(.pinned) != pinned
            else { continue }
            try tx.updateMessage(id) { message in
                var stored = message.toStoreMessage()
                if pinned { stored.tags.insert(.pinned) } else { stored.tags.remove(.pinned) }
                return stored
            }
            changed.append(id)
        }
        return changed
    }

    /// The newest pinned message stored in `peerId`'s chat, if any (what Telegram shows in the chat's pinned bar).
    public static func newest(in peerId: PeerId, transaction tx: Transaction) throws -> Message? {
        try tx.earlierMessages(peerId: peerId, before: nil, count: 1, tag: .pinned).first
    }

    /// The ids of `peerId`'s stored pinned messages, newest first.
    public static func all(in peerId: PeerId, limit: Int = 100, transaction tx: Transaction) throws -> [MessageId] {
        try tx.earlierMessages(peerId: peerId, before: nil, count: limit, tag: .pinned).map(\.id)
    }
}
