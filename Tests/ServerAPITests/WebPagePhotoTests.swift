import ImageCore
import TelegramApi
import Testing

@testable import ServerAPI

/// A link preview's picture made a photo by the backend (`makeWebPagePhoto`): sizes as an uploaded photo's, on the
/// DC it is asked for, downloadable by anyone with its id, access hash and file reference (`inputPhotoFileLocation`,
/// `FILE_REFERENCE_EXPIRED` for another reference, `FILE_MIGRATE_X` on another DC); a picture too large to decode
/// within `maximumImageSideSum`, or bytes that are not a picture, are no photo.
@Suite struct WebPagePhotoTests {
    /// A PNG of `width`×`height`: red when `filled`, else transparent (only its header matters to the limits).
    static func picture(width: Int, height: Int, filled: Bool = false) -> [UInt8] {
        var bitmap = Bitmap(width: width, height: height)
        if filled {
            for y in 0..<height {
                for x in 0..<width { bitmap[x, y] = RGBA(r: 200, g: 30, b: 40, a: 255) }
            }
        }
        return PNGCodec.encode(bitmap)
    }

    @Test func aPagePictureIsAPhotoAnyoneCanDownload() throws {
        let harness = try AttackHarness()
        _ = try harness.signUp("9996620001", name: "Ann", key: 1)
        let backend = try #require(harness.handler.backend)
        let made = try #require(backend.makeWebPagePhoto(Self.picture(width: 640, height: 480, filled: true), dc: 2))
        guard case .photo(let photo) = made else {
            Issue.record("\(made)")
            return
        }
        #expect(photo.dcId == 2)
        let sizes = photo.sizes.compactMap { size -> String? in
            if case .photoSize(let size) = size { return "\(size.type) \(size.w)x\(size.h)" }
            return nil
        }
        #expect(sizes == ["s 100x75", "m 320x240", "x 640x480"])
        let location = Api.InputFileLocation.inputPhotoFileLocation(
            .init(id: photo.id, accessHash: photo.accessHash, fileReference: photo.fileReference, thumbSize: "x"))
        let file = try harness.result(
            Api.functions.upload.getFile(location: location, offset: 0, limit: 512 << 10), as: Api.upload.File.self,
            key: 1)
        guard case .file(let body) = file else {
            Issue.record("\(file)")
            return
        }
        #expect(body.bytes.starts(with: [0xFF, 0xD8, 0xFF]))
        let stale = Api.InputFileLocation.inputPhotoFileLocation(
            .init(
                id: photo.id, accessHash: photo.accessHash, fileReference: [1] + Array(repeating: 0, count: 16),
                thumbSize: "x"))
        #expect(
            harness.error(Api.functions.upload.getFile(location: stale, offset: 0, limit: 4096), key: 1)
                == "FILE_REFERENCE_EXPIRED")
        #expect(
            harness.error(Api.functions.upload.getFile(location: location, offset: 0, limit: 4096), key: 1, dc: 1)
                == "FILE_MIGRATE_2")
    }

    @Test func picturesTooLargeToDecodeOrNotPicturesAreNoPhoto() throws {
        let harness = try AttackHarness()
        let backend = try #require(harness.handler.backend)
        #expect(backend.webPages.rules.maximumImageSideSum == 5_000)
        #expect(backend.makeWebPagePhoto(Self.picture(width: 3_000, height: 2_001), dc: 2) == nil)
        #expect(backend.makeWebPagePhoto(Array("<html></html>".utf8), dc: 2) == nil)
        #expect(backend.makeWebPagePhoto([0xFF, 0xD8, 0xFF, 0xE0, 0, 1], dc: 2) == nil)
        #expect(backend.makeWebPagePhoto(Self.picture(width: 2_000, height: 90), dc: 2) == nil)  // 22:1
    }
}
