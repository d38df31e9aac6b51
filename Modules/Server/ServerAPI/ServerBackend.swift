public import Foundation
import CryptoUtils
import Logging
import MTProtoServer
import PasswordSRP
import ServerStore

/// The state behind every service: the database, where pushes go, the DCs, the clock, and how login codes are
/// delivered. Services are extensions of this class, one file per namespace. `BackendBootstrap` builds it.
///
/// `@unchecked Sendable`: the caches are read and written under `lock`; the store and gateway are thread-safe.
public final class ServerBackend: @unchecked Sendable {
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
    private let lock = NSLock()
    /// auth_key_id → signed-in account (a miss is looked up in the store).
    private var signedIn: [Int64: SignedIn] = [:]

    /// The account a key is signed in to, and that account's DC.
    struct SignedIn {
        let userId: Int64
        let homeDc: Int32
    }
    private var preparedStickerSet: StickerSet?
    /// The last `account.getPassword` round and offered new-password algorithm of each account (one each).
    private var passwordRounds: [Int64: (round: SRPServerRound?, offered: SRPAlgorithm, expires: Double)] = [:]
    /// Keys between `SESSION_PASSWORD_NEEDED` and `auth.checkPassword`.
    private var pendingPasswords: [Int64: PendingPassword] = [:]
    /// Tokens from `auth.exportAuthorization`, by id, until they are imported or expire.
    private var exported: [Int64: ExportedAuthorization] = [:]

    struct ExportedAuthorization {
        let userId: Int64
        let bytes: [UInt8]
        let dc: Int32
        let expires: Double
    }

    /// A backend over `store` and `files` for `dataCenters`, pushing through `updates` (`BackendBootstrap.start`).
    init(
        store: ServerStore, files: FileVault, updates: UpdateGateway, dataCenters: [MTProtoServer.DataCenter], codes: LoginCodes = LoginCodes(),
        flood: FloodControl = FloodControl(),
        logger: Logger = Logger(label: "tg-server", factory: { _ in SwiftLogNoOpLogHandler() }),
        clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }, pushDirectory: URL? = nil
    ) {
        self.pushFiles = pushDirectory.map { PushFiles(directory: $0) }
        self.store = store
        self.files = files
        self.updates = updates
        self.dataCenters = dataCenters
        self.codes = codes
        self.flood = flood
        self.logger = logger
        self.clock = clock
        // Read (or made) once, before any call: it must not be written from inside another transaction.
        fileReferenceKey = (try? store.write { tx in try tx.secret(named: "file-reference") { SecureRandom.bytes(32) } })
            ?? SecureRandom.bytes(32)
    }

    /// The current time as TL's `date`.
    var now: Int32 { Int32(clamping: Int64(clock())) }

    // MARK: - Signed-in keys

    /// The account `authKeyId` is signed in to, if any.
    func account(authKeyId: Int64) throws -> SignedIn? {
        lock.lock()
        if let account = signedIn[authKeyId] {
            lock.unlock()
            return account
        }
        lock.unlock()
        let found = try store.read { tx throws -> SignedIn? in
            guard let record = try tx.authorization(authKeyId: authKeyId), let user = try tx.user(id: record.userId) else { return nil }
            return SignedIn(userId: user.id, homeDc: user.dc)
        }
        if let found { remember(authKeyId: authKeyId, found) }
        return found
    }

    /// Caches (or, with `nil`, forgets) what `authKeyId` is signed in to.
    func remember(authKeyId: Int64, _ account: SignedIn?) {
        lock.lock()
        signedIn[authKeyId] = account
        lock.unlock()
    }

    /// Keeps the account's password round (replacing the last; at most 10,000 accounts' rounds, for 10 minutes).
    func rememberPasswordRound(userId: Int64, round: SRPServerRound?, offered: SRPAlgorithm) {
        lock.lock()
        defer { lock.unlock() }
        let time = clock()
        if passwordRounds.count >= 10_000 { passwordRounds = passwordRounds.filter { $0.value.expires > time } }
        guard passwordRounds.count < 10_000 || passwordRounds[userId] != nil else { return }
        passwordRounds[userId] = (round, offered, time + 600)
    }

    /// Takes (once) the account's current round.
    func takePasswordRound(userId: Int64) -> SRPServerRound? {
        lock.lock()
        defer { lock.unlock() }
        guard let entry = passwordRounds[userId], entry.expires > clock(), let round = entry.round else { return nil }
        passwordRounds[userId] = (nil, entry.offered, entry.expires)
        return round
    }

    /// The algorithm last offered to the account for a new password.
    func offeredAlgorithm(userId: Int64) -> SRPAlgorithm? {
        lock.lock()
        defer { lock.unlock() }
        guard let entry = passwordRounds[userId], entry.expires > clock() else { return nil }
        return entry.offered
    }

    /// The account a key is signing in to with a password, if it is between the two steps.
    func pendingPassword(authKeyId: Int64) -> Int64? {
        lock.lock()
        defer { lock.unlock() }
        guard let pending = pendingPasswords[authKeyId], pending.expires > clock() else { return nil }
        return pending.userId
    }

    /// Notes (or, with `nil`, forgets) that a key passed the code step of signing in to `userId` (for 10 minutes;
    /// at most 10,000 keys at once).
    func setPendingPassword(authKeyId: Int64, _ userId: Int64?) {
        lock.lock()
        defer { lock.unlock() }
        let time = clock()
        if pendingPasswords.count >= 10_000 { pendingPasswords = pendingPasswords.filter { $0.value.expires > time } }
        pendingPasswords[authKeyId] = userId.map { PendingPassword(userId: $0, expires: time + 600) }
    }

    /// The server's sticker set, once `prepareStickerSet` stored it.
    var stickerSet: StickerSet? {
        lock.lock()
        defer { lock.unlock() }
        return preparedStickerSet
    }

    func setStickerSet(_ set: StickerSet) {
        lock.lock()
        preparedStickerSet = set
        lock.unlock()
    }

    /// Keeps an exported authorization for a while (at most 10,000 at once, expired ones dropped first).
    func keepExported(id: Int64, _ authorization: ExportedAuthorization) {
        lock.lock()
        defer { lock.unlock() }
        let time = clock()
        exported = exported.filter { $0.value.expires > time }
        guard exported.count < 10_000 else { return }
        exported[id] = authorization
    }

    /// Takes (once) the exported authorization `id` if it has not expired — and, when `signedInTo` names the account
    /// the importing key is already signed in to, only if the token is that account's (another's stays unused).
    func takeExported(id: Int64, keySignedInTo signedInTo: Int64? = nil) -> ExportedAuthorization? {
        lock.lock()
        defer { lock.unlock() }
        guard let found = exported[id], found.expires > clock() else {
            exported[id] = nil
            return nil
        }
        if let signedInTo, found.userId != signedInTo { return nil }
        exported[id] = nil
        return found
    }
}
