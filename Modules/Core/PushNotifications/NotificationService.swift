import Dispatch
import Glibc
import MTProtoCore
import Postbox
import SyncCore

/// One push, from the file APNs would deliver to the stored message and its preview line (Telegram-iOS
/// `NotificationService`): find the account by the key id the payload starts with, decrypt and check msg_key, parse
/// Telegram's fields, then store the message in that account's Postbox with a small page cache.
///
/// Everything that can be wrong with the input is found by `open(_:)` before any account is opened, so bad input
/// leaves every file as it was.
public struct NotificationService: Sendable {
    /// A push that passed every check, ready to store.
    public struct Opened: Sendable, Equatable {
        public let accountId: Int64
        public let push: PushNotification
    }

    /// What `store` did.
    public struct Stored: Sendable, Equatable {
        public let accountId: Int64
        public let outcome: NotificationMessageWriter.Outcome
        /// The line to show.
        public let preview: String
        /// Whether to show `preview`: not for a background push, nor for a chat the account muted
        /// (`PeerNotificationSettingsEntry`; Telegram-iOS's `NotificationService` reads the chat's
        /// `TelegramPeerNotificationSettings` the same way and shows nothing for a muted chat).
        public var shown = true
        /// The monotonic clock (DispatchTime's, ns) just before the write transaction began; 0 when nothing was
        /// written. Another process's views cannot see the message before it.
        public var writeStarted: UInt64 = 0
        /// The monotonic clock just after the write transaction committed (and told other processes); 0 when nothing
        /// was written.
        public var committed: UInt64 = 0
    }

    public let layout: AccountsLayout
    /// SQLCipher's page cache for the one transaction this process makes (KiB).
    public let cacheSizeKiB: Int

    /// The service over the installation at `rootPath`; `cacheSizeKiB` bounds SQLCipher's page cache (the app's
    /// default is 16 MiB; one insert touches a few dozen pages).
    public init(rootPath: String, cacheSizeKiB: Int = 512) {
        layout = AccountsLayout(rootPath: rootPath)
        self.cacheSizeKiB = cacheSizeKiB
    }

    /// The largest push file accepted (APNs carries at most 4 KB).
    public static let maximumFileSize = 64 * 1024

    /// Checks a push file and decrypts it; touches nothing on disk.
    public func open(_ file: [UInt8]) throws(NotificationServiceError) -> Opened {
        guard file.count <= Self.maximumFileSize else {
            throw .init(
                .malformed, "the push file has \(file.count) bytes; APNs carries at most 4 KB — give one push file")
        }
        let encrypted: [UInt8]
        do {
            encrypted = try PushEnvelope.encryptedPayload(of: file)
        } catch {
            throw .init(.malformed, "\(error) — give the file exactly as delivered")
        }
        guard let keyId = PushPayloadCrypto.keyId(of: encrypted), encrypted.count >= 40 else {
            throw .init(
                .malformed, "the encrypted payload is truncated (\(encrypted.count) bytes) — give the whole file")
        }
        let entry: NotificationKeyStore.Entry?
        do {
            entry = try NotificationKeyStore(layout: layout).entry(keyId: keyId)
        } catch {
            throw .init(.storage, "cannot read the notification key: \(error)")
        }
        guard let entry else {
            throw .init(
                .unknownKey,
                "no account in \(layout.rootPath) has notification key \(NotificationKey.hex(keyId)) — the account logged out, or the push is for another installation"
            )
        }
        let json: [UInt8]
        do {
            json = try PushPayloadCrypto.decrypt(encrypted, key: entry.key)
        } catch {
            switch error {
            case .truncated: throw .init(.malformed, "\(error) — give the whole file")
            default: throw .init(.tampered, "\(error); nothing stored")
            }
        }
        do {
            return Opened(accountId: entry.accountId, push: try PushNotification(json: json))
        } catch {
            throw .init(.unsupported, "\(error); nothing stored")
        }
    }

    /// Stores an opened push's message in its account's Postbox (one transaction) and returns the preview. A push
    /// without text (media, service kinds) stores nothing: the app fetches it.
    public func store(_ opened: Opened) throws(NotificationServiceError) -> Stored {
        try store(opened, now: Int32(truncatingIfNeeded: time(nil)))
    }

    /// `store(_:)` with the time a push without a date is stored at.
    public func store(_ opened: Opened, now: Int32) throws(NotificationServiceError) -> Stored {
        let push = opened.push
        let accountPath = layout.accountPath(opened.accountId)
        guard access(accountPath + "/postbox/db/db_sqlite", F_OK) == 0 else {
            throw .init(
                .unknownKey,
                "account \(opened.accountId) has no Postbox at \(accountPath) — it logged out; nothing stored")
        }
        guard let text = push.text else {
            var stored = Stored(
                accountId: opened.accountId, outcome: .notStored(NotificationMessageWriter.messageId(of: push)),
                preview: push.isBackground ? "" : push.preview)
            stored.shown = !push.isBackground
            return stored
        }
        registerSyncCoreTypes()
        do {
            let postbox = try Postbox.open(
                accountPath: accountPath, keyFile: PostboxKeyFile(path: layout.postboxKeyPath(opened.accountId)),
                cacheSizeKiB: cacheSizeKiB, globalMessageIds: Namespaces.globalMessageIds)
            let writeStarted = DispatchTime.now().uptimeNanoseconds
            let (outcome, muted) = try postbox.transactionSync { tx in
                (
                    try NotificationMessageWriter.store(push, text: text, now: now, transaction: tx),
                    try PeerNotificationSettingsEntry.settings(push.chatId, transaction: tx).isMuted(at: now)
                )
            }
            let committed = DispatchTime.now().uptimeNanoseconds
            var stored = Stored(
                accountId: opened.accountId, outcome: outcome, preview: push.preview, writeStarted: writeStarted,
                committed: committed)
            stored.shown = !muted
            return stored
        } catch {
            throw .init(.storage, "cannot store the message in \(accountPath): \(error)")
        }
    }
}
