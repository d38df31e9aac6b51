import AccountNetworking
import CryptoUtils
import Foundation
import MTProtoCore
import Network
import Postbox
import PushNotifications
import SecretFiles
import SyncCore
import SyncCoreApi
import TelegramApi
public import UpdateSequencing

/// The accounts of one app installation (Telegram-iOS `AccountManager`), laid out as Telegram lays them out:
///
/// ```
/// <root>/accounts-metadata/records.json        the account records and the current account (0600)
/// <root>/accounts-metadata/keys/account-<id>.key  each account's Postbox key (0600, 48 raw bytes)
/// <root>/account-<id>/postbox/                 the account's encrypted Postbox (and its MediaBox under media/),
///                                              its network keys in the Postbox keychain
/// ```
///
/// Accounts are added (as unauthorized, until sign-in finishes), switched between, and logged out (the server is told,
/// the folder and key are removed). Several accounts can be open in one process; each has its own Postbox, network and
/// managers, so nothing one does touches another.
public final class AccountManager: @unchecked Sendable {
    /// Why the account manager could not do what it was asked.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case storage(path: String, reason: String)
        case unknownAccount(AccountRecordId)
        case notAuthorized(AccountRecordId)

        public var description: String {
            switch self {
            case let .storage(path, reason): return "\(path): \(reason) — check the folder's permissions and free space"
            case .unknownAccount(let id):
                return "no account \(id) in this folder — list the accounts to see which exist"
            case .notAuthorized(let id): return "account \(id) has not finished signing in — sign in first"
            }
        }
    }

    private struct Metadata: Codable {
        var records: [AccountRecord] = []
        var currentId: AccountRecordId?
        /// Data every account shares (Telegram-iOS's `AccountManager` shared data: app settings, themes, …).
        var shared: [String: [UInt8]]?
    }

    /// An account's open storage and network, shared by its unauthorized and authorized forms.
    private struct OpenContext {
        let postbox: Postbox
        let network: any AccountNetworking
    }

    public let rootPath: String
    public let environment: NetworkEnvironment
    public let stateConfiguration: UpdateSequencer.Configuration
    /// The device's clock every account opened here dates its own things by (`Account.clock`).
    public let clock: @Sendable () -> Double
    /// The wall clock, seconds since 1970: the default `clock`.
    public static let deviceClock: @Sendable () -> Double = { Date().timeIntervalSince1970 }
    /// The queues and sleep every account opened here runs its managers on (`AccountScheduling.live` but in a
    /// simulation).
    public let scheduling: AccountScheduling
    private let lock = NSLock()
    private var metadata: Metadata
    private var open: [AccountRecordId: OpenContext] = [:]
    private var accounts: [AccountRecordId: Account] = [:]

    private var metadataPath: String { rootPath + "/accounts-metadata" }
    private var recordsPath: String { metadataPath + "/records.json" }

    /// The manager of the accounts under `rootPath` (created if missing).
    public init(
        rootPath: String, environment: NetworkEnvironment, stateConfiguration: UpdateSequencer.Configuration = .init(),
        clock: @escaping @Sendable () -> Double = AccountManager.deviceClock, scheduling: AccountScheduling = .live
    ) throws(Failure) {
        registerTelegramCoreTypes()
        self.clock = clock
        self.scheduling = scheduling
        self.rootPath = rootPath
        self.environment = environment
        self.stateConfiguration = stateConfiguration
        do {
            try FileManager.default.createDirectory(atPath: rootPath, withIntermediateDirectories: true)
            try SecretFile.createDirectory(rootPath + "/accounts-metadata")
            try SecretFile.createDirectory(rootPath + "/accounts-metadata/keys")
        } catch {
            throw .storage(path: rootPath, reason: "\(error)")
        }
        if FileManager.default.fileExists(atPath: rootPath + "/accounts-metadata/records.json") {
            do {
                let bytes = try SecretFile.read(rootPath + "/accounts-metadata/records.json", maximumSize: 1 << 20)
                metadata = try JSONDecoder().decode(Metadata.self, from: Data(bytes))
            } catch {
                throw .storage(
                    path: rootPath + "/accounts-metadata/records.json", reason: "unreadable account records (\(error))")
            }
        } else {
            metadata = Metadata()
        }
    }

    /// The current account stored under `rootPath`, read without opening anything (a client picks the network of
    /// that account before it makes its manager); `nil` when there is none or the records cannot be read.
    public static func storedCurrentAccountId(rootPath: String) -> AccountRecordId? {
        guard let bytes = try? SecretFile.read(rootPath + "/accounts-metadata/records.json", maximumSize: 1 << 20),
            let metadata = try? JSONDecoder().decode(Metadata.self, from: Data(bytes))
        else { return nil }
        return metadata.currentId
    }

    /// Every account, oldest first.
    public var records: [AccountRecord] { lock.withLock { metadata.records } }
    /// The account the app shows.
    public var currentAccountId: AccountRecordId? { lock.withLock { metadata.currentId } }

    /// A value every account shares (app-wide settings), by key.
    public func sharedData(_ key: String) -> [UInt8]? { lock.withLock { metadata.shared?[key] } }

    /// Sets (or with `nil` removes) a shared value; written at once.
    public func setSharedData(_ key: String, _ value: [UInt8]?) throws(Failure) {
        try updateMetadata { metadata in
            var shared = metadata.shared ?? [:]
            shared[key] = value
            metadata.shared = shared.isEmpty ? nil : shared
        }
    }

    /// The folder of an account.
    public func accountPath(_ id: AccountRecordId) -> String { rootPath + "/account-\(id.rawValue)" }
    private func keyFile(_ id: AccountRecordId) -> PostboxKeyFile {
        PostboxKeyFile(path: metadataPath + "/keys/account-\(id.rawValue).key")
    }

    /// Adds an account that starts signing in, and makes it current.
    public func addUnauthorizedAccount() throws(Failure) -> UnauthorizedAccount {
        let id: AccountRecordId = lock.withLock {
            var candidate: Int64
            repeat {
                candidate = Int64.random(in: 1...Int64(Int32.max))
            } while metadata.records.contains { $0.id.rawValue == candidate }
            return AccountRecordId(rawValue: candidate)
        }
        do {
            try keyFile(id).create(try PostboxEncryptionParameters(keyAndSalt: SecureRandom.bytes(48)))
        } catch {
            throw .storage(path: keyFile(id).path, reason: "\(error)")
        }
        try updateMetadata {
            $0.records.append(AccountRecord(id: id, kind: .unauthorized, created: Int32(Date().timeIntervalSince1970)))
            $0.currentId = id
        }
        let account = try unauthorizedAccount(id)
        do { try account.setState(.phoneEntry) } catch { throw .storage(path: account.basePath, reason: "\(error)") }
        return account
    }

    /// Reopens an account that is still signing in (after a restart, its step is where it was).
    public func unauthorizedAccount(_ id: AccountRecordId) throws(Failure) -> UnauthorizedAccount {
        guard let record = records.first(where: { $0.id == id }) else { throw .unknownAccount(id) }
        guard record.kind == .unauthorized else { throw .unknownAccount(id) }
        let context = try openContext(id)
        return UnauthorizedAccount(
            id: id, basePath: accountPath(id), postbox: context.postbox, network: context.network,
            environment: environment)
    }

    /// Sign-in for an unauthorized account.
    public func authorization(_ account: UnauthorizedAccount) -> Authorization {
        Authorization(account: account, manager: self)
    }

    /// Opens (or returns the open) signed-in account `id`.
    public func account(_ id: AccountRecordId) throws(Failure) -> Account {
        if let open = lock.withLock({ accounts[id] }) { return open }
        guard let record = records.first(where: { $0.id == id }) else { throw .unknownAccount(id) }
        guard case .authorized(let userId) = record.kind else { throw .notAuthorized(id) }
        let context = try openContext(id)
        let account = Account(
            id: id, peerId: .user(userId), basePath: accountPath(id), postbox: context.postbox,
            network: context.network,
            stateConfiguration: stateConfiguration, clock: clock, scheduling: scheduling)
        return lock.withLock {
            if let raced = accounts[id] { return raced }
            accounts[id] = account
            return account
        }
    }

    /// Makes `id` the account the app shows.
    public func switchTo(_ id: AccountRecordId) throws(Failure) {
        guard records.contains(where: { $0.id == id }) else { throw .unknownAccount(id) }
        try updateMetadata { $0.currentId = id }
    }

    /// Logs `account` out: tells the server (`account.unregisterDevice`, then `auth.logOut`; a server that cannot be
    /// reached does not keep the account here), stops it, and removes its folder, keys and record. Other accounts are
    /// not touched.
    public func logOut(_ account: Account) async throws(Failure) {
        _ = try? await account.network.request(
            Api.functions.account.unregisterDevice(tokenType: Self.pushTokenType, token: pushToken(), otherUids: []),
            timeout: 10)
        _ = try? await account.network.request(Api.functions.auth.logOut(), timeout: 10)
        await account.shutdown()
        try remove(account.id)
    }

    /// Removes an account that has not signed in (the user gave up).
    public func remove(_ account: UnauthorizedAccount) async throws(Failure) {
        await account.network.close()
        try remove(account.id)
    }

    private func remove(_ id: AccountRecordId) throws(Failure) {
        lock.withLock {
            open[id] = nil
            accounts[id] = nil
        }
        try updateMetadata {
            $0.records.removeAll { $0.id == id }
            if $0.currentId == id { $0.currentId = $0.records.last?.id }
        }
        do {
            try notificationKeys.remove(accountId: id.rawValue)
            if FileManager.default.fileExists(atPath: accountPath(id)) {
                try FileManager.default.removeItem(atPath: accountPath(id))
            }
            if FileManager.default.fileExists(atPath: keyFile(id).path) {
                try FileManager.default.removeItem(atPath: keyFile(id).path)
            }
        } catch {
            throw .storage(path: accountPath(id), reason: "\(error)")
        }
    }

    /// Sign-in finished: the user is stored, the Postbox state becomes the authorized one (no update state yet: the
    /// state manager asks `updates.getState`), the record becomes authorized and current, and the account's new
    /// notification key is kept and registered for pushes (`registerForNotifications`).
    func finishSignIn(_ account: UnauthorizedAccount, user: Api.User) async throws -> AuthorizationResult {
        let result = try finishSignInRecords(account, user: user)
        let key = NotificationKey.generate()
        try notificationKeys.save(key, accountId: account.id.rawValue)
        _ = await registerForNotifications(network: account.network, key: key)
        return result
    }

    private func finishSignInRecords(_ account: UnauthorizedAccount, user: Api.User) throws -> AuthorizationResult {
        let stored = TelegramUser(user)
        try account.postbox.transactionSync { tx in
            try tx.updatePeers([stored])
            try tx.setState(AuthorizedAccountState(peerId: stored.id, state: nil))
        }
        try updateMetadata { metadata in
            if let index = metadata.records.firstIndex(where: { $0.id == account.id }) {
                metadata.records[index].kind = .authorized(userId: stored.id.id.rawValue)
            }
            metadata.currentId = account.id
        }
        return .loggedIn(userId: stored.id.id.rawValue)
    }

    private func openContext(_ id: AccountRecordId) throws(Failure) -> OpenContext {
        if let context = lock.withLock({ open[id] }) { return context }
        let postbox: Postbox
        do {
            postbox = try Postbox.open(
                accountPath: accountPath(id), keyFile: keyFile(id), globalMessageIds: Namespaces.globalMessageIds,
                writerQueue: scheduling.makeWriterQueue?("Postbox"))
        } catch {
            throw .storage(path: accountPath(id), reason: "\(error)")
        }
        let context = OpenContext(
            postbox: postbox, network: environment.makeNetwork(store: PostboxNetworkKeyStore(postbox: postbox)))
        return lock.withLock {
            if let raced = open[id] { return raced }
            open[id] = context
            return context
        }
    }

    private func updateMetadata(_ change: (inout Metadata) -> Void) throws(Failure) {
        let data: Data
        do {
            data = try lock.withLock {
                change(&metadata)
                return try JSONEncoder().encode(metadata)
            }
            try SecretFile.write(Array(data), to: recordsPath)
        } catch {
            throw .storage(path: recordsPath, reason: "\(error)")
        }
    }
}
