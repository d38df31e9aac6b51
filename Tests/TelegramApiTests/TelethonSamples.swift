import TLRuntime
import TelegramApi

/// The same objects as `samples()` in Tests/Fixtures/telethon/tl_crosscheck.py, built with our generated types.
enum TelethonSamples {
    static func build() -> [String: [UInt8]] {
        let s253 = String(repeating: "x", count: 253)
        let s254 = String(repeating: "y", count: 254)
        let utf8 = "привет, мир — 👋 phở"
        let date: Int32 = 1_700_000_000
        let entities: [Api.MessageEntity] = [
            .messageEntityBold(.init(offset: 0, length: 6)),
            .messageEntityTextUrl(.init(offset: 8, length: 3, url: "https://telegram.org")),
            .messageEntityPre(.init(offset: 1, length: 2, language: "")),
        ]
        var out: [String: [UInt8]] = [:]
        out["peerUser"] = Api.Peer.peerUser(.init(userId: 123_456_789_012)).serialized()
        out["message_minimal"] = Api.Message.message(
            .init(id: 1, peerId: .peerUser(.init(userId: 42)), date: date, message: "")).serialized()
        out["message_full"] = Api.Message.message(
            .init(
                out: true, silent: true, id: 77, fromId: .peerUser(.init(userId: 9)),
                peerId: .peerChannel(.init(channelId: -5)),
                replyTo: .messageReplyHeader(.init(quote: true, replyToMsgId: 76, quoteText: s254)), date: date,
                message: utf8, entities: entities, views: 1000, forwards: 3, editDate: date, postAuthor: s253,
                groupedId: -1_234_567_890_123, ttlPeriod: 86400)
        ).serialized()
        out["message_253"] = Api.Message.message(
            .init(id: 2, peerId: .peerChat(.init(chatId: 7)), date: date, message: s253)).serialized()
        out["message_254"] = Api.Message.message(
            .init(id: 3, peerId: .peerChat(.init(chatId: 7)), date: date, message: s254)).serialized()
        out["user_flags2"] = Api.User.user(
            .init(
                isSelf: true, bot: true, id: 555, accessHash: -1, firstName: "Ann", username: "ann", botInfoVersion: 4,
                usernames: [.username(.init(editable: true, username: "ann"))],
                storiesMaxId: .recentStory(.init(maxId: 9)),
                color: .peerColor(.init(color: 3, backgroundEmojiId: 77)), botActiveUsers: 12)
        ).serialized()
        out["sendMessage"] = Api.functions.messages.sendMessage(
            noWebpage: true, peer: .inputPeerUser(.init(userId: 1, accessHash: 2)), message: utf8, randomId: -42,
            entities: entities
        ).serialized()
        out["getHistory"] = Api.functions.messages.getHistory(
            peer: .inputPeerSelf, offsetId: 0, offsetDate: date, addOffset: 0, limit: 44, maxId: 0, minId: 0, hash: 0
        ).serialized()
        out["bytes_254"] = Api.InputFile.inputFile(.init(id: 1, parts: 2, name: s254, md5Checksum: "")).serialized()
        out["vector_long"] = Api.functions.messages.deleteMessages(revoke: true, id: [1, 2, 3]).serialized()
        return out
    }
}
