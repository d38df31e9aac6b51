import AnimatedSticker
import Foundation
import ImageCore
import MediaBox
import MediaResources
import Postbox
import SyncCore
import TelegramCore
import Testing

/// tg-server's own sticker set (`.tgs`, WebP and WebM video stickers) through StickerResources: each sticker's first
/// frame at the grid's size, an animated one's and the video one's frame cache whose first frame is the same picture, both kept as MediaBox cached
/// representations so the next request fetches and renders nothing; bytes that are no sticker fail with the
/// decoder's reason.
@Suite(.serialized) struct StickerResourcesTests {
    @Test func theServersStickersShowTheirFirstFrameAndPlayFromTheirFrameCache() async throws {
        let harness = try await ServerHarness(stickerSet: true)
        let ann = try await harness.signUp(phone: "9996623311", name: "Ann")
        let pack = try await StickerPacks.fetch(.name("telegraph"), network: ann.network)
        let resources = StickerResources(account: ann)
        #expect(
            pack.files.contains { $0.mimeType == "application/x-tgsticker" }
                && pack.files.contains { $0.mimeType == "image/webp" })

        var firstFrames: [Bitmap] = []
        for file in pack.files {
            let outcome = try await ServerHarness.outcome(resources.firstFrame(file, side: 96))
            #expect(outcome.error == nil, "\(file.fileName ?? "?"): \(String(describing: outcome.error))")
            let frame = try #require(outcome.values.first)
            #expect(frame.width == 96 && frame.height == 96)
            #expect(
                frame.pixels.enumerated().contains { $0.offset % 4 == 3 && $0.element > 0 },
                "\(file.fileName ?? "?") is blank")
            firstFrames.append(frame)
        }

        let animated = try #require(pack.files.firstIndex { $0.mimeType == "application/x-tgsticker" })
        let built = try await ServerHarness.outcome(resources.frames(pack.files[animated], side: 96))
        let frames = try #require(built.values.first)
        #expect(!frames.fromCache)
        let cache = try AnimatedStickerFrameCache(data: frames.data)
        #expect(cache.frameCount > 1 && cache.size == PixelSize(width: 96, height: 96))
        #expect(try cache.frame(at: 0).pixels == firstFrames[animated].pixels, "the cache's first frame is the grid's")

        // The video sticker (WebM, VP9 with alpha): its frames through the same cache, a transparent corner.
        let video = try #require(pack.files.firstIndex { $0.isVideoSticker })
        let videoBuilt = try await ServerHarness.outcome(resources.frames(pack.files[video], side: 96))
        let videoCache = try AnimatedStickerFrameCache(data: try #require(videoBuilt.values.first).data)
        #expect(videoCache.frameCount == 30 && videoCache.frameRate == 30)
        #expect(
            try videoCache.frame(at: 0).pixels == firstFrames[video].pixels, "the cache's first frame is the grid's")
        #expect(firstFrames[video][0, 0].a == 0 && firstFrames[video][48, 48].a == 255)

        // Again: from MediaBox's cached representations, nothing fetched.
        let requests = resources.fetcher.requests
        let again = try await ServerHarness.outcome(resources.frames(pack.files[animated], side: 96))
        #expect(again.values.first?.fromCache == true && again.values.first?.data == frames.data)
        let frameAgain = try await ServerHarness.outcome(resources.firstFrame(pack.files[animated], side: 96))
        #expect(frameAgain.values.first?.pixels == firstFrames[animated].pixels)
        #expect(resources.fetcher.requests == requests)

        // A document whose bytes are no sticker: the decoder's reason, nothing cached.
        let resource = TelegramMediaResource.cloudDocument(
            datacenterId: 2, fileId: 77, accessHash: 1, fileReference: [], size: 64)
        try ann.postbox.mediaBox.storeResourceData(resource.id, data: Array(repeating: 0x41, count: 64))
        let bogus = TelegramMediaFile(
            fileId: MediaId(namespace: Namespaces.Media.cloudFile, id: 77), resource: resource, mimeType: "image/webp",
            size: 64,
            attributes: [])
        let failed = try await ServerHarness.outcome(resources.firstFrame(bogus, side: 96))
        #expect(failed.error == .sticker(.unknownFormat))
        #expect(
            ann.postbox.mediaBox.cachedRepresentationData(resource.id, representation: "sticker-first-frame-96") == nil)
        try await harness.close([ann])
    }
}
