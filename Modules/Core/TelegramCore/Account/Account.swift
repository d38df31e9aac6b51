public import AccountNetworking
import Foundation
import MediaBox
public import Network
public import Postbox
public import SwiftSignalKit
public import SyncCore
import Synchronization
import TLRuntime
import TelegramApi
public import UpdateSequencing

/// A signed-in account (Telegram-iOS `Account`): its folder, its Postbox, its network and the managers that keep the
/// Postbox in step with the server — the update state manager, and the history and chat-list hole fetchers.
public final class Account: @unchecked Sendable {
    public let id: AccountRecordId
    public let peerId: PeerId
    /// `<root>/account-<id>`.
    public let basePath: String
    public let postbox: Postbox
    public let network: any AccountNetworking
    public let stateManager: AccountStateManager
    public let holes: HistoryHoleFetcher
    public let chatList: ChatListFetcher
    public let pendingMessages: PendingMessageManager
    /// Reads and deletes made here and not yet confirmed by the server, sent in order.
    public let actions: MessageActionQueue
    /// Secret chats: key exchange, the end-to-end session of each chat, its outbox.
    public let secretChats: SecretChatManager
    /// Who is typing where, from the update stream (in memory only).
    public let activities: PeerActivities
    /// The device's clock (seconds since 1970): the dates this account gives what it makes before the server has
    /// dated it (a message waiting to be sent, a draft, a secret chat's timers). Tests and the simulation skew it.
    public let clock: @Sendable () -> Double
    private let updatesDisposable = MetaDisposable()
    /// The contact list's sync at start, cancelled by `shutdown`.
    private let contactSync = Mutex<Task<Void, Never>?>(nil)
    /// The executor the contact sync and the account's downloads (`MediaFetcher(account:)`) prefer
    /// (`AccountScheduling.taskExecutor`).
    let taskExecutor: (any TaskExecutor)?
    private let activitiesDisposable = MetaDisposable()

    init(
        id: AccountRecordId, peerId: PeerId, basePath: String, postbox: Postbox, network: any AccountNetworking,
        stateConfiguration: UpdateSequencer.Configuration,
        clock: @escaping @Sendable () -> Double = AccountManager.deviceClock, scheduling: AccountScheduling = .live
    ) {
        self.id = id
        self.clock = clock
        let taskExecutor = scheduling.taskExecutor
        self.taskExecutor = taskExecutor
        activities = PeerActivities(clock: clock)
        self.peerId = peerId
        self.basePath = basePath
        self.postbox = postbox
        self.network = network
        let holes = HistoryHoleFetcher(
            accountPeerId: peerId, postbox: postbox, network: network, taskExecutor: taskExecutor)
        let chatList = ChatListFetcher(
            accountPeerId: peerId, postbox: postbox, network: network, taskExecutor: taskExecutor)
        self.holes = holes
        self.chatList = chatList
        let secretChats = SecretChatManager(
            accountPeerId: peerId, postbox: postbox, network: network,
            rekeyPolicy: stateConfiguration.secretChatRekeyPolicy, clock: { Int32(clamping: Int64(clock())) },
            sleep: scheduling.sleep, taskExecutor: taskExecutor)
        self.secretChats = secretChats
        stateManager = AccountStateManager(
            accountPeerId: peerId, postbox: postbox,
            environment: .network(
                network, differenceTotalLimit: stateConfiguration.differenceTotalLimit,
                didResetChats: { chatList.reload() }, taskExecutor: taskExecutor ?? network.callExecutor),
            queue: scheduling.makeQueue("AccountStateManager"), configuration: stateConfiguration,
            secretChats: { update, tx in
                if let chatId = try secretChats.apply(update, transaction: tx) {
                    // Runs once this transaction has committed (the read waits for it).
                    secretChats.flushInBackground(chatId: chatId)
                }
            })
        pendingMessages = PendingMessageManager(
            accountPeerId: peerId, postbox: postbox, network: network, stateManager: stateManager,
            queue: scheduling.makeQueue("PendingMessageManager"), taskExecutor: taskExecutor)
        actions = MessageActionQueue(
            accountPeerId: peerId, postbox: postbox, network: network, stateManager: stateManager,
            sleep: scheduling.sleep, taskExecutor: taskExecutor)
    }

    /// Starts following the server: the state manager catches up and listens.
    public func start() {
        network.reopen()
        let activities = self.activities
        activitiesDisposable.set(stateManager.appliedBatches.start(next: { activities.note($0.typing) }))
        stateManager.start()
        secretChats.resumeFlushing()
        secretChats.flushInBackground()
        secretChats.scheduleTimers()
        secretChats.scheduleGapCheck()
        pendingMessages.start()
        actions.start()
        // The contact list once per start, in the background (Telegram-iOS `managedSynchronizeContacts` at the
        // account's start): `contactsNotModified` when the stored list is current, so it costs one small call.
        contactSync.withLock { task in
            task?.cancel()
            task = Task(executorPreference: taskExecutor) { [weak self] in _ = try? await self?.syncContacts() }
        }
    }

    /// Stores messages to send in `peerId` at once (unsent, with local ids) and lets the pending-message manager send
    /// them; returns the local ids.
    @discardableResult
    public func enqueue(_ messages: [EnqueueMessage], to peerId: PeerId) throws -> [MessageId] {
        try enqueueTracked(messages, to: peerId).map(\.localId)
    }

    /// A message just enqueued: its local id, and the `random_id` it is sent with, by which the server's copy is
    /// found once it replaced the local one.
    public struct EnqueuedMessage: Sendable, Equatable {
        public let localId: MessageId
        public let randomId: Int64
    }

    /// `enqueue`, returning each message's `random_id` read in the same transaction: the pending-message manager may
    /// send a message, and the server's copy replace the local id, before the caller's next read.
    public func enqueueTracked(_ messages: [EnqueueMessage], to peerId: PeerId) throws -> [EnqueuedMessage] {
        let accountPeerId = self.peerId
        let now = Int32(clamping: Int64(clock()))
        return try postbox.transactionSync { tx in
            let ids = try enqueueMessages(
                transaction: tx, accountPeerId: accountPeerId, peerId: peerId, messages: messages, now: now)
            return try ids.compactMap { id in
                try tx.getMessage(id)?.globallyUniqueId.map { EnqueuedMessage(localId: id, randomId: $0) }
            }
        }
    }

    /// Copies the file at `path` into the account's MediaBox as a local resource and describes it as a document to
    /// send (`EnqueueMessage.file`): its name, MIME type and size, and `attributes` (audio, image size, …).
    public func prepareFile(
        path: String, name: String, mimeType: String, attributes: [TelegramMediaFileAttribute] = []
    ) throws -> TelegramMediaFile {
        let size = ((try FileManager.default.attributesOfItem(atPath: path))[.size] as? NSNumber)?.int64Value ?? 0
        let localId = Int64.random(in: 1...Int64.max)
        let resource = TelegramMediaResource.localFile(fileId: localId, size: size)
        try FileManager.default.copyItem(atPath: path, toPath: postbox.mediaBox.completedPath(resource.id))
        return TelegramMediaFile(
            fileId: MediaId(namespace: Namespaces.Media.localFile, id: localId), resource: resource, mimeType: mimeType,
            size: size,
            attributes: [.fileName(name)] + attributes.filter { if case .fileName = $0 { false } else { true } })
    }

    /// Copies a prepared photo (a JPEG at most 1280 px on its longer side: MediaResources' `OutgoingPhoto` makes one
    /// from any picture) into MediaBox as a local resource and describes it as a photo to send (`EnqueueMessage.media`);
    /// it goes up as `inputMediaUploadedPhoto` and the server makes its sizes.
    public func prepareImage(path: String, dimensions: PixelDimensions) throws -> TelegramMediaImage {
        let size = ((try FileManager.default.attributesOfItem(atPath: path))[.size] as? NSNumber)?.int64Value ?? 0
        let localId = Int64.random(in: 1...Int64.max)
        let resource = TelegramMediaResource.localFile(fileId: localId, size: size)
        try FileManager.default.copyItem(atPath: path, toPath: postbox.mediaBox.completedPath(resource.id))
        return TelegramMediaImage(
            imageId: MediaId(namespace: Namespaces.Media.localImage, id: localId),
            representations: [
                TelegramMediaImageRepresentation(dimensions: dimensions, resource: resource, type: "y", byteSize: size)
            ])
    }

    /// Stops the managers and closes the connections.
    public func shutdown() async {
        let sync = contactSync.withLock { task in
            defer { task = nil }
            return task
        }
        sync?.cancel()
        await sync?.value
        activitiesDisposable.set(nil)
        secretChats.stop()
        await secretChats.stopFlushing()
        await pendingMessages.stop()
        await actions.stop()
        stateManager.stop()
        // What the state manager released before it stopped is stored before the account is gone.
        await stateManager.handledSoFar()
        await network.close()
    }

    /// Whether the server ended this authorization (401 on the main DC).
    public var loggedOut: Signal<Bool, NoError> { network.loggedOut }

    /// A chat's history around `anchor` that fetches the holes it reaches (Telegram-iOS
    /// `Account.viewTracker.aroundMessageHistoryViewForLocation`): what is stored shows at once, the rest arrives; a
    /// chat never stored before starts as one hole.
    public func historyView(
        peerId: PeerId, anchor: HistoryViewInputAnchor = .upperBound, count: Int = 44, tag: MessageTags? = nil
    ) -> Signal<MessageHistoryView, NoError> {
        let holes = self.holes
        // A chat this account has never stored anything of is one hole (Telegram-iOS seeds a new peer's history as a
        // hole): what the server had before this account's state began — a fresh sign-in — comes when it is opened.
        @Sendable func neverStored(_ tx: Transaction) throws -> Bool {
            try tx.topMessageIndex(peerId: peerId) == nil
                && tx.getHoles(peerId: peerId, namespace: Namespaces.Message.cloud).isEmpty
        }
        // A read first: the write transaction is only taken for such a chat (checked again inside it).
        if (try? postbox.readTransactionSync(neverStored)) == true {
            _ = try? postbox.transactionSync { tx in
                if try neverStored(tx) { try HoleSpaces.addHole(tx, peerId: peerId, range: 1...(Int32.max - 1)) }
            }
        }
        return postbox.aroundMessageHistoryViewForLocation(peerId: peerId, anchor: anchor, count: count, tag: tag)
            |> afterNext { view in holes.viewChanged(view) }
    }

    /// The chat list's top `count` chats, fetching pages of `messages.getDialogs` while the view is not full and the
    /// server has more.
    public func chatListView(count: Int = 50) -> Signal<ChatListView, NoError> {
        let chatList = self.chatList
        return postbox.tailChatListView(count: count) |> afterNext { view in chatList.viewChanged(view) }
    }
}
