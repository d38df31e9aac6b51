import CryptoUtils
import Foundation
import MTProtoServer
import ServerStore
import TLRuntime
import TelegramApi

/// The server's own sticker set, "Telegraph" (`telegraph`): `messages.getStickerSet`, `getAllStickers`,
/// `installStickerSet`, `uninstallStickerSet`; its stickers are documents like any other, sent with
/// `inputMediaDocument`.
extension ServerBackend {
    /// The set's id (its documents' ids follow it).
    public static let stickerSetId: Int64 = 0x7e1e_6a9a_0000_0001
    static let stickerSetAccessHash: Int64 = 0x5117_c4e2_7e1e_6a9a
    static let stickerSetShortName = "telegraph"

    /// The set's documents, stored (once) in the vault and the database.
    struct StickerSet {
        let documents: [DocumentRecord]
        let emojis: [String]
    }

    /// Stores the set's stickers if they are not stored yet; tg-server calls it once at start.
    public func prepareStickerSet() throws {
        let dc = dataCenters.contains { $0.id == 2 } ? 2 : (dataCenters.first?.id ?? 1)
        var documents: [DocumentRecord] = []
        var emojis: [String] = []
        for (index, sticker) in try ServerStickerAssets.all().enumerated() {
            let blob = try files.store(sticker.bytes)
            let attributes: [Api.DocumentAttribute] = [
                .documentAttributeSticker(
                    .init(
                        alt: sticker.emoji,
                        stickerset: .inputStickerSetID(
                            .init(id: Self.stickerSetId, accessHash: Self.stickerSetAccessHash)))),
                // A video sticker carries its frame size and duration as a video does (core.telegram.org/stickers,
                // "Video stickers"; Telegram-iOS's `TelegramMediaFile.isVideoSticker` needs the sticker attribute
                // and the mime type `video/webm`).
                sticker.videoDuration.map { .documentAttributeVideo(.init(duration: $0, w: 512, h: 512)) }
                    ?? .documentAttributeImageSize(.init(w: 512, h: 512)),
                .documentAttributeFilename(.init(fileName: sticker.fileName)),
            ]
            // A video sticker's first frame as its thumbnails (`i`, `m`), as for any video.
            let thumbs =
                sticker.videoDuration == nil ? nil : videoThumbs(blob: blob, mime: sticker.mime, attributes: attributes)
            let id = Self.stickerSetId + Int64(index + 1)
            documents.append(
                DocumentRecord(
                    id: id,
                    accessHash: Int64(
                        bitPattern: UInt64(
                            Digest.sha256(Array(String(id).utf8)).prefix(8).reduce(0) { $0 << 8 | UInt64($1) })),
                    owner: 0, dc: dc, date: 1_700_000_000, mime: sticker.mime, size: blob.size, sha256: blob.sha256,
                    attributes: Reply.vector(attributes), thumbs: thumbs))
            emojis.append(sticker.emoji)
        }
        try store.write { tx in
            for document in documents where try tx.document(id: document.id) == nil { try tx.insert(document) }
        }
        preparedStickerSet.prepare(StickerSet(documents: documents, emojis: emojis))
    }

    private func knownStickerSet() throws -> StickerSet {
        guard let set = preparedStickerSet.set else { throw APIError.badRequest("STICKERSET_INVALID") }
        return set
    }

    private func matches(_ input: Api.InputStickerSet) -> Bool {
        switch input {
        case .inputStickerSetShortName(let name): return name.shortName.lowercased() == Self.stickerSetShortName
        case .inputStickerSetID(let id): return id.id == Self.stickerSetId && id.accessHash == Self.stickerSetAccessHash
        default: return false
        }
    }

    private func apiStickerSet(_ set: StickerSet, installed: Int32?) -> Api.StickerSet {
        .stickerSet(
            .init(
                installedDate: installed, id: Self.stickerSetId, accessHash: Self.stickerSetAccessHash,
                title: "Telegraph",
                shortName: Self.stickerSetShortName, count: Int32(set.documents.count), hash: 1))
    }

    func getStickerSet(_ call: Api.functions.messages.getStickerSet, caller: Caller) throws -> Api.messages.StickerSet {
        let set = try knownStickerSet()
        guard matches(call.stickerset) else { throw APIError.badRequest("STICKERSET_INVALID") }
        let installed = try store.read { tx in try tx.installedDate(userId: caller.userId, setId: Self.stickerSetId) }
        var packs: [String: [Int64]] = [:]
        for (document, emoji) in zip(set.documents, set.emojis) { packs[emoji, default: []].append(document.id) }
        return .stickerSet(
            .init(
                set: apiStickerSet(set, installed: installed),
                packs: set.emojis.map { emoji in .stickerPack(.init(emoticon: emoji, documents: packs[emoji] ?? [])) },
                keywords: [],
                documents: set.documents.map(apiDocument)))
    }

    func getAllStickers(_ caller: Caller) throws -> Api.messages.AllStickers {
        let set = try knownStickerSet()
        let installed = try store.read { tx in try tx.installedDate(userId: caller.userId, setId: Self.stickerSetId) }
        return .allStickers(
            .init(hash: installed == nil ? 0 : 1, sets: installed.map { [apiStickerSet(set, installed: $0)] } ?? []))
    }

    func installStickerSet(
        _ call: Api.functions.messages.installStickerSet, caller: Caller
    ) throws -> Api.messages.StickerSetInstallResult {
        _ = try knownStickerSet()
        guard matches(call.stickerset) else { throw APIError.badRequest("STICKERSET_INVALID") }
        let date = now
        _ = try store.write { tx in try tx.setInstalled(userId: caller.userId, setId: Self.stickerSetId, date: date) }
        return .stickerSetInstallResultSuccess
    }

    func uninstallStickerSet(_ call: Api.functions.messages.uninstallStickerSet, caller: Caller) throws -> [UInt8] {
        guard matches(call.stickerset) else { throw APIError.badRequest("STICKERSET_INVALID") }
        _ = try store.write { tx in try tx.setInstalled(userId: caller.userId, setId: Self.stickerSetId, date: nil) }
        return Reply.bool(true)
    }
}
