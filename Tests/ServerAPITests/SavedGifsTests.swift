import Foundation
import MTProtoServer
import ServerAPI
import TLRuntime
import TelegramApi
import Testing

/// Saved GIFs (core.telegram.org methods `messages.saveGif`, `messages.getSavedGifs`; update `updateSavedGifs`): each
/// account's own list, the latest saved first, with Telegram's list hash; anything but an animation the caller can
/// name is `GIF_ID_INVALID`.
@Suite struct SavedGifsTests {
    /// A document Ann sends to Ben (uploaded as file `fileId`), as the answer names it.
    static func send(
        _ harness: AttackHarness, to peer: Api.InputPeer, fileId: Int64, animated: Bool
    ) throws -> Api.Document.Cons_document {
        #expect(
            harness.error(
                Api.functions.upload.saveFilePart(
                    fileId: fileId, filePart: 0, bytes: Array(repeating: UInt8(fileId), count: 300)), key: 1) == nil)
        let attributes: [Api.DocumentAttribute] =
            animated
            ? [.documentAttributeAnimated, .documentAttributeVideo(.init(duration: 1, w: 64, h: 64))]
            : [.documentAttributeFilename(.init(fileName: "notes.txt"))]
        let media = Api.InputMedia.inputMediaUploadedDocument(
            .init(
                file: .inputFile(.init(id: fileId, parts: 1, name: "f", md5Checksum: "")),
                mimeType: animated ? "video/mp4" : "text/plain", attributes: attributes))
        let sent = try harness.result(
            Api.functions.messages.sendMedia(peer: peer, media: media, message: "", randomId: fileId),
            as: Api.Updates.self, key: 1)
        guard case .updates(let body) = sent else { throw CancellationError() }
        for update in body.updates {
            if case .updateNewMessage(let new) = update, case .message(let message) = new.message,
                case .messageMediaDocument(let document)? = message.media,
                case .document(let fields)? = document.document
            {
                return fields
            }
        }
        throw CancellationError()
    }

    static func input(_ document: Api.Document.Cons_document) -> Api.InputDocument {
        .inputDocument(.init(id: document.id, accessHash: document.accessHash, fileReference: document.fileReference))
    }

    static func saved(_ harness: AttackHarness, key: Int64, hash: Int64 = 0) throws -> (ids: [Int64], hash: Int64)? {
        let answer = try harness.result(
            Api.functions.messages.getSavedGifs(hash: hash), as: Api.messages.SavedGifs.self, key: key)
        guard case .savedGifs(let list) = answer else { return nil }
        return (
            list.gifs.compactMap {
                if case .document(let document) = $0 { return document.id }
                return nil
            }, list.hash
        )
    }

    @Test func theListKeepsTheLatestFirstAndAnswersNotModified() throws {
        let harness = try AttackHarness()
        _ = try harness.signUp("9996620001", name: "Ann", key: 1)
        let ben = try harness.signUp("9996620002", name: "Ben", key: 2)
        let first = try Self.send(harness, to: ben.inputPeer, fileId: 11, animated: true)
        let second = try Self.send(harness, to: ben.inputPeer, fileId: 12, animated: true)
        let text = try Self.send(harness, to: ben.inputPeer, fileId: 13, animated: false)
        let pushed = ChannelTests.Pushed()
        harness.updates.subscribe(.init(authKeyId: 1, sessionId: 99), connection: ObjectIdentifier(pushed)) {
            bytes in pushed.add(99, bytes)
        }
        #expect(try Self.saved(harness, key: 1)?.ids == [])
        for document in [first, second] {
            #expect(
                harness.error(Api.functions.messages.saveGif(id: Self.input(document), unsave: false), key: 1) == nil)
        }
        let list = try #require(try Self.saved(harness, key: 1))
        #expect(list.ids == [second.id, first.id], "the latest saved first")
        #expect(try Self.saved(harness, key: 1, hash: list.hash) == nil, "the same list: savedGifsNotModified")
        // Saving one again moves it to the front; the hash changes with the order.
        #expect(harness.error(Api.functions.messages.saveGif(id: Self.input(first), unsave: false), key: 1) == nil)
        let moved = try #require(try Self.saved(harness, key: 1, hash: list.hash))
        #expect(moved.ids == [first.id, second.id] && moved.hash != list.hash)
        #expect(harness.error(Api.functions.messages.saveGif(id: Self.input(second), unsave: true), key: 1) == nil)
        #expect(try Self.saved(harness, key: 1)?.ids == [first.id])
        // The other session was told each time; Ben's list is his own.
        let told = pushed.updates(for: 99).filter {
            if case .updateShort(let short) = $0, case .updateSavedGifs = short.update { return true }
            return false
        }
        #expect(told.count == 4)
        #expect(try Self.saved(harness, key: 2)?.ids == [])
        // Not an animation, a wrong access hash, a damaged file reference.
        #expect(
            harness.error(Api.functions.messages.saveGif(id: Self.input(text), unsave: false), key: 1)
                == "GIF_ID_INVALID")
        let forged = Api.InputDocument.inputDocument(
            .init(id: first.id, accessHash: first.accessHash ^ 1, fileReference: first.fileReference))
        #expect(harness.error(Api.functions.messages.saveGif(id: forged, unsave: false), key: 1) == "GIF_ID_INVALID")
        var reference = first.fileReference
        reference[reference.count - 1] ^= 1
        let stale = Api.InputDocument.inputDocument(
            .init(id: first.id, accessHash: first.accessHash, fileReference: reference))
        #expect(
            harness.error(Api.functions.messages.saveGif(id: stale, unsave: false), key: 1)
                == "FILE_REFERENCE_EXPIRED")
        #expect(
            harness.error(Api.functions.messages.saveGif(id: .inputDocumentEmpty, unsave: false), key: 1)
                == "GIF_ID_INVALID")
    }
}
