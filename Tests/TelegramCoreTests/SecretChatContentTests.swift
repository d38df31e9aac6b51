import Foundation
import MediaBox
import Postbox
import SecretApi
import SecretChats
import SyncCore
import TelegramApi
import TelegramCore
import Testing

/// What a secret chat carries beyond plain text, between two of our accounts through a real tg-server on 127.0.0.1:
/// entities and replies, photos with thumbnails, voice notes, stickers named on the server, typing, screenshot
/// notices, deletions and a cleared history, and a file whose transmission arrived behind a gap.
@Suite(.serialized) struct SecretChatContentTests {
    typealias Support = AccountIntegrationTests

    /// Ann and Ben, signed up and started, with an active secret chat Ann asked for.
    static func openChat(_ world: Support.World, phones: (String, String)) async throws -> (Account, Account, Int32) {
        let ann = try await Support.signUp(world, phone: phones.0, name: "Ann")
        let ben = try await Support.signUp(world, phone: phones.1, name: "Ben")
        ann.start()
        ben.start()
        try await Support.wait("both first states") { ann.stateManager.hasCaughtUp && ben.stateManager.hasCaughtUp }
        guard case .inputPeerUser(let benUser) = try await Support.introduce(phone: phones.1, name: "Ben", to: ann)
        else {
            throw CancellationError()
        }
        let chatId = try await ann.secretChats.request(userId: benUser.userId, accessHash: benUser.accessHash)
        try await Support.wait("Ben has the request") { try ben.secretChats.record(chatId: chatId) != nil }
        try await ben.secretChats.accept(chatId: chatId)
        try await Support.wait("Ann's chat is active") { try ann.secretChats.record(chatId: chatId)?.session != nil }
        return (ann, ben, chatId)
    }

    static func messages(_ account: Account, _ chatId: Int32) throws -> [Message] {
        try Support.storedMessages(account, with: SecretChatRecord.peerId(chatId)).sorted { $0.index < $1.index }
    }

    static func incoming(_ account: Account, _ chatId: Int32, text: String) throws -> Message? {
        try messages(account, chatId).first { $0.flags.contains(.incoming) && $0.text == text }
    }

    @Test func entitiesAndRepliesTravelInsideTheEncryptedMessage() async throws {
        let world = try await Support.World()
        let (ann, ben, chatId) = try await Self.openChat(world, phones: ("9996633001", "9996633002"))
        let entities = [
            MessageTextEntity(range: 0..<4, type: .bold),
            MessageTextEntity(range: 5..<11, type: .italic),
            MessageTextEntity(range: 12..<16, type: .textUrl(url: "https://core.telegram.org/api/end-to-end")),
            MessageTextEntity(range: 17..<21, type: .pre(language: "swift")),
        ]
        let sent = try await ann.secretChats.send(text: "bold italic link code", entities: entities, chatId: chatId)
        try await Support.wait("Ben has the styled message") {
            try Self.incoming(ben, chatId, text: "bold italic link code") != nil
        }
        let received = try #require(try Self.incoming(ben, chatId, text: "bold italic link code"))
        let stored = received.attributes.compactMap { $0 as? TextEntitiesMessageAttribute }.first?.entities
        #expect(stored == entities)
        let own = try #require(try ann.postbox.readTransactionSync { try $0.getMessage(sent) })
        #expect(own.attributes.compactMap { $0 as? TextEntitiesMessageAttribute }.first?.entities == entities)

        // Ben answers it: reply_to_random_id names Ann's message by its random_id, which each side maps to its own id.
        try await ben.secretChats.send(text: "answer", replyTo: received.id, chatId: chatId)
        try await Support.wait("Ann has the answer") { try Self.incoming(ann, chatId, text: "answer") != nil }
        let answer = try #require(try Self.incoming(ann, chatId, text: "answer"))
        #expect(answer.attributes.compactMap { $0 as? ReplyMessageAttribute }.first?.messageId == sent)
        let benAnswer = try #require(try Self.messages(ben, chatId).first { $0.text == "answer" })
        #expect(benAnswer.attributes.compactMap { $0 as? ReplyMessageAttribute }.first?.messageId == received.id)

        // Entities out of the text's range, or negative, are dropped rather than stored.
        let bad = SecretChatEntities.messageEntities(
            [
                .messageEntityBold(.init(offset: 2, length: 40)), .messageEntityItalic(.init(offset: -1, length: 2)),
                .messageEntityCode(.init(offset: 0, length: 3)),
            ], text: "short")
        #expect(bad == [MessageTextEntity(range: 0..<3, type: .code)])
        try await world.close([ann, ben])
    }

    @Test func photosVoiceNotesAndStickersGoEachWay() async throws {
        let world = try await Support.World()
        let (ann, ben, chatId) = try await Self.openChat(world, phones: ("9996633003", "9996633004"))
        // A photo with its thumbnail and a caption with an entity, as a reply.
        try await ben.secretChats.send(text: "send me the picture", chatId: chatId)
        try await Support.wait("Ann has the ask") { try Self.incoming(ann, chatId, text: "send me the picture") != nil }
        let ask = try #require(try Self.incoming(ann, chatId, text: "send me the picture"))
        let jpeg = (0..<30_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let thumbnail = SecretChatThumbnail(jpeg: [0xff, 0xd8, 1, 2, 3, 0xff, 0xd9], width: 90, height: 60)
        try await ann.secretChats.sendMedia(
            .photo(jpeg: jpeg, width: 1280, height: 853, thumbnail: thumbnail), caption: "the view",
            entities: [MessageTextEntity(range: 4..<8, type: .bold)], replyTo: ask.id, chatId: chatId)
        try await Support.wait("Ben has the photo") { try Self.incoming(ben, chatId, text: "the view") != nil }
        let photoMessage = try #require(try Self.incoming(ben, chatId, text: "the view"))
        let image = try #require(photoMessage.media.first as? TelegramMediaImage)
        #expect(
            image.representations.map(\.dimensions) == [
                PixelDimensions(width: 90, height: 60), PixelDimensions(width: 1280, height: 853),
            ])
        #expect(image.representations.first?.cachedBytes == thumbnail.jpeg)
        #expect(photoMessage.attributes.compactMap { $0 as? ReplyMessageAttribute }.first != nil)
        #expect(
            photoMessage.attributes.compactMap { $0 as? TextEntitiesMessageAttribute }.first?.entities == [
                MessageTextEntity(range: 4..<8, type: .bold)
            ])
        guard case .secretChatFile(let fileChat, let randomId, let size)? = image.representations.last?.resource else {
            Issue.record("the photo is not the chat's encrypted file")
            return
        }
        #expect(fileChat == chatId && size == Int64(jpeg.count) && randomId == photoMessage.globallyUniqueId)
        // Ann's own copy is the photo as sent, in her MediaBox under her message's local resource.
        let annPhoto = try #require(try Self.messages(ann, chatId).first { $0.text == "the view" }?.media.first as? TelegramMediaImage)
        let annResource = try #require(annPhoto.representations.first?.resource)
        #expect(FileManager.default.contents(atPath: ann.postbox.mediaBox.completedPath(annResource.id)) == Data(jpeg))
        let photoFile = try #require(try ben.secretChats.receivedFile(chatId: chatId, randomId: randomId))
        #expect(try await ben.secretChats.download(photoFile) == jpeg)

        // A voice note: audio/ogg with the voice flag, its duration and waveform.
        let ogg = Array("OggS voice".utf8) + (0..<5_000).map { UInt8(truncatingIfNeeded: $0) }
        let waveform = (0..<63).map { UInt8(truncatingIfNeeded: $0 * 3) }
        try await ben.secretChats.sendMedia(.voice(ogg: ogg, duration: 4, waveform: waveform), chatId: chatId)
        try await Support.wait("Ann has the voice note") {
            try Self.messages(ann, chatId).contains { ($0.media.first as? TelegramMediaFile)?.isVoice == true }
        }
        let voiceMessage = try #require(
            try Self.messages(ann, chatId).first { ($0.media.first as? TelegramMediaFile)?.isVoice == true })
        let voice = try #require(voiceMessage.media.first as? TelegramMediaFile)
        #expect(voice.mimeType == "audio/ogg")
        #expect(
            voice.attributes == [.audio(isVoice: true, duration: 4, title: nil, performer: nil, waveform: waveform)])
        let voiceRandomId = try #require(voiceMessage.globallyUniqueId)
        let voiceFile = try #require(try ann.secretChats.receivedFile(chatId: chatId, randomId: voiceRandomId))
        #expect(try await ann.secretChats.download(voiceFile) == ogg)

        // A sticker the server holds goes by name (decryptedMessageMediaExternalDocument), its attributes kept.
        let sticker = TelegramMediaFile(
            fileId: MediaId(namespace: Namespaces.Media.cloudFile, id: 777),
            resource: .cloudDocument(
                datacenterId: 1, fileId: 777, accessHash: 888, fileReference: [1, 2], size: 2_048),
            mimeType: "image/webp", size: 2_048,
            attributes: [
                .imageSize(PixelDimensions(width: 512, height: 512)),
                .sticker(displayText: "😀", packReference: .name("telegraph"), isMask: false), .fileName("sticker.webp"),
            ])
        try await ann.secretChats.sendMedia(.external(sticker), chatId: chatId)
        try await Support.wait("Ben has the sticker") {
            try Self.messages(ben, chatId).contains { ($0.media.first as? TelegramMediaFile)?.isSticker == true }
        }
        let stickerMessage = try #require(
            try Self.messages(ben, chatId).first { ($0.media.first as? TelegramMediaFile)?.isSticker == true })
        let received = try #require(stickerMessage.media.first as? TelegramMediaFile)
        #expect(received.attributes == sticker.attributes)
        #expect(
            received.resource
                == .cloudDocument(datacenterId: 1, fileId: 777, accessHash: 888, fileReference: [], size: 2_048))
        try await world.close([ann, ben])
    }

    @Test func typingScreenshotsDeletionsAndAClearedHistoryReachTheOtherSide() async throws {
        let world = try await Support.World()
        let (ann, ben, chatId) = try await Self.openChat(world, phones: ("9996633005", "9996633006"))
        #expect(!ben.secretChats.isOtherSideTyping(chatId: chatId))
        try await ann.secretChats.sendTyping(chatId: chatId)
        try await Support.wait("Ben sees Ann typing") { ben.secretChats.isOtherSideTyping(chatId: chatId) }
        #expect(ben.secretChats.typingChats == [chatId])

        let first = try await ann.secretChats.send(text: "keep", chatId: chatId)
        let second = try await ann.secretChats.send(text: "delete me", chatId: chatId)
        try await Support.wait("Ben has both") { try Self.messages(ben, chatId).count == 2 }
        #expect(!ben.secretChats.isOtherSideTyping(chatId: chatId), "a message ends the typing")

        // Ben takes a screenshot: both sides keep a service message saying so.
        let kept = try #require(try Self.incoming(ben, chatId, text: "keep"))
        try await ben.secretChats.notifyScreenshot(of: [kept.id], chatId: chatId)
        func screenshots(_ account: Account) throws -> Int {
            try Self.messages(account, chatId).filter {
                ($0.media.first as? TelegramMediaAction)?.action == .historyScreenshot
            }.count
        }
        try await Support.wait("Ann sees the screenshot notice") { try screenshots(ann) == 1 }
        #expect(try screenshots(ben) == 1)

        // Ann deletes one of hers: gone on both sides, in the transaction that opened the notice.
        try await ann.secretChats.deleteMessages([second], chatId: chatId)
        #expect(try ann.postbox.readTransactionSync { try $0.getMessage(second) } == nil)
        try await Support.wait("gone at Ben's") { try Self.incoming(ben, chatId, text: "delete me") == nil }
        #expect(try Self.incoming(ben, chatId, text: "keep") != nil)
        #expect(try ann.postbox.readTransactionSync { try $0.getMessage(first) } != nil)

        // Ben clears the history: nothing left on either side; the chat goes on.
        try await ben.secretChats.clearHistory(chatId: chatId)
        #expect(try Self.messages(ben, chatId).isEmpty)
        try await Support.wait("Ann's history cleared") { try Self.messages(ann, chatId).isEmpty }
        try await ann.secretChats.send(text: "after clearing", chatId: chatId)
        try await Support.wait("the chat goes on") { try Self.incoming(ben, chatId, text: "after clearing") != nil }
        try await world.close([ann, ben])
    }

    /// The message before a file is lost on the way: the file's transmission arrives behind the gap and is held; once
    /// the resend fills the gap the file message is shown and still downloads.
    @Test func aFileArrivingBehindAGapKeepsItsLocation() async throws {
        let world = try await Support.World()
        let (ann, ben, chatId) = try await Self.openChat(world, phones: ("9996633007", "9996633008"))
        try await ann.secretChats.send(text: "warm up", chatId: chatId)
        try await Support.wait("Ben has the first") { try Self.incoming(ben, chatId, text: "warm up") != nil }
        let once = DropOnce()
        ann.secretChats.dropTransmissions { _, _ in once.take() }
        try await ann.secretChats.send(text: "lost before the file", chatId: chatId)
        ann.secretChats.dropTransmissions(nil)
        let content = (0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }
        try await ann.secretChats.sendMedia(
            .document(content: content, name: "held.bin", mimeType: "application/octet-stream"), chatId: chatId)
        try await Support.wait("Ben recovered both", timeout: 30) {
            try Self.incoming(ben, chatId, text: "held.bin") != nil
                && Self.incoming(ben, chatId, text: "lost before the file") != nil
        }
        #expect(ann.secretChats.resentCount >= 1)
        #expect(ben.secretChats.recentDrops.contains { if case .heldForGap = $0 { true } else { false } })
        let fileMessage = try #require(try Self.incoming(ben, chatId, text: "held.bin"))
        let fileRandomId = try #require(fileMessage.globallyUniqueId)
        let file = try #require(try ben.secretChats.receivedFile(chatId: chatId, randomId: fileRandomId))
        #expect(try await ben.secretChats.download(file) == content)
        try await world.close([ann, ben])
    }
}
