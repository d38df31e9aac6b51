import Postbox
import SecretApi
import SecretChats
import SyncCore
@testable import TelegramCore
import TLRuntime
import Testing

/// The secret layer's entities and document attributes against what a message stores, both ways, without I/O:
/// every entity kind the layer has survives a round trip through its wire form; what cannot be said in the layer is
/// left out rather than mangled.
@Suite struct SecretChatMappingTests {
    @Test func everyEntityKindSurvivesTheSecretLayer() throws {
        let text = String(repeating: "x", count: 200)
        let kinds: [MessageTextEntityType] = [
            .unknown, .mention, .hashtag, .botCommand, .url, .email, .bold, .italic, .code, .pre(language: "swift"),
            .pre(language: nil), .textUrl(url: "https://core.telegram.org"), .textMention(peerId: .user(77)), .phoneNumber,
            .strikethrough, .blockQuote(isCollapsed: false), .underline, .bankCard, .spoiler,
            .customEmoji(fileId: 5_000_000_001), .cashtag,
        ]
        let entities = kinds.enumerated().map { index, kind in
            MessageTextEntity(range: index * 5..<(index * 5 + 4), type: kind)
        }
        let wire = try #require(SecretChatEntities.secretEntities(entities))
        // Through the bytes of a real decryptedMessage, as the other side parses it.
        let message = SecretApi.DecryptedMessage.decryptedMessage(
            .init(randomId: 1, ttl: 0, message: text, entities: wire))
        guard case .decryptedMessage(let parsed) = try SecretApi.DecryptedMessage(tlBytes: message.serialized()) else {
            Issue.record("not a decryptedMessage")
            return
        }
        #expect(SecretChatEntities.messageEntities(parsed.entities, text: text) == entities)
        // A mention of a user whose id does not fit the layer's 32 bits, and no entities at all, go as nothing.
        #expect(SecretChatEntities.secretEntities([MessageTextEntity(range: 0..<1, type: .textMention(peerId: .user(1 << 40)))]) == nil)
        #expect(SecretChatEntities.secretEntities([]) == nil)
        // A collapsed quote is a quote in this layer.
        let collapsed = try #require(SecretChatEntities.secretEntities([MessageTextEntity(range: 0..<3, type: .blockQuote(isCollapsed: true))]))
        #expect(SecretChatEntities.messageEntities(collapsed, text: "abc") == [MessageTextEntity(range: 0..<3, type: .blockQuote(isCollapsed: false))])
    }

    @Test func documentAttributesSurviveTheSecretLayer() {
        let attributes: [TelegramMediaFileAttribute] = [
            .fileName("a.ogg"), .imageSize(PixelDimensions(width: 512, height: 384)),
            .sticker(displayText: "🙂", packReference: .name("telegraph"), isMask: false), .animated,
            .video(duration: 3, size: PixelDimensions(width: 240, height: 240), isRoundMessage: true, supportsStreaming: false, noSound: false),
            .audio(isVoice: true, duration: 7, title: nil, performer: nil, waveform: [1, 2, 3]),
            .audio(isVoice: false, duration: 200, title: "Song", performer: "Band", waveform: nil),
        ]
        let back = attributes.compactMap(SecretChatMediaMapping.secretAttribute).compactMap(SecretChatMediaMapping.fileAttribute)
        #expect(back == attributes)
        // A sticker of a set named by id goes without its set (the layer names sets by short name only).
        let byId = SecretChatMediaMapping.secretAttribute(.sticker(displayText: "x", packReference: .id(id: 1, accessHash: 2), isMask: false))
        #expect(byId.flatMap(SecretChatMediaMapping.fileAttribute) == .sticker(displayText: "x", packReference: nil, isMask: false))
        #expect(SecretChatMediaMapping.secretAttribute(.hasLinkedStickers) == nil)
    }

    @Test func receivedMediaIsStoredAsACloudChatStoresIt() throws {
        let key = [UInt8](repeating: 1, count: 32)
        let iv = [UInt8](repeating: 2, count: 32)
        let photo = SecretApi.DecryptedMessageMedia.decryptedMessageMediaPhoto(
            .init(thumb: [9, 9], thumbW: 90, thumbH: 60, w: 1280, h: 853, size: 4_000, key: key, iv: iv, caption: ""))
        let image = try #require(SecretChatMediaMapping.storedMedia(photo, chatId: 5, randomId: 77).first as? TelegramMediaImage)
        #expect(image.representations.map(\.resource) == [
            .localFile(fileId: 77, size: 2), .secretChatFile(chatId: 5, randomId: 77, size: 4_000),
        ])
        #expect(image.representations.first?.cachedBytes == [9, 9])
        let details = try #require(SecretChatMediaMapping.fileDetails(photo))
        #expect(details.size == 4_000 && details.mimeType == "image/jpeg" && details.key == SecretChatFileKey(key: key, iv: iv))
        // A key or IV of the wrong length describes no file to keep.
        let broken = SecretApi.DecryptedMessageMedia.decryptedMessageMediaDocument(
            .init(thumb: [], thumbW: 0, thumbH: 0, mimeType: "x/y", size: 10, key: [1], iv: iv, attributes: [], caption: ""))
        #expect(SecretChatMediaMapping.fileDetails(broken) == nil)
        #expect(SecretChatMediaMapping.storedMedia(.decryptedMessageMediaEmpty, chatId: 5, randomId: 1).isEmpty)
    }
}
