public import AccountNetworking
import Foundation
import Network
import Postbox
import SyncCore
import SyncCoreApi
import TLRuntime
import TelegramApi

/// Sends the stored reads and deletes (`PendingMessageAction`) one at a time, in the order they were made, while the
/// account runs (Telegram-iOS `managedSynchronizePeerReadStates`, `managedCloudChatRemoveMessagesOperations`). Each
/// call's `affectedMessages` pts goes into the update sequence as the update it stands for. A confirmed or refused
/// action leaves the queue; one the network could not deliver stays, and is tried again after `retryDelay` and
/// after a restart.
public final class MessageActionQueue: @unchecked Sendable {
    private let accountPeerId: PeerId
    private let postbox: Postbox
    private let network: any AccountNetworking
    private let stateManager: AccountStateManager
    private let retryDelay: Double
    /// How the retry delay is waited (`AccountScheduling.sleep`).
    private let sleep: @Sendable (Double) async throws -> Void
    /// The executor its Swift tasks prefer (`AccountScheduling.taskExecutor`; nil: Swift's default).
    private let taskExecutor: (any TaskExecutor)?
    private let lock = NSLock()
    private var loop: Task<Void, Never>?
    private var wakeups: AsyncStream<Void>.Continuation?
    /// Actions a caller awaits, and the outcomes of those already settled (kept until asked for, the newest 256).
    private var awaited: [Int64: CheckedContinuation<Result<Void, MessageActionError>, Never>] = [:]
    private var settled: [Int64: Result<Void, MessageActionError>] = [:]

    init(
        accountPeerId: PeerId, postbox: Postbox, network: any AccountNetworking, stateManager: AccountStateManager,
        retryDelay: Double = 2, sleep: @escaping @Sendable (Double) async throws -> Void = AccountScheduling.live.sleep,
        taskExecutor: (any TaskExecutor)? = nil
    ) {
        self.sleep = sleep
        self.taskExecutor = taskExecutor
        self.accountPeerId = accountPeerId
        self.postbox = postbox
        self.network = network
        self.stateManager = stateManager
        self.retryDelay = retryDelay
    }

    /// Whether the queue is sending (between `start` and `stop`).
    public var isRunning: Bool { lock.withLock { loop != nil } }

    /// Actions stored and not yet confirmed or refused, oldest first.
    public func pending() throws -> [PendingMessageAction] {
        try postbox.readTransactionSync { tx in
            (try tx.getPreferencesEntry(key: PendingMessageActionsEntry.key) as? PendingMessageActionsEntry)?.actions
                .map(\.action) ?? []
        }
    }

    func start() {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        lock.withLock {
            guard loop == nil else { return }
            wakeups = continuation
            loop = Task(executorPreference: taskExecutor) { await self.run(stream) }
        }
        continuation.yield()
    }

    func stop() async {
        let running = lock.withLock { () -> Task<Void, Never>? in
            defer { loop = nil; wakeups?.finish(); wakeups = nil }
            return loop
        }
        running?.cancel()
        await running?.value
        let waiting = lock.withLock { () -> [CheckedContinuation<Result<Void, MessageActionError>, Never>] in
            defer { awaited = [:]; settled = [:] }
            return Array(awaited.values)
        }
        for continuation in waiting { continuation.resume(returning: .failure(.network(.connectionClosed))) }
    }

    /// Wakes the loop for action `id`, which its caller just stored and will await (its outcome is kept even when it
    /// settles first).
    func expect(_ id: Int64) {
        wake()
    }

    func wake() { _ = lock.withLock { wakeups?.yield() } }

    /// The outcome of awaited action `id`: when it settles, or a connection failure at once when the queue is stopped
    /// (the action stays stored and is sent after the next start).
    func outcome(_ id: Int64) async -> Result<Void, MessageActionError> {
        await withCheckedContinuation { continuation in
            let ready = lock.withLock { () -> Result<Void, MessageActionError>? in
                if let result = settled.removeValue(forKey: id) { return result }
                guard loop != nil else { return .failure(.network(.connectionClosed)) }
                awaited[id] = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Outcomes kept for callers that have not asked yet, at most this many (the newest).
    static let keptOutcomes = 256

    private func settle(_ id: Int64, _ result: Result<Void, MessageActionError>) {
        let continuation = lock.withLock { () -> CheckedContinuation<Result<Void, MessageActionError>, Never>? in
            if let waiting = awaited.removeValue(forKey: id) { return waiting }
            // Kept for a caller that has not asked yet: the loop can take a stored action and settle it before its
            // caller, which stored it a moment earlier, gets to `outcome` (the simulation found that caller waiting
            // forever when only announced ids were kept). Bounded: the oldest outcome goes first.
            settled[id] = result
            if settled.count > Self.keptOutcomes, let oldest = settled.keys.min() { settled[oldest] = nil }
            return nil
        }
        continuation?.resume(returning: result)
    }

    private func run(_ wakeups: AsyncStream<Void>) async {
        var iterator = wakeups.makeAsyncIterator()
        while !Task.isCancelled {
            guard
                let next = try? postbox.readTransactionSync({ tx in
                    try PendingMessageActionsEntry.first(transaction: tx)
                })
            else {
                // Nothing stored: sleep until an action is added (or the queue stops).
                guard await iterator.next() != nil else { return }
                continue
            }
            let result = await perform(next.action)
            if Task.isCancelled { return }
            switch result {
            case .success, .failure(.refused), .failure(.unknownPeer), .failure(.notSent):
                // Done, or never possible: it leaves the queue either way.
                _ = try? postbox.transactionSync { tx in try PendingMessageActionsEntry.remove(next.id, transaction: tx)
                }
                settle(next.id, result)
            case .failure(let error):
                settle(next.id, .failure(error))
                try? await sleep(retryDelay)
            }
        }
    }

    /// One action's call, and its pts handed to the state manager.
    private func perform(_ action: PendingMessageAction) async -> Result<Void, MessageActionError> {
        do {
            // The update a call's `affectedMessages` stands for carries no date of the server's: 0 leaves the state's
            // date as the server last gave it (Telegram-iOS hands on only the pts, `addUpdateGroups([.updatePts])`).
            // The device's clock here once moved the state's date wherever that clock was, and `getDifference` then
            // asked from a date the server had not reached.
            let date: Int32 = 0
            switch action {
            case .readHistory(let peerId, let maxId) where peerId.namespace == Namespaces.Peer.cloudChannel:
                // A channel's read mark is not in the common pts (core.telegram.org/method/channels.readHistory).
                _ = try await call(Api.functions.channels.readHistory(channel: try inputChannel(peerId), maxId: maxId))
            case .readHistory(let peerId, let maxId):
                let peer = try inputPeer(peerId)
                let affected = try await call(Api.functions.messages.readHistory(peer: peer, maxId: maxId))
                guard case .affectedMessages(let moved) = affected, let apiPeer = peerId.apiPeer else {
                    return .success(())
                }
                stateManager.addUpdates(
                    .updateShort(
                        .init(
                            update: .updateReadHistoryInbox(
                                .init(
                                    peer: apiPeer, maxId: maxId, stillUnreadCount: 0, pts: moved.pts,
                                    ptsCount: moved.ptsCount)),
                            date: date)))
            case .deleteMessages(let ids, let forEveryone):
                let affected = try await call(Api.functions.messages.deleteMessages(revoke: forEveryone, id: ids))
                guard case .affectedMessages(let moved) = affected else { return .success(()) }
                stateManager.addUpdates(
                    .updateShort(
                        .init(
                            update: .updateDeleteMessages(
                                .init(messages: ids, pts: moved.pts, ptsCount: moved.ptsCount)), date: date)))
            case .deleteChannelMessages(let channelId, let ids):
                let channel = try inputChannel(.channel(channelId))
                let affected = try await call(Api.functions.channels.deleteMessages(channel: channel, id: ids))
                // The channel's own pts moves (Telegram-iOS `deleteMessagesInteractively`: the answer's pts goes into
                // that channel's sequence as `updateDeleteChannelMessages`).
                guard case .affectedMessages(let moved) = affected, moved.ptsCount > 0 else { return .success(()) }
                stateManager.addUpdates(
                    .updateShort(
                        .init(
                            update: .updateDeleteChannelMessages(
                                .init(channelId: channelId, messages: ids, pts: moved.pts, ptsCount: moved.ptsCount)),
                            date: date)))
            case .readMessageContents(let ids):
                let affected = try await call(Api.functions.messages.readMessageContents(id: ids))
                // Nothing changed on the server (already listened to): no pts to hand on.
                guard case .affectedMessages(let moved) = affected, moved.ptsCount > 0 else { return .success(()) }
                stateManager.addUpdates(
                    .updateShort(
                        .init(
                            update: .updateReadMessagesContents(
                                .init(messages: ids, pts: moved.pts, ptsCount: moved.ptsCount)), date: date)))
            }
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    private func inputPeer(_ peerId: PeerId) throws(MessageActionError) -> Api.InputPeer {
        try MessageCalls.inputPeer(peerId, accountPeerId: accountPeerId, postbox: postbox)
    }

    /// The stored channel `peerId` as the server names it (its access hash).
    private func inputChannel(_ peerId: PeerId) throws(MessageActionError) -> Api.InputChannel {
        guard case .inputPeerChannel(let channel) = try inputPeer(peerId) else { throw .unknownPeer(peerId) }
        return .inputChannel(.init(channelId: channel.channelId, accessHash: channel.accessHash))
    }

    private func call<F: TLFunction>(_ function: F) async throws(MessageActionError) -> F.Result
    where F.Result: Sendable {
        try await MessageCalls.call(function, network: network)
    }
}

/// What reading, editing and deleting share: naming the chat to the server, and the call with its errors typed.
enum MessageCalls {
    static func inputPeer(
        _ peerId: PeerId, accountPeerId: PeerId, postbox: Postbox
    ) throws(MessageActionError) -> Api.InputPeer {
        let found: Api.InputPeer?
        do {
            found = try postbox.readTransactionSync { tx in
                try apiInputPeer(peerId, accountPeerId: accountPeerId, transaction: tx)
            }
        } catch {
            throw .storage("\(error)")
        }
        guard let found else { throw .unknownPeer(peerId) }
        return found
    }

    static func call<F: TLFunction>(
        _ function: F, network: any AccountNetworking
    ) async throws(MessageActionError) -> F.Result
    where F.Result: Sendable {
        do {
            return try await network.request(function)
        } catch let NetworkError.rpc(_, text) {
            throw .refused(text)
        } catch let error as NetworkError {
            throw .network(error)
        } catch {
            throw .network(.connectionClosed)
        }
    }
}
