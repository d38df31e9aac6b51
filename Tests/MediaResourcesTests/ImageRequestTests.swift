import ImageCore
import ImageTransform
import JPEGBinding
import MediaResources
import MediaTestSupport
import PhotoSizes
import SyncCore
import Testing

/// Which of a photo's sizes a request fetches, and the stripped thumbnail shown before it.
@Suite struct ImageRequestTests {
    /// A 1280×960 photo's sizes as a server makes them (`s`, `m`, `x`, `y`).
    static let sizes: [TelegramMediaImageRepresentation] = [
        ("s", 100, 75), ("m", 320, 240), ("x", 800, 600), ("y", 1280, 960),
    ].enumerated().map { index, size in
        TelegramMediaImageRepresentation(
            dimensions: PixelDimensions(width: Int32(size.1), height: Int32(size.2)),
            resource: .cloudPhotoSize(datacenterId: 2, photoId: 1, accessHash: 2, fileReference: [], sizeSpec: size.0),
            type: size.0)
    }

    @Test func theSmallestSizeThatCoversTheRequestIsChosen() {
        // A bubble of 320×320 shows the photo at 320×240: `m` is exactly that large.
        #expect(
            ImageRequest.bubble(fitting: PixelSize(width: 320, height: 320)).representation(in: Self.sizes)?.type == "m"
        )
        #expect(
            ImageRequest.bubble(fitting: PixelSize(width: 400, height: 400)).representation(in: Self.sizes)?.type == "x"
        )
        // A 60×60 avatar covers 80×60 before the centre is cut: `s` (100×75).
        #expect(ImageRequest.roundAvatar(side: 60).representation(in: Self.sizes)?.type == "s")
        #expect(ImageRequest.roundAvatar(side: 100).representation(in: Self.sizes)?.type == "m")
        // Larger than any size: the largest.
        #expect(
            ImageRequest.bubble(fitting: PixelSize(width: 2000, height: 2000)).representation(in: Self.sizes)?.type
                == "y")
        // Order does not matter.
        #expect(ImageRequest.roundAvatar(side: 60).representation(in: Self.sizes.reversed())?.type == "s")
        #expect(ImageRequest.roundAvatar(side: 60).representation(in: []) == nil)
    }

    @Test func theArgumentsAreTheCacheKeysTransform() {
        #expect(ImageRequest.roundAvatar(side: 60).arguments == .roundAvatar(side: 60))
        #expect(
            ImageRequest.bubble(fitting: PixelSize(width: 320, height: 320), cornerRadius: 12).arguments.description
                == "fit(320x320)|round(12.0)")
    }

    @Test func aStrippedThumbnailIsRebuiltDecodedAndBlurred() throws {
        let set = try PhotoSizes.make(from: PNGCodec.encode(Photo.drawn(width: 1280, height: 960)))
        let thumbnail = try #require(StrippedThumbnailImage.decode(set.stripped.bytes))
        #expect(thumbnail.width == 40 && thumbnail.height == 30)
        let sharp = try JPEGDecoder.decode(set.stripped.jpeg)
        let difference = try #require(Photo.meanAbsoluteDifference(sharp, thumbnail))
        #expect(difference > 1 && difference < 30, "blurred, still the same picture: \(difference)")
        #expect(StrippedThumbnailImage.decode([1, 0, 40]) == nil)
        #expect(StrippedThumbnailImage.decode([2, 30, 40, 1, 2, 3]) == nil)
        #expect(StrippedThumbnailImage.decode([1, 30, 40] + [UInt8](repeating: 0x55, count: 40)) == nil)
        #expect(StrippedThumbnailImage.decode([]) == nil)
    }
}
