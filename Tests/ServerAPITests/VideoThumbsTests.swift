import Foundation
import ServerStore
import TLRuntime
import TelegramApi
import TestVectors
import Testing

/// A video document's thumbnails, made by tg-server from the first frame: `thumbs` `i` and `m`, the JPEG served by
/// `getFile` with `thumb_size` to whoever holds the document's access hash and file reference (not a stranger
/// guessing), kept across a restart.
@Suite struct VideoThumbsTests {
    static func video(_ harness: AttackHarness, key: Int64) throws -> Api.Document.Cons_document? {
        let page = try harness.result(
            Api.functions.messages.getHistory(
                peer: .inputPeerSelf, offsetId: 0, offsetDate: 0, addOffset: 0, limit: 1, maxId: 0, minId: 0, hash: 0),
            as: Api.messages.Messages.self, key: key)
        guard case .messages(let body) = page, case .message(let message)? = body.messages.first,
            case .messageMediaDocument(let media)? = message.media, case .document(let document)? = media.document
        else { return nil }
        return document
    }

    static func thumb(
        _ document: Api.Document.Cons_document, size: String, accessHash: Int64? = nil
    )
        -> Api.functions.upload.getFile
    {
        Api.functions.upload.getFile(
            location: .inputDocumentFileLocation(
                .init(
                    id: document.id, accessHash: accessHash ?? document.accessHash,
                    fileReference: document.fileReference, thumbSize: size)), offset: 0, limit: 1_048_576)
    }

    @Test func theServerMakesAVideosThumbnailsAndServesThemToThoseWhoHoldIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("video-thumbs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("clip.mp4").path
        let made = try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=10", "-t", "1", "-c:v",
                "libx264", "-pix_fmt", "yuv420p", clip,
            ])
        try #require(made.status == 0, "ffmpeg: \(made.errorOutput)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: clip)))
        try #require(bytes.count < 512 * 1024)

        let harness = try AttackHarness()
        _ = try harness.signUp("9996623701", name: "Ann", key: 1)
        _ = try harness.signUp("9996623702", name: "Cat", key: 2)
        #expect(harness.error(Api.functions.upload.saveFilePart(fileId: 9, filePart: 0, bytes: bytes), key: 1) == nil)
        let media = Api.InputMedia.inputMediaUploadedDocument(
            .init(
                file: .inputFile(.init(id: 9, parts: 1, name: "clip.mp4", md5Checksum: "")), mimeType: "video/mp4",
                attributes: [.documentAttributeVideo(.init(supportsStreaming: true, duration: 1, w: 320, h: 240))]))
        #expect(
            harness.error(
                Api.functions.messages.sendMedia(peer: .inputPeerSelf, media: media, message: "", randomId: 3), key: 1)
                == nil)
        let document = try #require(try Self.video(harness, key: 1))
        let thumbs = document.thumbs ?? []
        #expect(thumbs.count == 2)
        guard case .photoStrippedSize(let stripped)? = thumbs.first, case .photoSize(let m)? = thumbs.last else {
            Issue.record("thumbs: \(thumbs)")
            return
        }
        #expect(stripped.type == "i" && m.type == "m" && m.w == 320 && m.h == 240)

        let file = try harness.result(Self.thumb(document, size: "m"), as: Api.upload.File.self, key: 1)
        guard case .file(let served) = file else { Issue.record("\(file)"); return }
        #expect(served.bytes.count == Int(m.size) && served.bytes.prefix(2) == [0xFF, 0xD8])
        #expect(harness.error(Self.thumb(document, size: "x"), key: 1) == "FILE_ID_INVALID")
        // A stranger guessing the access hash is refused.
        #expect(harness.error(Self.thumb(document, size: "m", accessHash: document.accessHash ^ 1), key: 2) != nil)

        // Kept across a restart.
        try harness.restart()
        let again = try harness.result(Self.thumb(document, size: "m"), as: Api.upload.File.self, key: 1)
        guard case .file(let kept) = again else { Issue.record("\(again)"); return }
        #expect(kept.bytes == served.bytes)
    }
}
