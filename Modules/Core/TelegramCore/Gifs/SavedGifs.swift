public import AccountNetworking
public import SyncCore
import SyncCoreApi
import TLRuntime
import TelegramApi

/// What went wrong with saved GIFs.
public enum SavedGifsError: Error, Equatable, Sendable {
    /// The file is not an animation the server has (`GIF_ID_INVALID`), or a local file.
    case notAGif
    /// The server refused the call with this error name.
    case server(String)
    /// The call did not reach the server or its answer did not come back.
    case network(String)
}

/// The account's saved GIFs (core.telegram.org methods `messages.saveGif`, `messages.getSavedGifs`; Telegram-iOS
/// `ManagedRecentStickers.swift` `managedRecentGifs`, `addSavedGif`, `removeSavedGif`): fetched with the hash of the
/// list held, so an unchanged list costs a `savedGifsNotModified`.
public enum SavedGifs {
    /// A fetched list: the GIFs, latest saved first, and the list's hash for the next fetch.
    public struct List: Sendable {
        public var files: [TelegramMediaFile]
        public var hash: Int64
    }

    /// The list (`messages.getSavedGifs`); `nil` when `holding`'s hash says it is unchanged.
    public static func fetch(
        holding: List? = nil, network: any AccountNetworking
    ) async throws(SavedGifsError) -> List? {
        let answer = try await call(network, Api.functions.messages.getSavedGifs(hash: holding?.hash ?? 0))
        switch answer {
        case .savedGifsNotModified: return nil
        case .savedGifs(let list): return List(files: list.gifs.compactMap(TelegramMediaFile.init), hash: list.hash)
        }
    }

    /// Puts `file` at the front of the list, or (`remove`) takes it out (`messages.saveGif`).
    public static func save(
        _ file: TelegramMediaFile, remove: Bool = false, network: any AccountNetworking
    ) async throws(SavedGifsError) {
        guard let input = file.apiInputDocument else { throw .notAGif }
        _ = try await call(network, Api.functions.messages.saveGif(id: input, unsave: remove))
    }

    private static func call<T: TLFunction>(
        _ network: any AccountNetworking, _ function: T
    ) async throws(SavedGifsError) -> T.Result where T.Result: Sendable {
        do {
            return try await network.request(function)
        } catch NetworkError.rpc(_, "GIF_ID_INVALID") {
            throw .notAGif
        } catch NetworkError.rpc(_, let name) {
            throw .server(name)
        } catch {
            throw .network("\(error)")
        }
    }
}
