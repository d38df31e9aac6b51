public import AccountNetworking
import Foundation
import Network
public import Postbox
public import SecretChats
public import SwiftSignalKit
import Synchronization

/// Errors of the secret-chat calls an app makes.
public enum SecretChatManagerError: Error, Equatable, Sendable {
    case unknownChat(Int32)
    case notActive(Int32)
    case keyExchange(SecretChatError)
    case network(String)
    case storage(String)
    /// A message this chat does not hold (a reply to it, or deleting it).
    case unknownMessage(Int32)
}

/// The account's secret chats (Telegram-iOS `TelegramCore/Sources/SecretChats/`): starting and accepting them
/// (`messages.getDhConfig` with the group's checks cached, `requestEncryption`, `acceptEncryption`), applying
/// `updateEncryption` and `updateNewEncryptedMessage` inside the update batch's Postbox transaction (the session
/// and the message it produced change together), sending through an outbox that survives restarts, and discarding.
/// The protocol itself is the `SecretChats` module's `SecretChatSession`.
///
/// Its entry points live in extensions by concern: `+Handshake` (`request`, `accept`, `discard`), `+Sending` (`send`,
/// `flush`, `flushAll`), `+Files` (`sendFile`, `sendMedia`, `receivedFile`, `download`), `+Receiving` (`apply`, inside
/// the update batch), `+Notices` (`deleteMessages`, `clearHistory`, `notifyScreenshot`, `sendTyping`) and
/// `+SelfDestruct` (`setMessageTTL`, `markRead`, `scheduleTimers`, `stop`) and `+Gaps` (`scheduleGapCheck`).
public final class SecretChatManager: @unchecked Sendable {
    public let accountPeerId: PeerId
    let postbox: Postbox
    let network: any AccountNetworking
    /// Chats being flushed, each with whether another pass was asked for meanwhile and who waits for it.
    let flushing = Mutex<[Int32: FlushState]>([:])

    /// A running flush of one chat: a flush asked for meanwhile sets `again` and waits for the pass that covers it.
    struct FlushState {
        var again = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    /// Tests drop chosen transmissions on the way out (the n-th sealed message of a chat, counted from 0): the
    /// message leaves the outbox as if sent and the relay never sees it — the other side finds the gap.
    let dropTransmission = Mutex<(@Sendable (Int32, Int) -> Bool)?>(nil)
    let transmitted = Mutex<[Int32: Int]>([:])
    let resent = Mutex(0)
    let drops = Mutex<[SecretChatDrop]>([])
    /// The flushes started in the background, and whether the account has shut down (`+Background`).
    let background = Mutex(SecretChatBackgroundFlushes())
    /// Updates for chats not stored yet, by chat (`+UnknownChats`).
    let unknownChats = Mutex<[Int32: [UnknownChatUpdate]]>([:])
    /// The chat of each record stored, once its transaction commits (`recordUpdates`).
    private let storedRecords = ValuePipe<Int32>()

    /// The last 100 received messages that were not shown, and why (tests and diagnostics; never shown to a user).
    public var recentDrops: [SecretChatDrop] { drops.withLock { $0 } }

    /// Messages sealed again for the other side's resend requests, since this manager started.
    public var resentCount: Int { resent.withLock { $0 } }
    /// Re-keying policy (tests shorten it).
    public let rekeyPolicy: SecretChatRekeyPolicy
    /// What the clock says now (tests pass virtual time).
    let clock: @Sendable () -> Int32
    /// How the timers wait (`AccountScheduling.sleep`: the simulation's virtual time, or `Task.sleep`).
    let sleep: @Sendable (Double) async throws -> Void
    /// The executor its Swift tasks prefer (`AccountScheduling.taskExecutor`; nil: Swift's default).
    let taskExecutor: (any TaskExecutor)?
    /// Until when (seconds since 1970) each chat's other side counts as typing.
    let typingUntil = Mutex<[Int32: Double]>([:])
    /// The qts waiting to be acknowledged, the last acknowledged, and whether an acknowledgement is in flight.
    let acknowledged = Mutex<(pending: Int32, sent: Int32, running: Bool)>((0, 0, false))
    /// The task sleeping until the next self-destruct deadline.
    let timerTask = Mutex<Task<Void, Never>?>(nil)
    /// The task sleeping until the next gap is given up (`+Gaps`).
    let gapTask = Mutex<Task<Void, Never>?>(nil)

    init(
        accountPeerId: PeerId, postbox: Postbox, network: any AccountNetworking,
        rekeyPolicy: SecretChatRekeyPolicy = .standard,
        clock: @escaping @Sendable () -> Int32 = { Int32(Date().timeIntervalSince1970) },
        sleep: @escaping @Sendable (Double) async throws -> Void = AccountScheduling.live.sleep,
        taskExecutor: (any TaskExecutor)? = nil
    ) {
        self.sleep = sleep
        self.taskExecutor = taskExecutor
        self.accountPeerId = accountPeerId
        self.postbox = postbox
        self.network = network
        self.rekeyPolicy = rekeyPolicy
        self.clock = clock
    }

    /// Sets (or with nil clears) the test filter that drops chosen transmissions.
    public func dropTransmissions(_ filter: (@Sendable (_ chatId: Int32, _ index: Int) -> Bool)?) {
        dropTransmission.withLock { $0 = filter }
    }

    // MARK: Reading

    /// A chat's record as stored.
    public func record(chatId: Int32) throws(SecretChatManagerError) -> SecretChatRecord? {
        try read { tx in try SecretChatStorage.record(chatId, tx: tx) }
    }

    /// The id of each chat whose record changed — its phase, outbox, timers — sent once the transaction that stored
    /// it has committed (so `record(chatId:)` then reads the change); nothing is replayed. What a caller waiting for a
    /// chat to be accepted or its outbox to empty re-reads the record on.
    public var recordUpdates: Signal<Int32, NoError> { storedRecords.signal() }

    /// Every chat this account holds.
    public func records() throws(SecretChatManagerError) -> [SecretChatRecord] {
        try read { tx in try SecretChatStorage.chatIds(tx: tx).compactMap { try SecretChatStorage.record($0, tx: tx) } }
    }

    /// The key visualization both users compare (picture, hex, emoji).
    public func visualization(chatId: Int32) throws(SecretChatManagerError) -> SecretChatKeyVisualization? {
        try record(chatId: chatId)?.session?.visualization
    }

    // MARK: Helpers

    /// Stores `record` in `tx` and announces its chat on `recordUpdates` once `tx` commits.
    func storeRecord(_ record: SecretChatRecord, tx: Transaction) throws {
        try SecretChatStorage.store(record, tx: tx)
        let chatId = record.chatId
        tx.afterCommit { [storedRecords] in storedRecords.putNext(chatId) }
    }

    func read<T>(_ body: (Transaction) throws -> T) throws(SecretChatManagerError) -> T {
        do { return try postbox.transactionSync(body) } catch let error as SecretChatManagerError { throw error } catch
        {
            throw .storage("\(error)")
        }
    }

    func write<T>(_ body: (Transaction) throws -> T) throws(SecretChatManagerError) -> T {
        try read(body)
    }
}
