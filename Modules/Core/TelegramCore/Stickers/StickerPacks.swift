public import AccountNetworking
public import Network
public import SyncCore
import SyncCoreApi
import TLRuntime
import TelegramApi

/// A sticker set as the server describes it (Telegram-iOS `StickerPackCollectionInfo`).
public struct StickerPackInfo: Hashable, Sendable {
    public var id: Int64
    public var accessHash: Int64
    public var title: String
    public var shortName: String
    public var count: Int32
    /// Whether this account has it installed.
    public var installed: Bool

    /// How a request names it.
    public var reference: StickerPackReference { .id(id: id, accessHash: accessHash) }

    init(_ set: Api.StickerSet) {
        switch set {
        case .stickerSet(let fields):
            self.init(
                id: fields.id, accessHash: fields.accessHash, title: fields.title, shortName: fields.shortName,
                count: fields.count,
                installed: fields.installedDate != nil)
        }
    }

    public init(id: Int64, accessHash: Int64, title: String, shortName: String, count: Int32, installed: Bool) {
        self.id = id
        self.accessHash = accessHash
        self.title = title
        self.shortName = shortName
        self.count = count
        self.installed = installed
    }
}

/// A sticker set with its stickers: documents the server has, sent by reference (`EnqueueMessage(media:)` with one of
/// `files` goes up as `inputMediaDocument`, never uploaded again).
public struct StickerPack: Sendable {
    public var info: StickerPackInfo
    public var files: [TelegramMediaFile]
}

/// What went wrong asking for sticker sets.
public enum StickerPackError: Error, Equatable {
    /// No such set (`STICKERSET_INVALID`).
    case notFound
    case network(String)
}

/// The server's sticker sets (Telegram-iOS `loadedStickerPack`, `addStickerPackInteractively`,
/// `managedSynchronizeInstalledStickerPacks`): fetch a set with its stickers, install one, list the installed ones.
/// core.telegram.org/api/stickers.
public enum StickerPacks {
    /// The set `reference` names, with its stickers (`messages.getStickerSet`).
    public static func fetch(
        _ reference: StickerPackReference, network: any AccountNetworking
    ) async throws(StickerPackError) -> StickerPack {
        let answer = try await call(
            network, Api.functions.messages.getStickerSet(stickerset: reference.apiInputStickerSet, hash: 0))
        guard case .stickerSet(let set) = answer else {
            throw .network("stickerSetNotModified for a request without a hash")
        }
        return StickerPack(info: StickerPackInfo(set.set), files: set.documents.compactMap(TelegramMediaFile.init))
    }

    /// Installs the set for this account (`messages.installStickerSet`); it then shows in `installed`.
    public static func install(
        _ reference: StickerPackReference, network: any AccountNetworking
    ) async throws(StickerPackError) {
        _ = try await call(
            network, Api.functions.messages.installStickerSet(stickerset: reference.apiInputStickerSet, archived: false)
        )
    }

    /// The sets this account has installed, in the server's order (`messages.getAllStickers`).
    public static func installed(network: any AccountNetworking) async throws(StickerPackError) -> [StickerPackInfo] {
        let answer = try await call(network, Api.functions.messages.getAllStickers(hash: 0))
        guard case .allStickers(let all) = answer else { return [] }
        return all.sets.map(StickerPackInfo.init)
    }

    private static func call<T: TLFunction>(
        _ network: any AccountNetworking, _ function: T
    ) async throws(StickerPackError) -> T.Result where T.Result: Sendable {
        do {
            return try await network.request(function)
        } catch NetworkError.rpc(_, "STICKERSET_INVALID") {
            throw .notFound
        } catch {
            throw .network("\(error)")
        }
    }
}
