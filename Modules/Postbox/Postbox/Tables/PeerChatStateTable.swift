import PostboxCoding
import ValueBox

/// Table 13: one coded state object per chat, written by the account layer (Telegram-iOS Postbox
/// `PeerChatStateTable`; TelegramCore keeps each channel's `ChannelState`, its own pts, here). Like every table it is
/// created on its first write, so a Postbox made before it existed needs no upgrade step: reads find nothing.
final class PeerChatStateTable: Table {
    func get(_ peerId: PeerId) throws -> PostboxCoding? {
        guard let bytes = try valueBox.get(table, key: Keys.peer(peerId)) else { return nil }
        return try decodeRoot(bytes, as: PostboxCoding.self)
    }

    func set(_ peerId: PeerId, _ state: PostboxCoding?) throws {
        if let state {
            try valueBox.set(table, key: Keys.peer(peerId), value: Table.encodeRoot(state))
        } else {
            try valueBox.remove(table, key: Keys.peer(peerId))
        }
    }
}
