import Foundation
public import Postbox
public import SyncCore
public import TelegramCore

/// What `tg gifs` does over TelegramCore's `SavedGifs`: list the account's saved GIFs, save one from a message, remove
/// one, and pick one to send by its place in the list (counted from 1, latest saved first).
public enum GifCommands {
    /// One saved GIF as `tg gifs` prints it.
    public struct Summary: Codable, Equatable, Sendable {
        public var number: Int
        public var id: Int64
        public var width: Int32?
        public var height: Int32?
        public var duration: Double?
        public var size: Int64?

        /// `1  gif 240×240 0:02  (document 1234)`.
        public var line: String {
            let dimensions = width.flatMap { w in height.map { " \(w)×\($0)" } } ?? ""
            let seconds = duration.map { Int($0.rounded()) }
            let length = seconds.map { String(format: " %d:%02d", $0 / 60, $0 % 60) } ?? ""
            return "\(number)  gif\(dimensions)\(length)  (document \(id))"
        }

        init(number: Int, file: TelegramMediaFile) {
            self.number = number
            self.id = file.fileId.id
            self.size = file.size
            for attribute in file.attributes {
                if case .video(let seconds, let size, _, _, _) = attribute {
                    width = size.width
                    height = size.height
                    duration = seconds
                }
            }
        }
    }

    /// The saved GIFs, latest first.
    public static func list(_ account: Account) async throws(ClientError) -> [TelegramMediaFile] {
        do {
            return try await SavedGifs.fetch(network: account.network)?.files ?? []
        } catch {
            throw clientError(error, "listing the saved GIFs")
        }
    }

    /// The list as printed.
    public static func summaries(_ files: [TelegramMediaFile]) -> [Summary] {
        files.enumerated().map { Summary(number: $0.offset + 1, file: $0.element) }
    }

    /// The GIF of message `id` in `peerId` (stored, or loaded with the chat's newest messages): `.badInput` when the
    /// message has no GIF.
    public static func gif(
        in peerId: PeerId, message id: Int32, account: Account, timeout: Double
    ) async throws(ClientError) -> TelegramMediaFile {
        let message = try await HistoryLoading.find(account, peerId: peerId, id: id, timeout: timeout)
        for media in message.media {
            if let file = media as? TelegramMediaFile, file.isAnimated { return file }
        }
        throw .badInput("message \(id) has no GIF — send one with 'tg send PEER --video FILE --gif'")
    }

    /// Saves `file` at the front of the list, or (`remove`) takes it out.
    public static func save(_ file: TelegramMediaFile, remove: Bool, account: Account) async throws(ClientError) {
        do {
            try await SavedGifs.save(file, remove: remove, network: account.network)
        } catch {
            throw clientError(error, remove ? "removing the GIF" : "saving the GIF")
        }
    }

    /// The `number`th saved GIF (from 1).
    public static func saved(_ number: Int, account: Account) async throws(ClientError) -> TelegramMediaFile {
        let files = try await list(account)
        guard number >= 1, number <= files.count else {
            throw .badInput("there are \(files.count) saved GIFs, not \(number) — see 'tg gifs'")
        }
        return files[number - 1]
    }

    static func clientError(_ error: SavedGifsError, _ what: String) -> ClientError {
        switch error {
        case .notAGif: return .badInput("\(what): the server has no such GIF (GIF_ID_INVALID)")
        case .server(let name): return .refused("\(what): \(name)")
        case .network(let reason): return .unreachable("\(what): \(reason) — check that the server is running")
        }
    }
}
