import Postbox
import TelegramApi

/// What a catch-up delivered, in a form both sides compute the same way: the number of messages and the sum
/// (mod 2^64) of each message's FNV-1a hash of "chat id text" (`Benchmarks/scripts/telethon_difference.py` computes
/// the same over the messages Telethon parsed), so equal outputs mean the same messages with the same texts,
/// whatever order they came in.
struct MessageChecksum: Equatable, CustomStringConvertible {
    private(set) var count = 0
    private(set) var sum: UInt64 = 0

    mutating func add(chat: Int64, id: Int32, text: String) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in "\(chat) \(id) \(text)".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
        }
        sum &+= hash
        count += 1
    }

    /// A message of a difference as Telethon sees it: a service message has no text.
    mutating func add(_ message: Api.Message) {
        switch message {
        case .message(let m): add(chat: Self.chatId(m.peerId), id: m.id, text: m.message)
        case .messageService(let m): add(chat: Self.chatId(m.peerId), id: m.id, text: "")
        case .messageEmpty: break
        }
    }

    /// Every message stored in `chats`.
    static func stored(_ postbox: Postbox, chats: [PeerId]) throws -> MessageChecksum {
        var checksum = MessageChecksum()
        try postbox.readTransactionSync { tx in
            for chat in chats {
                for message in try tx.earlierMessages(peerId: chat, before: nil, count: 100_000) {
                    checksum.add(chat: chat.id.rawValue, id: message.id.id, text: message.text)
                }
            }
        }
        return checksum
    }

    static func chatId(_ peer: Api.Peer) -> Int64 {
        switch peer {
        case .peerUser(let user): user.userId
        case .peerChat(let chat): chat.chatId
        case .peerChannel(let channel): channel.channelId
        }
    }

    var description: String { "\(count) messages, checksum \(String(sum, radix: 16, uppercase: false).leftPadded(16))" }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
