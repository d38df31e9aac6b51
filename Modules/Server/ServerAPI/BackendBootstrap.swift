import Foundation
import Logging
public import MTProtoServer
import SecretFiles
public import ServerStore

/// tg-server's backend, wired in one place: tg-server, the in-process test servers, the loopback, the fuzz harness
/// and the attack harness all build it here.
///
/// `init` opens what outlives a restart — the database, the file vault and the flood control — and each `start`
/// builds a run on them: a new update gateway, `ServerBackend` and `ServerAPIHandler`, with nothing held in memory
/// by an earlier run (signed-in keys, password rounds, exported authorizations). Starting again on one bootstrap is
/// a restart on the same storage; a new bootstrap on the same folder opens it anew, as a new process would.
public final class BackendBootstrap: Sendable {
    public let configuration: Configuration
    public let store: ServerStore
    /// Uploaded and generated files, beside the database.
    public let files: FileVault
    /// Shared by every run, so a restart does not refill the sending budgets.
    public let flood: FloodControl

    /// Opens (creating) the data folder: the folder owner-only, the database key file when one is named (a new key
    /// is logged), `server.sqlite`, and the file vault, forgetting uploads untouched for a day.
    public init(_ configuration: Configuration) throws(OpenFailure) {
        self.configuration = configuration
        let directory = configuration.directory
        do {
            try SecretFile.createDirectory(directory.path)
            let key = try configuration.databaseKeyFile.map { keyFile in
                let (loaded, created) = try DatabaseKeyFile.loadOrCreate(keyFile)
                if created { configuration.logger.notice("created a database key", metadata: ["file": "\(keyFile)"]) }
                return loaded
            }
            store = try ServerStore(path: directory.appendingPathComponent("server.sqlite").path, key: key)
        } catch {
            throw .database(error)
        }
        do {
            files = try FileVault(directory: directory)
        } catch {
            throw .files(error)
        }
        files.sweep()
        flood = FloodControl(configuration.flood)
    }

    /// What one run of the server holds: a restart drops it all and keeps the storage.
    public struct Running: Sendable {
        public let backend: ServerBackend
        public let handler: ServerAPIHandler
        /// Where the run's pushes leave (connections and loopback networks subscribe here).
        public let updates: UpdateGateway
    }

    /// A new run for `dataCenters`, pushing through `updates`. With `StickerSetPolicy.required`, throws when the
    /// sticker set cannot be stored; with `bestEffort`, logs it and serves without.
    public func start(
        dataCenters: [MTProtoServer.DataCenter] = BackendBootstrap.dataCenters(),
        updates: UpdateGateway = UpdateGateway()
    ) throws -> Running {
        let (running, failure) = run(dataCenters: dataCenters, updates: updates)
        if let failure { throw failure }
        return running
    }

    /// A new run, and the error that fails it under `StickerSetPolicy.required` (the run is built all the same, for
    /// a caller that cannot throw where it needs the handler).
    /// `webPageFetch` fetches link previews' pages (`nil`: none are fetched, whatever the rules allow).
    func run(
        dataCenters: [MTProtoServer.DataCenter], updates: UpdateGateway, webPageFetch: WebPagePreviews.Fetch? = nil
    ) -> (running: Running, failure: (any Error)?) {
        let backend = ServerBackend(
            store: store, files: files, updates: updates, dataCenters: dataCenters, codes: configuration.loginCodes,
            flood: flood, logger: configuration.logger, clock: configuration.clock,
            pushDirectory: configuration.pushDirectory, channelDifferenceGap: configuration.channelDifferenceGap,
            webPageRules: configuration.webPages, webPageFetch: webPageFetch)
        let running = Running(backend: backend, handler: ServerAPIHandler(backend: backend), updates: updates)
        // A scheduled message that came due while the server was down goes out now; the rest when they are due.
        backend.sendDueScheduledMessages()
        backend.startSendingScheduledMessages()
        switch configuration.stickerSet {
        case .notServed:
            return (running, nil)
        case .required:
            do {
                try backend.prepareStickerSet()
                return (running, nil)
            } catch {
                return (running, error)
            }
        case .bestEffort:
            do {
                try backend.prepareStickerSet()
            } catch {
                configuration.logger.error(
                    "the sticker set could not be stored; it is not served", metadata: ["error": "\(error)"])
            }
            return (running, nil)
        }
    }

    /// Data centers 1…`count` on `host` for a backend no socket reaches: DC n on `basePort + n − 1`, or every port 0
    /// when `basePort` is 0 (what `help.getConfig` then lists).
    public static func dataCenters(
        count: Int = 3, host: String = "127.0.0.1", basePort: Int = 0
    ) -> [MTProtoServer.DataCenter] {
        (1...max(1, count)).map { id in
            MTProtoServer.DataCenter(id: Int32(id), host: host, port: basePort == 0 ? 0 : basePort + id - 1)
        }
    }
}
