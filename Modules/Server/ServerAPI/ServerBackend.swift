import CryptoUtils
public import Foundation
import Logging
import MTProtoServer
import ServerStore
import Synchronization

/// The state behind every service: the database, where pushes go, the DCs, the clock, how login codes are
/// delivered, and what a run holds in memory — each concern a type of its own with its own lock and bounds
/// (`SignedInKeys`, `PasswordRounds`, `PendingPasswords`, `ExportedAuthorizations`, `PreparedStickerSet`).
/// Services are extensions of this class, one file per namespace. `BackendBootstrap` builds it.
public final class ServerBackend: Sendable {
    /// How login codes reach people on this machine.
    public struct LoginCodes: Sendable {
        /// Where each code is also written, as `<folder>/<phone>` (owner-only); `nil` writes none.
        public var folder: URL?
        /// The code every non-test number gets, for scripts; `nil` draws a random one.
        public var fixedCode: String?
        /// How long a code stays valid.
        public var lifetime: Double

        public init(folder: URL? = nil, fixedCode: String? = nil, lifetime: Double = 300) {
            self.folder = folder
            self.fixedCode = fixedCode
            self.lifetime = lifetime
        }
    }

    let store: ServerStore
    /// Uploaded and generated files, by content.
    let files: FileVault
    let updates: UpdateGateway
    let dataCenters: [MTProtoServer.DataCenter]
    let codes: LoginCodes
    /// Sending budgets and test floods.
    let flood: FloodControl
    let logger: Logger
    let clock: @Sendable () -> Double
    /// Where pushes for registered devices are written (tg-server `--push-dir`); `nil` writes none.
    let pushFiles: PushFiles?
    /// The key of file references (`FileReferences`), kept in the database so references outlive a restart.
    let fileReferenceKey: [UInt8]
    /// The key of channels' access hashes, one per channel and viewer (`channelAccessHash`), kept in the database.
    let channelHashKey: [UInt8]
    /// auth_key_id → signed-in account (a miss is looked up in the store).
    let signedInKeys = SignedInKeys()
    /// The last `account.getPassword` round and offered new-password algorithm of each account.
    let passwordRounds: PasswordRounds
    /// Keys between `SESSION_PASSWORD_NEEDED` and `auth.checkPassword`.
    let pendingPasswords: PendingPasswords
    /// Tokens from `auth.exportAuthorization`, until they are imported or expire.
    let exportedAuthorizations: ExportedAuthorizations
    /// The server's sticker set, once `prepareStickerSet` stored it.
    let preparedStickerSet = PreparedStickerSet()
    /// A channel member further behind than this many channel updates gets `channelDifferenceTooLong`
    /// (`BackendBootstrap.Configuration.channelDifferenceGap`).
    let channelDifferenceTooLongGap: Int64
    /// Who is online now (`ServerBackend+Presence`).
    let presences = Presences()
    /// Sends scheduled messages when they are due (`startSendingScheduledMessages`).
    let scheduledTicker = ScheduledTicker()
    /// Link previews: what is fetched, fetching and known (`ServerBackend+WebPages`).
    let webPages: WebPagePreviews
    /// The messages waiting for each page being fetched.
    let webPageWaiters = WebPageWaiters([:])

    /// A backend over `store` and `files` for `dataCenters`, pushing through `updates` (`BackendBootstrap.start`).
    init(
        store: ServerStore, files: FileVault, updates: UpdateGateway, dataCenters: [MTProtoServer.DataCenter],
        codes: LoginCodes = LoginCodes(),
        flood: FloodControl = FloodControl(),
        logger: Logger = Logger(label: "tg-server", factory: { _ in SwiftLogNoOpLogHandler() }),
        clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }, pushDirectory: URL? = nil,
        channelDifferenceGap: Int64 = ServerBackend.defaultChannelDifferenceGap,
        webPageRules: WebPageRules = WebPageRules(), webPageFetch: WebPagePreviews.Fetch? = nil
    ) {
        channelDifferenceTooLongGap = max(1, channelDifferenceGap)
        self.pushFiles = pushDirectory.map { PushFiles(directory: $0) }
        self.store = store
        self.files = files
        self.updates = updates
        self.dataCenters = dataCenters
        self.codes = codes
        self.flood = flood
        self.logger = logger
        self.clock = clock
        passwordRounds = PasswordRounds(clock: clock)
        pendingPasswords = PendingPasswords(clock: clock)
        exportedAuthorizations = ExportedAuthorizations(clock: clock)
        webPages = WebPagePreviews(rules: webPageRules, fetch: webPageFetch, clock: clock)
        // Read (or made) once, before any call: it must not be written from inside another transaction.
        fileReferenceKey =
            (try? store.write { tx in try tx.secret(named: "file-reference") { SecureRandom.bytes(32) } })
            ?? SecureRandom.bytes(32)
        channelHashKey =
            (try? store.write { tx in try tx.secret(named: "channel-access-hash") { SecureRandom.bytes(32) } })
            ?? SecureRandom.bytes(32)
        // An account whose last session went away goes offline (off the connection's event loop: it writes).
        updates.whenKeyLosesItsSessions { [weak self] authKeyId in
            guard let backend = self else { return }
            DispatchQueue.global().async { try? backend.keyLostItsSessions(authKeyId) }
        }
        // A fetch ends on a task; storing its page and pushing `updateWebPage` writes, so it runs off the pool.
        webPages.whenReady { [weak self] page, id in
            guard let backend = self else { return }
            DispatchQueue.global().async { backend.webPageFetched(page, id: id) }
        }
        // A preview's picture becomes a photo like an uploaded one (called on a dispatch queue).
        webPages.makingPhotos { [weak self] picture, dc in self?.makeWebPagePhoto(picture, dc: dc) }
    }

    /// The current time as TL's `date`.
    var now: Int32 { Int32(clamping: Int64(clock())) }

    /// The account `authKeyId` is signed in to, if any.
    func account(authKeyId: Int64) throws -> SignedInKeys.Account? {
        if let account = signedInKeys.account(authKeyId: authKeyId) { return account }
        let found = try store.read { tx throws -> SignedInKeys.Account? in
            guard let record = try tx.authorization(authKeyId: authKeyId), let user = try tx.user(id: record.userId)
            else { return nil }
            return SignedInKeys.Account(userId: user.id, homeDc: user.dc)
        }
        if let found { signedInKeys.remember(found, authKeyId: authKeyId) }
        return found
    }
}
