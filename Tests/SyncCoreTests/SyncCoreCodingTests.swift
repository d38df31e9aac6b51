import Postbox
import PostboxCoding
import PostboxTesting
import Testing

@testable import SyncCore

/// Every SyncCore type survives PostboxCoding and a real Postbox, and damaged bytes are errors, not traps.
@Suite struct SyncCoreCodingTests {
    init() { registerSyncCoreTypes() }

    static let photo = TelegramMediaImage(
        imageId: MediaId(namespace: Namespaces.Media.cloudImage, id: 77),
        representations: [
            TelegramMediaImageRepresentation(
                dimensions: PixelDimensions(width: 90, height: 60),
                resource: .cloudPhotoSize(
                    datacenterId: 2, photoId: 77, accessHash: -5, fileReference: [1, 2], sizeSpec: "s"),
                type: "s", byteSize: 1_234, cachedBytes: [9, 9]),
            TelegramMediaImageRepresentation(
                dimensions: PixelDimensions(width: 1280, height: 853),
                resource: .cloudPhotoSize(
                    datacenterId: 2, photoId: 77, accessHash: -5, fileReference: [1, 2], sizeSpec: "y"),
                type: "y", byteSize: 90_000, progressiveSizes: [1_000, 30_000, 90_000]),
        ],
        immediateThumbnailData: [1, 40, 40, 7], reference: .init(accessHash: -5, fileReference: [1, 2]),
        date: 1_700_000_000,
        hasStickers: true)

    static let voice = TelegramMediaFile(
        fileId: MediaId(namespace: Namespaces.Media.cloudFile, id: 88),
        resource: .cloudDocument(datacenterId: 4, fileId: 88, accessHash: 3, fileReference: [5], size: 6_000),
        previewRepresentations: [], mimeType: "audio/ogg", size: 6_000,
        attributes: [
            .audio(isVoice: true, duration: 7, title: nil, performer: nil, waveform: Array(repeating: 0xA5, count: 63)),
            .fileName("voice.ogg"),
        ])

    static let sticker = TelegramMediaFile(
        fileId: MediaId(namespace: Namespaces.Media.cloudFile, id: 89),
        resource: .cloudDocument(datacenterId: 1, fileId: 89, accessHash: 1, fileReference: [], size: 20_000),
        previewRepresentations: [
            TelegramMediaImageRepresentation(
                dimensions: PixelDimensions(width: 128, height: 128),
                resource: .cloudDocumentSize(
                    datacenterId: 1, documentId: 89, accessHash: 1, fileReference: [], sizeSpec: "m"),
                type: "m")
        ],
        mimeType: "application/x-tgsticker", size: 20_000,
        attributes: [
            .sticker(displayText: "😀", packReference: .name("Animals"), isMask: false),
            .imageSize(PixelDimensions(width: 512, height: 512)), .fileName("sticker.tgs"),
        ])

    static let user = TelegramUser(
        id: .user(1_000_001), accessHash: .personal(42), firstName: "Anh", lastName: "Nguyễn", username: "anh_ng",
        phone: "+84 123", photo: [], photoId: nil, flags: [.isPremium, .isContact])

    static let entities = TextEntitiesMessageAttribute(entities: [
        MessageTextEntity(range: 0..<4, type: .bold),
        MessageTextEntity(range: 5..<9, type: .pre(language: "swift")),
        MessageTextEntity(range: 5..<9, type: .pre(language: nil)),
        MessageTextEntity(range: 10..<12, type: .textUrl(url: "https://core.telegram.org")),
        MessageTextEntity(range: 12..<14, type: .textMention(peerId: .user(5))),
        MessageTextEntity(range: 14..<16, type: .blockQuote(isCollapsed: true)),
        MessageTextEntity(range: 16..<18, type: .customEmoji(fileId: -9)),
        MessageTextEntity(range: 18..<20, type: .cashtag),
    ])

    private func roundTrip<T: PostboxCoding>(_ value: T) throws -> T {
        let encoder = PostboxEncoder()
        encoder.encodeRootObject(value)
        let decoded = try PostboxDecoder(bytes: encoder.makeData()).decodeRootObject()
        return try #require(decoded as? T)
    }

    @Test func peersRoundTrip() throws {
        #expect(try roundTrip(Self.user) == Self.user)
        var publicHash = Self.user
        publicHash.accessHash = .genericPublic(7)
        publicHash.photo = [
            TelegramMediaImageRepresentation(
                dimensions: PixelDimensions(width: 160, height: 160),
                resource: .cloudPeerPhoto(datacenterId: 2, peerId: 1_000_001, photoId: 3, big: false), type: "a",
                immediateThumbnailData: [1, 2, 3])
        ]
        publicHash.photoId = 3
        #expect(try roundTrip(publicHash) == publicHash)
        let group = TelegramGroup(
            id: .group(55), title: "Nhóm bạn", participantCount: 3, membership: .left, isCreator: true,
            isDeactivated: true, migratedTo: .channel(9), creationDate: 100, version: 4)
        #expect(try roundTrip(group) == group)
        #expect(Self.user.indexName == "Anh Nguyễn anh_ng")
        #expect(Self.user.displayTitle == "Anh Nguyễn")
    }

    @Test func mediaRoundTrips() throws {
        #expect(try roundTrip(Self.photo) == Self.photo)
        #expect(try roundTrip(Self.voice) == Self.voice)
        #expect(try roundTrip(Self.sticker) == Self.sticker)
        #expect(Self.voice.isVoice && !Self.voice.isMusic && !Self.voice.isSticker)
        #expect(Self.sticker.isSticker && Self.sticker.fileName == "sticker.tgs")
        #expect(Self.photo.largestRepresentation?.type == "y")
        for action: TelegramMediaActionType in [
            .groupCreated(title: "G"), .addedMembers(peerIds: [.user(1), .user(2)]),
            .removedMembers(peerIds: [.user(3)]),
            .joinedByLink(inviter: .user(4)), .titleUpdated(title: "T"), .photoUpdated(image: false),
            .pinnedMessageUpdated, .historyCleared, .messageAutoremoveTimeoutUpdated(period: 86_400),
            .unsupported(constructor: "messageActionGameScore"),
        ] {
            #expect(try roundTrip(TelegramMediaAction(action: action)).action == action)
        }
        #expect(TelegramMediaAction(action: .addedMembers(peerIds: [.user(1)])).peerIds == [.user(1)])
    }

    @Test func aLinkPreviewKeepsItsPictureAndType() throws {
        let page = TelegramMediaWebpage(
            webpageId: 5, isPending: false, url: "http://example.com/", displayUrl: "example.com", title: "T",
            type: "photo", image: Self.photo, apiBytes: [1, 2, 3])
        let decoded = try roundTrip(page)
        #expect(decoded == page)
        #expect(decoded.image == Self.photo && decoded.type == "photo" && decoded.hasLargeImage)
        // Without a picture nothing is written for it, and an article's picture is small.
        let plain = TelegramMediaWebpage(webpageId: 6, isPending: false, title: "T", type: "article")
        #expect(try roundTrip(plain) == plain)
        var article = plain
        article.image = Self.photo
        #expect(!plain.hasLargeImage && !article.hasLargeImage)
    }

    @Test func attributesRoundTrip() throws {
        #expect(try roundTrip(Self.entities) == Self.entities)
        let reply = ReplyMessageAttribute(
            messageId: MessageId(peerId: .user(5), namespace: 0, id: 10),
            threadMessageId: MessageId(peerId: .user(5), namespace: 0, id: 2), quoteText: "quoted")
        #expect(try roundTrip(reply) == reply)
        let outgoing = OutgoingMessageInfoAttribute(uniqueId: -1, flags: [.muted], acknowledged: true, correlationId: 3)
        #expect(try roundTrip(outgoing) == outgoing)
        let edited = EditedMessageAttribute(date: 5, isHidden: true)
        #expect(try roundTrip(edited) == edited)
        let forward = ForwardSourceInfoAttribute(
            authorId: .channel(8), authorName: "Hidden", date: 9,
            sourceMessageId: MessageId(peerId: .channel(8), namespace: 0, id: 99), authorSignature: "Editor")
        #expect(try roundTrip(forward) == forward)
        let bare = ForwardSourceInfoAttribute(authorId: nil, date: 1)
        #expect(try roundTrip(bare) == bare)
    }

    @Test func damagedBytesThrow() throws {
        let encoder = PostboxEncoder()
        encoder.encodeRootObject(Self.sticker)
        let bytes = encoder.makeData()
        var generator = SystemRandomNumberGenerator()
        for cut in stride(from: 0, to: bytes.count, by: 3) {
            _ = try? PostboxDecoder(bytes: Array(bytes[0..<cut])).decodeRootObject()
        }
        for _ in 0..<500 {
            var damaged = bytes
            damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            _ = try? PostboxDecoder(bytes: damaged).decodeRootObject()
        }
        // Entity arrays of different lengths are a clear error.
        let broken = PostboxEncoder()
        broken.encodeInt32Array([6, 7], forKey: "k")
        broken.encodeInt32Array([0], forKey: "l")
        #expect(throws: PostboxDecodingError.self) {
            _ = try TextEntitiesMessageAttribute(decoder: PostboxDecoder(bytes: broken.makeData()))
        }
    }

    /// The product's types stored in and read back from a real (encrypted) Postbox: peers, a message with every
    /// attribute and shared media, found again by its text.
    @Test func storedInPostbox() throws {
        let (postbox, directory) = try openEncryptedPostbox("synccore")
        defer { directory.remove() }
        let chat = PeerId.user(1_000_001)
        let message = StoreMessage(
            id: .id(MessageId(peerId: chat, namespace: Namespaces.Message.cloud, id: 1)), timestamp: 10,
            flags: [.incoming], tags: [.photoOrVideo, .photo], authorId: chat, text: "phở **bold**",
            attributes: [Self.entities, EditedMessageAttribute(date: 11, isHidden: false)],
            media: [Self.photo, Self.voice])
        try postbox.transactionSync { tx in
            try tx.updatePeers([Self.user])
            _ = try tx.addMessages([message])
        }
        let (peer, stored, found) = try postbox.readTransactionSync { tx in
            (
                try tx.getPeer(chat), try tx.getMessage(MessageId(peerId: chat, namespace: 0, id: 1)),
                try tx.searchMessages("pho", limit: 5)
            )
        }
        #expect(peer as? TelegramUser == Self.user)
        let read = try #require(stored)
        #expect(read.author as? TelegramUser == Self.user)
        #expect(read.attributes.first as? TextEntitiesMessageAttribute == Self.entities)
        #expect(read.media.compactMap { $0 as? TelegramMediaImage } == [Self.photo])
        #expect(read.media.compactMap { $0 as? TelegramMediaFile } == [Self.voice])
        #expect(found.map(\.id.id) == [1])
    }
}
