import ChatHistory
import Postbox
import PostboxTesting
import SignalTesting
import SwiftSignalKit
import SyncCore
import Testing

/// Entries built from a real Postbox history view: date headers per day, the unread separator before the first
/// unread incoming message, an album as one entry, loading rows where the view reaches a hole; and the item kind each
/// entry gets (animated sticker, sticker, large emoji, bubble with its contents).
@Suite struct ChatHistoryEntriesTests {
    static let chat = PeerId.user(42)
    static let me = PeerId.user(1)
    static let day: Int32 = 86_400

    /// A message in the chat at `time`, incoming or ours.
    static func message(
        _ id: Int32, at time: Int32, incoming: Bool = false, text: String = "", media: [Media] = [], groupingKey: Int64? = nil
    ) -> StoreMessage {
        StoreMessage(
            id: .id(MessageId(peerId: chat, namespace: Namespaces.Message.cloud, id: id)), groupingKey: groupingKey, timestamp: time,
            flags: incoming ? [.incoming] : [], authorId: incoming ? chat : me, text: text, media: media)
    }

    static func photo(_ id: Int64) -> TelegramMediaImage {
        TelegramMediaImage(
            imageId: MediaId(namespace: Namespaces.Media.cloudImage, id: id),
            representations: [
                TelegramMediaImageRepresentation(
                    dimensions: PixelDimensions(width: 800, height: 600),
                    resource: .cloudPhotoSize(datacenterId: 2, photoId: id, accessHash: 1, fileReference: [], sizeSpec: "x"), type: "x")
            ])
    }

    static func file(_ id: Int64, mime: String, size: Int64, attributes: [TelegramMediaFileAttribute]) -> TelegramMediaFile {
        TelegramMediaFile(
            fileId: MediaId(namespace: Namespaces.Media.cloudFile, id: id),
            resource: .cloudDocument(datacenterId: 2, fileId: id, accessHash: 1, fileReference: [], size: size), mimeType: mime, size: size,
            attributes: attributes)
    }

    /// The newest view of the chat's last `count` messages.
    static func view(_ postbox: Postbox, count: Int = 44) throws -> MessageHistoryView {
        let recorder = EventRecorder(postbox.aroundMessageHistoryViewForLocation(peerId: chat, anchor: .upperBound, count: count))
        #expect(recorder.waitForEvents(1, seconds: 5))
        return try #require(recorder.values.last)
    }

    @Test func entriesHaveDayHeadersTheUnreadSeparatorAlbumsAndLoadingRows() throws {
        registerSyncCoreTypes()
        let directory = TemporaryDirectory(prefix: "chat-history")
        defer { directory.remove() }
        let postbox = try Postbox.open(accountPath: directory.path + "/account", encryption: nil)
        let monday = 20_000 * Self.day + 9 * 3600
        let sticker = Self.file(
            900, mime: "application/x-tgsticker", size: 20_000, attributes: [.sticker(displayText: "🙂", packReference: nil, isMask: false)])
        try postbox.transactionSync { tx in
            try tx.addMessages([
                Self.message(10, at: monday, text: "good morning"),
                Self.message(11, at: monday + 60, incoming: true, text: "hi"),
                Self.message(12, at: monday + Self.day, text: "", media: [Self.photo(1)], groupingKey: 7),
                Self.message(13, at: monday + Self.day, text: "", media: [Self.photo(2)], groupingKey: 7),
                Self.message(14, at: monday + Self.day, text: "", media: [Self.photo(3)], groupingKey: 7),
                Self.message(15, at: monday + Self.day + 10, incoming: true, text: "see you"),
                Self.message(16, at: monday + Self.day + 20, incoming: true, media: [sticker]),
            ])
            try tx.applyIncomingReadMaxId(MessageId(peerId: Self.chat, namespace: Namespaces.Message.cloud, id: 11))
            // The server has older history not stored yet.
            try tx.addHole(peerId: Self.chat, namespace: Namespaces.Message.cloud, range: 1...9)
        }
        let view = try Self.view(postbox)
        let entries = ChatHistoryEntries.make(from: view)
        let mondayDay = ChatHistoryEntries.day(of: monday, utcOffset: 0)
        #expect(entries.map(\.stableId) == [
            .loading(earlier: true), .dateHeader(mondayDay), .message(entries[2].messages[0].stableId),
            .message(entries[3].messages[0].stableId), .dateHeader(mondayDay + 1),
            .group(try #require(view.entries[2].groupInfo).stableId), .unread, .message(entries[7].messages[0].stableId),
            .message(entries[8].messages[0].stableId),
        ])
        #expect(entries[2].messages.map(\.text) == ["good morning"])
        #expect(entries[5].messages.map(\.id.id) == [12, 13, 14], "the album is one entry, oldest first")
        #expect(entries[7].messages.map(\.text) == ["see you"], "the separator stands before the first unread")
        #expect(entries == entries.sorted(), "entries are in their sort order")
        #expect(Set(entries.map(\.stableId)).count == entries.count, "ids are unique")

        // Kinds: text in a bubble, the album as three media parts, a small animated sticker alone.
        #expect(ChatMessageItemClassifier.kind(of: entries[2].messages) == .bubble([.text(entries[2].messages[0].id)]))
        #expect(ChatMessageItemClassifier.kind(of: entries[5].messages) == .bubble(entries[5].messages.map { .media($0.id) }))
        #expect(ChatMessageItemClassifier.kind(of: entries[8].messages) == .animatedSticker)

        // A day in another time zone moves the header: 9:00 UTC is the previous day at UTC−10.
        let west = ChatHistoryEntries.make(from: view, utcOffset: -10 * 3600)
        #expect(west.contains { $0.stableId == .dateHeader(mondayDay - 1) })
    }

    @Test func itemKindsFollowTelegramsRules() {
        let id = MessageId(peerId: Self.chat, namespace: Namespaces.Message.cloud, id: 1)
        func message(text: String = "", media: [Media] = []) -> Message {
            Message(
                stableId: 1, stableVersion: 0, id: id, globallyUniqueId: nil, groupingKey: nil, threadId: nil, timestamp: 0, flags: [],
                tags: [], authorId: Self.me, author: nil, text: text, attributes: [], media: media)
        }
        let tgs = { (size: Int64) in
            Self.file(1, mime: "application/x-tgsticker", size: size, attributes: [.sticker(displayText: "", packReference: nil, isMask: false)])
        }
        #expect(ChatMessageItemClassifier.kind(of: [message(media: [tgs(100_000)])]) == .animatedSticker)
        #expect(ChatMessageItemClassifier.kind(of: [message(media: [tgs(200_000)])]) == .bubble([.file(id)]), "over 128 KB: a file")
        let webp = Self.file(2, mime: "image/webp", size: 30_000, attributes: [.sticker(displayText: "", packReference: nil, isMask: false)])
        #expect(ChatMessageItemClassifier.kind(of: [message(media: [webp])]) == .sticker)
        #expect(ChatMessageItemClassifier.kind(of: [message(text: "👍🏽")]) == .largeEmoji(count: 1))
        #expect(ChatMessageItemClassifier.kind(of: [message(text: "🇻🇳❤️👨‍👩‍👧")]) == .largeEmoji(count: 3))
        #expect(ChatMessageItemClassifier.kind(of: [message(text: "😀😀😀😀")]) == .bubble([.text(id)]), "four is text")
        #expect(ChatMessageItemClassifier.kind(of: [message(text: "😀 😀")]) == .bubble([.text(id)]), "a space is text")
        #expect(ChatMessageItemClassifier.kind(of: [message(text: "12")]) == .bubble([.text(id)]), "digits are text")
        #expect(ChatMessageItemClassifier.kind(of: [message(text: "1️⃣")]) == .largeEmoji(count: 1), "a keycap is an emoji")
        let voice = Self.file(3, mime: "audio/ogg", size: 9_000, attributes: [.audio(isVoice: true, duration: 3, title: nil, performer: nil, waveform: nil)])
        #expect(ChatMessageItemClassifier.kind(of: [message(text: "listen", media: [voice])]) == .bubble([.voice(id), .text(id)]))
        let pdf = Self.file(4, mime: "application/pdf", size: 9_000, attributes: [.fileName("report.pdf")])
        #expect(ChatMessageItemClassifier.kind(of: [message(media: [pdf])]) == .bubble([.file(id)]))
        let png = Self.file(5, mime: "image/png", size: 9_000, attributes: [.fileName("drawing.png")])
        #expect(ChatMessageItemClassifier.kind(of: [message(text: "caption", media: [png])]) == .bubble([.media(id), .text(id)]))
        let action = TelegramMediaAction(action: .groupCreated(title: "Trip"))
        #expect(ChatMessageItemClassifier.kind(of: [message(media: [action])]) == .bubble([.action(id)]))
        #expect(ChatMessageItemClassifier.kind(of: [message()]) == .bubble([.unsupported(id)]))
    }
}
