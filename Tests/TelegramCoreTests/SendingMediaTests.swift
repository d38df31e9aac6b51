import CryptoUtils
import Foundation
import ImageCore
import JPEGBinding
import MediaBox
import MediaTestSupport
import Postbox
import PostboxTesting
import SyncCore
import TelegramCore
import TestVectors
import Testing

/// Our account sends Telethon 1.45's user (Tests/Fixtures/telethon/media_peer.py) text with entities, a reply, an album
/// of three photos, a sticker from tg-server's set by reference, a voice note and a forward, all through the
/// pending-message manager: Telethon sees the entities and the reply, the album as one `grouped_id` with the server's
/// photo sizes, the sticker with its set, the voice note with its
/// duration and 63-byte waveform, and the forward with its header; our Postbox holds the server's messages in place of
/// the local ones, the album's grouping kept, and the uploaded photos as the server's sizes in MediaBox.
@Suite(.serialized) struct SendingMediaTests {
    /// A drawn picture as a JPEG file at `path`.
    static func writePhoto(width: Int, height: Int, to path: String) throws -> PixelDimensions {
        let bytes = try JPEGEncoder.encode(Photo.drawn(width: width, height: height), quality: 85)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return PixelDimensions(width: Int32(width), height: Int32(height))
    }

    @Test func textAReplyAnAlbumAStickerAVoiceNoteAndAForwardReachTelethon() async throws {
        let world = try await AccountIntegrationTests.World(stickerSet: true, transport: .sockets)
        let ann = try await AccountIntegrationTests.signUp(world, phone: "9996622211", name: "Ann")
        ann.start()
        let (telethon, tessId) = try await MediaTransferTests.startTelethonPeer(
            world, account: ann, phone: "9996622212", targetPhone: "9996622211", count: 8)

        // Text with entities, then a reply to it once the server has it.
        let greeting = try #require(
            try ann.enqueue(
                [EnqueueMessage(text: "hello bold world", entities: [MessageTextEntity(range: 6..<10, type: .bold)])], to: tessId
            ).first)
        try await AccountIntegrationTests.wait("the greeting sent", timeout: 30) {
            try ann.postbox.readTransactionSync { tx in try tx.getMessage(greeting) } == nil
        }
        let sentGreeting = try #require(try AccountIntegrationTests.storedMessages(ann, with: tessId).first { $0.text == "hello bold world" })
        try ann.enqueue([EnqueueMessage(text: "a reply", replyTo: sentGreeting.id)], to: tessId)

        // The album: three photos of different shapes, one grouping key, the caption on the first.
        let shapes = [(640, 480), (480, 640), (1280, 720)]
        var images: [TelegramMediaImage] = []
        for (index, shape) in shapes.enumerated() {
            let path = world.root.path + "/photo\(index).jpg"
            images.append(try ann.prepareImage(path: path, dimensions: try Self.writePhoto(width: shape.0, height: shape.1, to: path)))
        }
        let key = EnqueueMessage.newGroupingKey()
        let album = try ann.enqueue(
            images.enumerated().map { index, image in EnqueueMessage(text: index == 0 ? "the album" : "", media: image, groupingKey: key) },
            to: tessId)
        #expect(album.count == 3)
        // Albums the server would refuse are refused before anything is stored.
        let tooMany = EnqueueMessage.newGroupingKey()
        #expect(throws: EnqueueError.albumInvalid(groupingKey: tooMany)) {
            try ann.enqueue(Array(repeating: EnqueueMessage(text: "", media: images[0], groupingKey: tooMany), count: 11), to: tessId)
        }
        let textOnly = EnqueueMessage.newGroupingKey()
        #expect(throws: EnqueueError.albumInvalid(groupingKey: textOnly)) {
            try ann.enqueue([EnqueueMessage(text: "no media", groupingKey: textOnly)], to: tessId)
        }

        // The sticker set: fetched, installed, listed; its first sticker goes by reference.
        let pack = try await StickerPacks.fetch(.name("telegraph"), network: ann.network)
        #expect(pack.info.shortName == "telegraph" && !pack.info.installed)
        #expect(pack.files.count == Int(pack.info.count) && !pack.files.isEmpty)
        try await StickerPacks.install(pack.info.reference, network: ann.network)
        let installed = try await StickerPacks.installed(network: ann.network)
        #expect(installed.map(\.id) == [pack.info.id] && installed.allSatisfy(\.installed))
        await #expect(throws: StickerPackError.notFound) { try await StickerPacks.fetch(.name("no-such-set"), network: ann.network) }
        let sticker = try #require(pack.files.first)
        let stickerAlt = sticker.attributes.compactMap { if case .sticker(let text, _, _) = $0 { text } else { nil } }.first

        // A voice note: the bytes do not matter to the path, the attributes do.
        let voicePath = world.root.path + "/voice.ogg"
        _ = try MediaTransferTests.writePattern(20_000, seed: 3, to: voicePath)
        let waveform = (0..<63).map { UInt8($0 * 4 % 256) }
        let voice = try ann.prepareFile(
            path: voicePath, name: "voice.ogg", mimeType: "audio/ogg",
            attributes: [.audio(isVoice: true, duration: 3, title: nil, performer: nil, waveform: waveform)])
        try ann.enqueue([EnqueueMessage(text: "", media: sticker), EnqueueMessage(text: "", media: voice)], to: tessId)

        // A forward of a note in Saved Messages, once the server has it.
        let note = try #require(try ann.enqueue([EnqueueMessage(text: "note to self")], to: ann.peerId).first)
        try await AccountIntegrationTests.wait("the note sent", timeout: 30) {
            try ann.postbox.readTransactionSync { tx in try tx.getMessage(note) } == nil
        }
        let stored = try #require(try AccountIntegrationTests.storedMessages(ann, with: ann.peerId).first { $0.text == "note to self" })
        try ann.enqueue([.forward(stored.id)], to: tessId)
        #expect(throws: EnqueueError.forwardSourceMissing(note)) { try ann.enqueue([.forward(note)], to: tessId) }

        // Everything sent: eight server messages in Tess's chat, nothing local left.
        try await AccountIntegrationTests.wait("eight messages sent", timeout: 90, explain: {
            let messages = (try? AccountIntegrationTests.storedMessages(ann, with: tessId)) ?? []
            return messages.map { "\($0.id) \($0.flags) \($0.attributes.compactMap { $0 as? SendFailureAttribute })" }.joined(separator: "; ")
        }) {
            let messages = try AccountIntegrationTests.storedMessages(ann, with: tessId)
            return messages.count == 8 && messages.allSatisfy { $0.id.namespace == Namespaces.Message.cloud }
        }
        let messages = Array(try AccountIntegrationTests.storedMessages(ann, with: tessId).sorted { $0.id.id < $1.id.id }.dropFirst(2))
        let photos = Array(messages.prefix(3))
        let groupingKeys = Set(photos.map(\.groupingKey))
        #expect(groupingKeys.count == 1 && groupingKeys.first! != nil, "the album's grouping is kept")
        #expect(photos.first?.text == "the album")
        for (message, shape) in zip(photos, shapes) {
            let image = try #require(message.media.first as? TelegramMediaImage)
            #expect(image.imageId.namespace == Namespaces.Media.cloudImage && image.reference != nil)
            let largest = try #require(image.largestRepresentation)
            #expect(largest.dimensions == PixelDimensions(width: Int32(shape.0), height: Int32(shape.1)))
            // What went up is the server's largest size in MediaBox: the sender does not download its own photo.
            let mediaBox = ann.postbox.mediaBox
            #expect(mediaBox.resourceStatus(largest.resource.id) == .local(path: mediaBox.completedPath(largest.resource.id)))
        }
        #expect((messages[3].media.first as? TelegramMediaFile)?.fileId == sticker.fileId)
        #expect((messages[4].media.first as? TelegramMediaFile)?.isVoice == true)
        #expect(messages[5].text == "note to self")
        #expect(messages[5].attributes.contains { ($0 as? ForwardSourceInfoAttribute)?.authorId == ann.peerId })
        #expect(!messages[5].attributes.contains { $0 is PendingForwardAttribute })

        // What Telethon received.
        let report = try await MediaTransferTests.report(telethon)
        try #require(report.received.count == 8, "\(report.received)")
        #expect(report.received[0].text == "hello bold world")
        #expect(report.received[0].entities == [[.type("MessageEntityBold"), .value(6), .value(4)]])
        #expect(report.received[1].text == "a reply" && report.received[1].reply_to == sentGreeting.id.id)
        let received = Array(report.received.dropFirst(2))
        let groupedIds = Set(received.prefix(3).map(\.grouped_id))
        #expect(groupedIds.count == 1 && groupedIds.first! != nil, "the album is one grouped_id")
        for (item, shape) in zip(received.prefix(3), shapes) {
            let sizes = try #require(item.photo_sizes, "not a photo: \(item)")
            let box = max(shape.0, shape.1)
            let expectedLargest: String = box > 800 ? "y" : box > 320 ? "x" : "m"
            #expect(sizes.contains([.type(expectedLargest), .value(shape.0), .value(shape.1)]), "sizes \(sizes) for \(shape)")
            #expect(sizes.contains { $0.first == .type("s") })
        }
        #expect(received[3].sticker_set == pack.info.id && received[3].sticker_alt == stickerAlt)
        #expect(received[4].voice == true && received[4].duration == 3 && received[4].waveform_bytes == 63)
        #expect(received[4].sha256 == hex(Digest.sha256([UInt8](try Data(contentsOf: URL(fileURLWithPath: voicePath))))))
        #expect(received[5].text == "note to self")
        #expect(received[5].forwarded_from.map { PeerId.user($0) } == ann.peerId)
        await ann.shutdown()
        try await world.close([])
    }
}
