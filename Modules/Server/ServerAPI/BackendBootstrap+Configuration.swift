public import Foundation
public import Logging

extension BackendBootstrap {
    /// What a server is built from. Only the data folder has no default: everything else is what `ServerBackend`
    /// assumes when nothing is said (random login codes written nowhere, the default sending budget, no sticker set,
    /// no pushes, the system clock, no logs).
    public struct Configuration: Sendable {
        /// The data folder: `server.sqlite` and the file vault (`files/`, `uploads/`) live in it. Created owner-only
        /// when missing.
        public var directory: URL
        /// The key file of an encrypted database (`DatabaseKeyFile`: created with a new random key when missing);
        /// `nil`: the database is not encrypted.
        public var databaseKeyFile: String?
        /// How login codes reach people on this machine.
        public var loginCodes: ServerBackend.LoginCodes
        /// Sending budgets and test floods; one `FloodControl` serves every run of the backend.
        public var flood: FloodControl.Configuration
        /// Whether the server's own sticker set is stored and served.
        public var stickerSet: StickerSetPolicy
        /// Where pushes for registered devices are written (tg-server `--push-dir`); `nil` writes none.
        public var pushDirectory: URL?
        /// A channel member further behind than this many channel updates gets `channelDifferenceTooLong` (the dialog
        /// and the newest messages) from `updates.getChannelDifference` instead of the updates (tg-server
        /// `--channel-difference-gap`). Telegram keeps such "channel gaps" small for user accounts and allows bots far
        /// more (`limit` up to 100,000); a server that should hand every post to a member away for long raises it.
        public var channelDifferenceGap: Int64
        /// The time the backend sees, in seconds since 1970.
        public var clock: @Sendable () -> Double
        /// Which pages link previews may be fetched from, and the bounds of each fetch (tg-server `--webpage-allow`);
        /// the default allows none. Only a server bound with `startServer` fetches (it has the event loops).
        public var webPages: WebPageRules
        /// Where the backend (and a network server's connections) log.
        public var logger: Logger

        public init(
            directory: URL, databaseKeyFile: String? = nil, loginCodes: ServerBackend.LoginCodes = .init(),
            flood: FloodControl.Configuration = .init(), stickerSet: StickerSetPolicy = .notServed,
            pushDirectory: URL? = nil, channelDifferenceGap: Int64 = ServerBackend.defaultChannelDifferenceGap,
            clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
            webPages: WebPageRules = WebPageRules(),
            logger: Logger = Logger(label: "tg-server", factory: { _ in SwiftLogNoOpLogHandler() })
        ) {
            self.directory = directory
            self.databaseKeyFile = databaseKeyFile
            self.loginCodes = loginCodes
            self.flood = flood
            self.stickerSet = stickerSet
            self.pushDirectory = pushDirectory
            self.channelDifferenceGap = channelDifferenceGap
            self.clock = clock
            self.webPages = webPages
            self.logger = logger
        }
    }

    /// Whether each run stores (once) and serves tg-server's own sticker set, "Telegraph".
    public enum StickerSetPolicy: Sendable, Equatable {
        /// No sticker set: `messages.getStickerSet` answers `STICKERSET_INVALID`.
        case notServed
        /// Served; a set that cannot be stored fails the start.
        case required
        /// Served when it can be stored; otherwise the error is logged and the server runs without it (tg-server).
        case bestEffort
    }

    /// Why the data folder could not be opened.
    public enum OpenFailure: Error, CustomStringConvertible {
        /// The folder, the database key file or the database.
        case database(any Error)
        /// The file vault's folders.
        case files(any Error)

        public var description: String {
            switch self {
            case .database(let error), .files(let error): return "\(error)"
            }
        }
    }
}
