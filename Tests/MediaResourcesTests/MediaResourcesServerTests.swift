import CryptoUtils
import Foundation
import ImageCore
import ImageTransform
import JPEGBinding
import MediaBox
import MediaResources
import MediaTestSupport
import OpusBinding
import Postbox
import PostboxTesting
import SwiftSignalKit
import SyncCore
import TelegramCore
import TestVectors
import Testing

/// Against tg-server with Telethon 1.45 on the other side (Tests/Fixtures/telethon/media_resources_peer.py): a photo
/// Telethon sends arrives in our Postbox and the image Signal shows its stripped thumbnail, then the fetched size; a
/// PNG it sends as a document is fetched and shown as a bubble and a round avatar;
/// the round avatar the same way; a repeated request comes from the transform cache without a fetch; disposing
/// stops the fetch; our voice note reaches Telethon as a voice note with its duration and waveform.
@Suite(.serialized) struct MediaResourcesServerTests {
    struct Voice: Decodable {
        let mime_type: String
        let size: Int64
        let sha256: String
        let voice: Bool
        let duration: Int?
        let waveform: [UInt8]?
    }

    struct Size: Decodable {
        let type: String
        let w: Int
        let h: Int
    }

    struct Picture: Decodable {
        let text: String
        let sizes: [Size]
        let sha256: String
    }

    struct Report: Decodable {
        let voices: [Voice]
        let photos: [Picture]
    }

    /// Every value of `signal` until it completes, within `timeout` seconds; a failure is recorded.
    static func results(
        _ signal: Signal<ImageResult, ImageResourceError>, timeout: Double = 20
    ) async throws -> [ImageResult] {
        let outcome = try await ServerHarness.outcome(signal, timeout: timeout)
        #expect(outcome.error == nil)
        return outcome.values
    }

    /// Waits until `account` has stored an incoming message from `peer` with a document; returns the document.
    static func receivedDocument(_ account: Account, from peer: PeerId) async throws -> TelegramMediaFile {
        var document: TelegramMediaFile?
        try await ServerHarness.wait("Telethon's document in our Postbox", timeout: 60) {
            let messages = try account.postbox.readTransactionSync { tx in
                try tx.earlierMessages(peerId: peer, before: nil, count: 100)
            }
            document =
                messages.lazy.filter { $0.authorId == peer }.compactMap { $0.media.first as? TelegramMediaFile }.first
            return document != nil
        }
        return try #require(document)
    }

    /// Waits until `account` has stored an incoming message from `peer` with a photo; returns the photo.
    static func receivedPhoto(_ account: Account, from peer: PeerId) async throws -> TelegramMediaImage {
        var photo: TelegramMediaImage?
        try await ServerHarness.wait("Telethon's photo in our Postbox", timeout: 60) {
            let messages = try account.postbox.readTransactionSync { tx in
                try tx.earlierMessages(peerId: peer, before: nil, count: 100)
            }
            photo =
                messages.lazy.filter { $0.authorId == peer }.compactMap { $0.media.first as? TelegramMediaImage }.first
            return photo != nil
        }
        return try #require(photo)
    }

    @Test func aPhotoFromTelethonShowsThumbnailThenFullAndOurVoiceNoteReachesIt() async throws {
        let harness = try await ServerHarness()
        let ann = try await harness.signUp(phone: "9996623301", name: "Ann")
        try await ServerHarness.startAndCatchUp(ann)
        // The photo Telethon sends: 1600×1200, so the server makes s, m, x, y (1280×960) and w (1600×1200).
        let source = Photo.drawn(width: 1600, height: 1200)
        let photoPath = harness.root.path + "/sent.jpg"
        try Data(try JPEGEncoder.encode(source, quality: 90)).write(to: URL(fileURLWithPath: photoPath))
        // And a drawing as a document: Telethon sends the PNG file itself.
        let drawing = Photo.drawn(width: 300, height: 200)
        let pngPath = harness.root.path + "/drawing.png"
        try Data(PNGCodec.encode(drawing)).write(to: URL(fileURLWithPath: pngPath))
        let telethon = try harness.telethon(
            phone: "9996623302", target: "9996623301",
            ["--send-photo", photoPath, "--caption", "look", "--send-document", pngPath, "--expect-voice", "1"])
        let tessId = try await ServerHarness.introduceWhenSignedUp(phone: "9996623302", name: "Tess", to: ann)
        let photo = try await ServerHarness.explainingFailure(of: telethon, and: ann) {
            try await Self.receivedPhoto(ann, from: tessId)
        }
        #expect(photo.immediateThumbnailData != nil, "the server sends a stripped thumbnail")
        #expect(photo.largestRepresentation?.dimensions == PixelDimensions(width: 1600, height: 1200))

        let cache = TransformCache()
        let resources = ImageResources(account: ann, cache: cache)
        // A bubble of 320×320: the stripped thumbnail first (blurred, 320×240), then `m` fetched, 320×240.
        let bubble = ImageRequest.bubble(fitting: PixelSize(width: 320, height: 320))
        let shown = try await Self.results(resources.image(photo, request: bubble))
        #expect(shown.map(\.stage) == [.strippedThumbnail, .full])
        #expect(shown.allSatisfy { $0.bitmap.width == 320 && $0.bitmap.height == 240 && !$0.fromCache })
        let afterBubble = resources.fetcher.requests
        #expect(afterBubble >= 1)
        // The full picture is the photo Telethon sent; the thumbnail is the same picture, blurred.
        let expected = Resampler.resize(source, to: PixelSize(width: 320, height: 240))
        let full = try #require(shown.last?.bitmap)
        let thumbnail = try #require(shown.first?.bitmap)
        let fullDifference = try #require(Photo.meanAbsoluteDifference(expected, full))
        let thumbnailDifference = try #require(Photo.meanAbsoluteDifference(expected, thumbnail))
        #expect(fullDifference < 6, "the full picture differs from the sent one by \(fullDifference)")
        #expect(thumbnailDifference > fullDifference && thumbnailDifference < 40)

        // The round chat-list avatar, 60×60: its own size (`s`, 100×75) fetched, the corners transparent.
        let avatar = try await Self.results(resources.image(photo, request: .roundAvatar(side: 60)))
        #expect(avatar.map(\.stage) == [.strippedThumbnail, .full])
        let round = try #require(avatar.last?.bitmap)
        #expect(round.width == 60 && round.height == 60)
        #expect(round[0, 0].a == 0 && round[59, 59].a == 0 && round[30, 30].a == 255)
        #expect(resources.fetcher.requests > afterBubble)

        // The same request again: from the transform cache, no fetch, no thumbnail.
        let requests = resources.fetcher.requests
        let hits = cache.statistics.memoryHits
        let again = try await Self.results(resources.image(photo, request: bubble))
        #expect(again == [ImageResult(stage: .full, bitmap: full, fromCache: true)])
        #expect(resources.fetcher.requests == requests, "a cached image made a fetch request")
        #expect(cache.statistics.memoryHits == hits + 1)

        // Telethon's document: fetched from the server, decoded, and shown as a bubble and as a round avatar.
        let document = try await ServerHarness.explainingFailure(of: telethon, and: ann) {
            try await Self.receivedDocument(ann, from: tessId)
        }
        #expect(document.mimeType == "image/png" && document.fileName == "drawing.png")
        let documentRequests = resources.fetcher.requests
        let documentBubble = try await Self.results(
            resources.image(file: document, request: .bubble(fitting: PixelSize(width: 300, height: 300))))
        #expect(documentBubble.map(\.stage) == [.full])
        let shownDrawing = try #require(documentBubble.last?.bitmap)
        #expect(shownDrawing.width == 300 && shownDrawing.height == 200)
        #expect(
            try #require(Photo.meanAbsoluteDifference(drawing, shownDrawing)) < 1,
            "the document is the PNG Telethon sent")
        #expect(resources.fetcher.requests > documentRequests, "the document came from the server")
        let documentAvatar = try await Self.results(resources.image(file: document, request: .roundAvatar(side: 60)))
        #expect(
            documentAvatar.last.map { $0.bitmap.width == 60 && $0.bitmap[0, 0].a == 0 && $0.bitmap[30, 30].a == 255 }
                == true)

        // Disposing stops the fetch: the largest size in 4 KB windows, one at a time, disposed after two.
        let largest = try #require(photo.largestRepresentation)
        let slowFetcher = MediaFetcher(
            network: ann.network, mediaBox: ann.postbox.mediaBox, parallelParts: 1, partSize: 4096)
        let slow = ImageResources(mediaBox: ann.postbox.mediaBox, fetcher: slowFetcher, cache: TransformCache())
        let delivered = LockedValue<[ImageResult.Stage]>([])
        let disposable = slow.image(photo, request: .bubble(fitting: PixelSize(width: 1600, height: 1600)))
            .start(next: { result in delivered.withLock { $0.append(result.stage) } })
        try await ServerHarness.wait("two windows of the largest size") { slowFetcher.requests >= 2 }
        disposable.dispose()
        try await Task.sleep(for: .milliseconds(400))
        let stopped = slowFetcher.requests
        try await Task.sleep(for: .milliseconds(600))
        #expect(slowFetcher.requests == stopped, "requests went on after the Signal was disposed")
        #expect(delivered.withLock { $0 } == [.strippedThumbnail])
        if case .local = ann.postbox.mediaBox.resourceStatus(largest.resource.id, size: largest.byteSize) {
            Issue.record("the largest size was fetched completely after the Signal was disposed")
        }

        // Our voice note: espeak-ng speech, encoded with the recorder's settings, sent as a document.
        let wav = harness.root.path + "/speech.wav"
        let status = try await Tools.runOffPool("espeak-ng", ["-w", wav, "A voice note for Telethon."])
        try #require(status == 0, "espeak-ng is missing: run `make deps`")
        let prepared = try OutgoingVoiceNote.prepare(path: wav)
        let file = try OutgoingVoiceNote.prepare(path: wav, for: ann)
        #expect(file.mimeType == "audio/ogg" && file.isVoice && file.size == Int64(prepared.ogg.count))
        // The stored file (its Opus serial is random, so it is compared by length and by what it decodes to).
        let stored = try #require(
            ann.postbox.mediaBox.resourceData(file.resource.id, range: 0..<Int64(prepared.ogg.count)))
        #expect(abs(try OggOpusReader.duration(stored) - prepared.exactDuration) < 0.03)
        try ann.enqueue([EnqueueMessage(text: "", file: file)], to: tessId)

        let result = try await telethon.value
        try #require(result.succeeded, "\(result.output) \(result.errorOutput.suffix(3000))")
        let report = try JSONDecoder().decode(Report.self, from: result.stdout)
        let voice = try #require(report.voices.first)
        #expect(voice.voice && voice.mime_type == "audio/ogg")
        #expect(voice.duration == Int(prepared.duration))
        #expect(voice.waveform == prepared.waveform)
        #expect(voice.size == Int64(stored.count))
        #expect(voice.sha256 == hex(Digest.sha256(stored)), "Telethon downloaded other bytes than we stored")
        try await harness.close([ann])
    }

    @Test func ourPreparedPhotoReachesTelethonAt1280() async throws {
        let harness = try await ServerHarness()
        let ann = try await harness.signUp(phone: "9996623303", name: "Ann")
        try await ServerHarness.startAndCatchUp(ann)
        let telethon = try harness.telethon(
            phone: "9996623304", target: "9996623303", ["--expect-photos", "1"])
        let tessId = try await ServerHarness.introduceWhenSignedUp(phone: "9996623304", name: "Tess", to: ann)

        // A 4000×3000 camera picture, prepared: 1280×960 JPEG in the account's MediaBox.
        let camera = try JPEGEncoder.encode(Photo.drawn(width: 4000, height: 3000), quality: 90)
        let image = try OutgoingPhoto.prepare(camera, for: ann)
        let local = try #require(image.representations.first)
        #expect(image.representations.count == 1 && local.dimensions == PixelDimensions(width: 1280, height: 960))
        // Shown before it is sent: straight from MediaBox, nothing fetched, no thumbnail to show first.
        let resources = ImageResources(account: ann)
        let shown = try await Self.results(
            resources.image(image, request: .bubble(fitting: PixelSize(width: 320, height: 320))))
        #expect(shown.map(\.stage) == [.full] && shown.first?.bitmap.width == 320 && shown.first?.bitmap.height == 240)
        #expect(resources.fetcher.requests == 0)
        // A picture sent as a document (PNG with its image size): its own bytes are the full size.
        let png = harness.root.path + "/drawing.png"
        try Data(PNGCodec.encode(Photo.drawn(width: 300, height: 200))).write(to: URL(fileURLWithPath: png))
        let document = try ann.prepareFile(
            path: png, name: "drawing.png", mimeType: "image/png",
            attributes: [.imageSize(PixelDimensions(width: 300, height: 200))])
        let avatar = try await Self.results(resources.image(file: document, request: .roundAvatar(side: 60)))
        #expect(avatar.map(\.stage) == [.full] && avatar.first?.bitmap.width == 60)
        #expect(avatar.first.map { $0.bitmap[0, 0].a == 0 && $0.bitmap[30, 30].a == 255 } == true)
        #expect(resources.fetcher.requests == 0)

        try ann.enqueue([EnqueueMessage(text: "from the camera", media: image)], to: tessId)
        let result = try await telethon.value
        try #require(result.succeeded, "\(result.output) \(result.errorOutput.suffix(3000))")
        let report = try JSONDecoder().decode(Report.self, from: result.stdout)
        let received = try #require(report.photos.first)
        #expect(received.text == "from the camera")
        // The server made its sizes from our 1280×960 JPEG: the largest is `y`, the whole picture.
        #expect(received.sizes.map { "\($0.type)\($0.w)x\($0.h)" } == ["s100x75", "m320x240", "x800x600", "y1280x960"])
        try await harness.close([ann])
    }
}
