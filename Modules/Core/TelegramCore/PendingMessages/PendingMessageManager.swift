public import AccountNetworking
import Foundation
import MediaBox
import Network
public import Postbox
public import SwiftSignalKit
import SyncCore
import SyncCoreApi
import TelegramApi

/// Sends what Postbox's unsent table holds (Telegram-iOS `PendingMessageManager`): it watches the unsent view,
/// sends one message (or album) at a time per chat in the order they were enqueued — uploading local media first,
/// then `messages.sendMessage`, `sendMedia`, `sendMultiMedia` for an album or `forwardMessages` with each message's
/// `random_id` — and replaces each local message with the server's in one transaction — same stable id, so it keeps
/// its place in every view — then hands the answer's `Updates` to the state manager so pts moves on.
///
/// Flood waits and lost connections are retried by the network layer (`AccountNetwork`'s rules); a refusal marks
/// the message failed with a `SendFailureAttribute` (`resend` clears it). `RANDOM_ID_DUPLICATE` means an earlier
/// attempt reached the server (the answer was lost, say by a restart): the local copy goes and the difference brings
/// the server's. Unsent messages survive a restart, and are sent once.
public final class PendingMessageManager: @unchecked Sendable {
    private let accountPeerId: PeerId
    private let postbox: Postbox
    private let network: any AccountNetworking
    private let stateManager: AccountStateManager
    private let queue: Queue
    /// The executor its Swift tasks prefer (`AccountScheduling.taskExecutor`; nil: Swift's default).
    private let taskExecutor: (any TaskExecutor)?
    private let viewDisposable = MetaDisposable()
    private var sending: Set<MessageId> = []
    /// The unsent set as last seen: a chat whose send finishes goes on with its next message from here.
    private var unsent: Set<MessageId> = []
    private var peerBusy: Set<PeerId> = []
    /// The sends in flight, cancelled by `stop`.
    private var tasks: [MessageId: Task<Void, Never>] = [:]
    /// Between `stop` and `start` nothing is sent, retried or started.
    private var running = false
    private let counters = LockedValue((sent: 0, failed: 0, parts: 0))
    private let states = LockedValue<[MessageId: PendingMessageState]>([:])
    /// The message of each upload report (`uploadProgressUpdates`).
    private let progressReports = ValuePipe<MessageId>()

    init(
        accountPeerId: PeerId, postbox: Postbox, network: any AccountNetworking, stateManager: AccountStateManager,
        queue: Queue = Queue(name: "PendingMessageManager"), taskExecutor: (any TaskExecutor)? = nil
    ) {
        self.queue = queue
        self.taskExecutor = taskExecutor
        self.accountPeerId = accountPeerId
        self.postbox = postbox
        self.network = network
        self.stateManager = stateManager
    }

    deinit { viewDisposable.dispose() }

    /// Messages the server acknowledged, and messages that failed, since the start.
    public var sentCount: Int { counters.withLock { $0.sent } }
    public var failedCount: Int { counters.withLock { $0.failed } }
    /// File parts this manager uploaded since it started (a resumed upload sends only the parts the server lacks).
    public var uploadedPartCount: Int { counters.withLock { $0.parts } }

    /// The fraction of its file the server has acknowledged, for a message whose file is being uploaded.
    public func uploadProgress(_ id: MessageId) -> Double? {
        states.withLock { if case .uploading(let fraction)? = $0[id] { fraction } else { nil } }
    }

    /// The id of each message whose upload moved on, as `uploadProgress` changes for it (in memory, not in Postbox);
    /// nothing is replayed. What a caller showing the progress of a send re-reads `uploadProgress` on.
    public var uploadProgressUpdates: Signal<MessageId, NoError> { progressReports.signal() }

    /// Where the message is on its way to the server, while the manager works on it.
    public func state(_ id: MessageId) -> PendingMessageState? { states.withLock { $0[id] } }

    /// Starts watching the unsent messages.
    public func start() {
        queue.sync { running = true }
        viewDisposable.set(
            (postbox.unsentMessageIdsView() |> deliverOn(queue)).start(next: { [weak self] view in
                self?.unsentChanged(view.ids)
            }))
    }

    /// Stops sending: the sends in flight are cancelled (an upload keeps what the server acknowledged, a message
    /// stays unsent) and awaited, and nothing is retried until `start`.
    public func stop() async {
        viewDisposable.set(nil)
        var inFlight: [Task<Void, Never>] = []
        queue.sync {
            running = false
            inFlight = Array(tasks.values)
        }
        for task in inFlight { task.cancel() }
        for task in inFlight { await task.value }
    }

    /// Sends a failed message again.
    public func resend(_ id: MessageId) throws {
        try postbox.transactionSync { tx in
            try tx.updateMessage(id) { message in
                var stored = message.toStoreMessage()
                stored.flags.remove(.failed)
                stored.flags.insert(.unsent)
                stored.attributes.removeAll { $0 is SendFailureAttribute }
                return stored
            }
        }
    }

    // MARK: - On the queue

    private func unsentChanged(_ ids: Set<MessageId>) {
        unsent = ids
        guard running else { return }
        let waiting = ids.subtracting(sending).sorted { $0.id < $1.id }
        for id in waiting where !peerBusy.contains(id.peerId) {
            peerBusy.insert(id.peerId)
            sending.insert(id)
            tasks[id] = Task(executorPreference: taskExecutor) { await self.send(id) }
        }
    }

    /// A send ended: the chat goes on with its next message; a message left unsent by a connection failure is tried
    /// again after `retryAfter` seconds.
    private func finished(_ id: MessageId, retryAfter: Double? = nil) {
        queue.async {
            self.sending.remove(id)
            self.peerBusy.remove(id.peerId)
            self.tasks[id] = nil
            if let retryAfter {
                self.queue.after(retryAfter) { self.unsentChanged(self.unsent) }
            } else {
                self.unsentChanged(self.unsent.subtracting([id]))
            }
        }
    }

    /// One message, or the album it opens: what one request sends.
    private struct Batch {
        var messages: [Message]
        var peer: Api.InputPeer
        /// The chat a forward copies from, with the message it copies.
        var forward: (peer: Api.InputPeer, id: MessageId)?
    }

    private func readBatch(_ id: MessageId) -> Batch? {
        let accountPeerId = self.accountPeerId
        return try? postbox.readTransactionSync { tx -> Batch? in
            guard let group = try tx.getMessageGroup(id),
                let peer = try apiInputPeer(id.peerId, accountPeerId: accountPeerId, transaction: tx)
            else { return nil }
            let messages = group.filter {
                $0.flags.contains(.unsent) && !$0.flags.contains(.failed) && $0.globallyUniqueId != nil
            }
            guard messages.contains(where: { $0.id == id }) else { return nil }
            // A forward goes alone; its source is named by the chat it is in.
            if let message = messages.first(where: { $0.id == id }),
                let source = message.attributes.compactMap({ $0 as? PendingForwardAttribute }).first?.sourceMessageId
            {
                guard let fromPeer = try apiInputPeer(source.peerId, accountPeerId: accountPeerId, transaction: tx)
                else { return nil }
                return Batch(messages: [message], peer: peer, forward: (fromPeer, source))
            }
            return Batch(messages: messages, peer: peer)
        }
    }

    private func send(_ id: MessageId) async {
        var retryAfter: Double?
        defer { finished(id, retryAfter: retryAfter) }
        states.withLock { $0[id] = .collectingInfo }
        defer { _ = states.withLock { $0.removeValue(forKey: id) } }
        guard let batch = readBatch(id) else { return }
        let ids = batch.messages.map(\.id)
        states.withLock { states in
            for message in batch.messages {
                states[message.id] = OutgoingMediaInput.isLocal(message.media) ? .waitingForUpload : .sending
            }
        }
        var uploadPaths: [String] = []
        defer { states.withLock { for id in ids { $0.removeValue(forKey: id) } } }
        do {
            let (updates, uploaded) = try await request(batch, uploadPaths: &uploadPaths)
            try postbox.transactionSync { tx in
                try self.replace(batch.messages, uploaded: uploaded, with: updates, transaction: tx)
                // Before the commit: whoever sees the server's message no longer sees a state for the local one.
                self.states.withLock { for id in ids { $0.removeValue(forKey: id) } }
            }
            counters.withLock { $0.sent += batch.messages.count }
            stateManager.addUpdates(updates)
        } catch let error as NetworkError {
            if case .rpc(_, let text) = error, text.hasPrefix("FILE_PART_"), text.hasSuffix("_MISSING") {
                // The server no longer has a part (it forgot the upload): upload afresh on the next try.
                for path in uploadPaths { MultipartUpload.forget(path: path) }
                retryAfter = 0.5
                return
            }
            if case .rpc(_, "RANDOM_ID_DUPLICATE") = error {
                // An earlier attempt reached the server: the local copies go and the difference brings the server's.
                _ = try? postbox.transactionSync { tx in try tx.deleteMessages(ids) }
                stateManager.addUpdates(.updatesTooLong)
                return
            }
            if case .rpc(let code, let text) = error {
                markFailed(ids, SendFailureAttribute(reason: Self.reason(code: code, text: text), detail: text))
                return
            }
            // Anything else (a connection that could not be made, a timeout) stays unsent and is tried again.
            retryAfter = 2
        } catch let error as UploadError {
            switch error {
            case .network(.rpc(let code, let text)):
                markFailed(ids, SendFailureAttribute(reason: Self.reason(code: code, text: text), detail: text))
            case .network:
                retryAfter = 2
            case .unreadable, .unsupportedSize:
                markFailed(ids, SendFailureAttribute(reason: .other, detail: "\(error)"))
            }
        } catch is CancellationError {
            // Stopped: the message stays unsent for the next start.
        } catch {
            markFailed(ids, SendFailureAttribute(reason: .other, detail: "\(error)"))
        }
    }

    /// Uploads what is local and sends the batch with the one request that fits it (Telegram-iOS
    /// `sendMessageContent`, `sendGroupMessagesContent`, `forwardMessages`): the answer, and for each message the
    /// local resource that went up.
    private func request(
        _ batch: Batch, uploadPaths: inout [String]
    ) async throws -> (Api.Updates, [MessageId: TelegramMediaResource]) {
        let first = batch.messages[0]
        if let forward = batch.forward {
            guard forward.id.namespace == Namespaces.Message.cloud, let randomId = first.globallyUniqueId else {
                throw SendError.notSendable("a forward of a message the server does not have")
            }
            let options = first.attributes.compactMap { $0 as? ForwardOptionsMessageAttribute }.first
            let updates = try await network.request(
                Api.functions.messages.forwardMessages(
                    dropAuthor: options?.hideNames ?? false, dropMediaCaptions: options?.hideCaptions ?? false,
                    fromPeer: forward.peer, id: [forward.id.id], randomId: [randomId], toPeer: batch.peer))
            return (updates, [:])
        }
        var inputs: [(message: Message, input: OutgoingMediaInput?)] = []
        for message in batch.messages {
            let id = message.id
            // The first report is what an earlier attempt left acknowledged; every later one is a part sent now.
            let reportedOnce = LockedValue(false)
            let input = try await OutgoingMediaInput.make(
                for: message.media, network: network, mediaBox: postbox.mediaBox
            ) { fraction in
                self.states.withLock { $0[id] = .uploading(progress: fraction) }
                self.progressReports.putNext(id)
                if reportedOnce.withLock({ reported in
                    defer { reported = true }; return reported
                }) {
                    self.counters.withLock { $0.parts += 1 }
                }
            }
            if let path = input?.uploadPath { uploadPaths.append(path) }
            inputs.append((message, input))
        }
        var uploaded: [MessageId: TelegramMediaResource] = [:]
        for (message, input) in inputs { uploaded[message.id] = input?.uploadedResource }
        states.withLock { states in for message in batch.messages { states[message.id] = .sending } }
        let reply = first.attributes.compactMap { $0 as? ReplyMessageAttribute }.first
        let replyTo = reply.map { Api.InputReplyTo.inputReplyToMessage(.init(replyToMsgId: $0.messageId.id)) }

        if first.groupingKey != nil {
            // An album: each uploaded item is stored with `messages.uploadMedia` first, then all go in one request.
            var singles: [Api.InputSingleMedia] = []
            for (message, input) in inputs {
                guard let input, let randomId = message.globallyUniqueId else {
                    throw SendError.notSendable("an album item without media")
                }
                var media = input.media
                if input.uploadedResource != nil {
                    let stored = try await network.request(
                        Api.functions.messages.uploadMedia(peer: batch.peer, media: media))
                    guard let sendable = stored.sendableInputMedia else {
                        throw SendError.notSendable("uploadMedia answered \(stored)")
                    }
                    media = sendable
                }
                singles.append(
                    .inputSingleMedia(
                        .init(
                            media: media, randomId: randomId, message: message.text, entities: Self.apiEntities(message)
                        )))
            }
            let updates = try await network.request(
                Api.functions.messages.sendMultiMedia(peer: batch.peer, replyTo: replyTo, multiMedia: singles))
            return (updates, uploaded)
        }
        guard let randomId = first.globallyUniqueId else { throw SendError.notSendable("no random id") }
        if let input = inputs[0].input {
            let updates = try await network.request(
                Api.functions.messages.sendMedia(
                    peer: batch.peer, replyTo: replyTo, media: input.media, message: first.text, randomId: randomId,
                    entities: Self.apiEntities(first)))
            return (updates, uploaded)
        }
        // A text asks for the server's quick ack, as Telegram-iOS's `sendMessageContent` does.
        let postbox = self.postbox
        let updates = try await network.request(
            Api.functions.messages.sendMessage(
                noWebpage: first.attributes.contains {
                    ($0 as? OutgoingContentInfoMessageAttribute)?.disableLinkPreviews == true
                },
                peer: batch.peer, replyTo: replyTo, message: first.text, randomId: randomId,
                entities: Self.apiEntities(first)),
            onQuickAck: { Self.markAcknowledged(first.id, postbox: postbox) })
        return (updates, uploaded)
    }

    /// The server's quick ack for the request carrying local message `id` (Telegram-iOS `applyAcknowledgedMessage`):
    /// its `OutgoingMessageInfoAttribute` says the server has it, while it stays unsent until the answer replaces it.
    /// Runs on Postbox's queue, not the caller's (the connection's event loop); a message already replaced is left.
    static func markAcknowledged(_ id: MessageId, postbox: Postbox) {
        _ = postbox.transaction { tx throws in
            guard let message = try tx.getMessage(id), message.flags.contains(.unsent) else { return }
            try tx.updateMessage(id) { local in
                var stored = local.toStoreMessage()
                stored.attributes = stored.attributes.map { attribute in
                    guard var info = attribute as? OutgoingMessageInfoAttribute else { return attribute }
                    info.acknowledged = true
                    return info
                }
                return stored
            }
        }.start()
    }

    private static func apiEntities(_ message: Message) -> [Api.MessageEntity]? {
        let entities = message.attributes.compactMap { $0 as? TextEntitiesMessageAttribute }.first?.entities ?? []
        return entities.isEmpty ? nil : entities.compactMap { $0.apiEntity() }
    }

    /// A message the client cannot put into a request (its media or source is gone); it is marked failed.
    enum SendError: Error, CustomStringConvertible {
        case notSendable(String)
        var description: String {
            switch self {
            case .notSendable(let why): return "not sendable: \(why)"
            }
        }
    }

    private func markFailed(_ ids: [MessageId], _ failure: SendFailureAttribute) {
        counters.withLock { $0.failed += ids.count }
        _ = try? postbox.transactionSync { tx in
            for id in ids {
                try tx.updateMessage(id) { message in
                    var stored = message.toStoreMessage()
                    stored.flags.insert(.failed)
                    stored.attributes.removeAll { $0 is SendFailureAttribute }
                    stored.attributes.append(failure)
                    return stored
                }
            }
        }
    }

    /// Each local message becomes the server's: its id (`updateMessageID` by `random_id`), date, entities and media as
    /// the answer gives them, in place in every view; uploaded bytes become the server's resource in MediaBox.
    private func replace(
        _ messages: [Message], uploaded: [MessageId: TelegramMediaResource], with updates: Api.Updates,
        transaction tx: Transaction
    ) throws {
        var serverIds: [Int64: Int32] = [:]
        var serverMessages: [Int32: StoreMessage] = [:]
        var date: Int32?
        switch updates {
        case .updateShortSentMessage(let sent):
            if let randomId = messages.first?.globallyUniqueId { serverIds[randomId] = sent.id }
            date = sent.date
        case .updates(let container):
            for case .updateMessageID(let value) in container.updates { serverIds[value.randomId] = value.id }
            var outgoing: [Int32] = []
            // In a private chat or basic group the message comes as `updateNewMessage`; in a channel or supergroup as
            // `updateNewChannelMessage` — either way its date is the server's, and the local copy takes it (the
            // simulation found channel messages keeping the device's date, and so sorting before earlier posts
            // wherever the server's clock runs ahead of the device's).
            let newMessages = container.updates.compactMap { update -> Api.Message? in
                switch update {
                case .updateNewMessage(let new): return new.message
                case .updateNewChannelMessage(let new): return new.message
                default: return nil
                }
            }
            for apiMessage in newMessages {
                guard let candidate = StoreMessage(apiMessage: apiMessage, accountPeerId: accountPeerId),
                    case .id(let candidateId) = candidate.id
                else { continue }
                serverMessages[candidateId.id] = candidate
                if case .message(let message) = apiMessage, message.out { outgoing.append(message.id) }
            }
            // A server that sent no `updateMessageID`: the one new outgoing message of the answer is ours.
            if serverIds.isEmpty, messages.count == 1, outgoing.count == 1, let randomId = messages[0].globallyUniqueId
            {
                serverIds[randomId] = outgoing[0]
            }
        default:
            break
        }
        let mediaBox = postbox.mediaBox
        for message in messages {
            guard let randomId = message.globallyUniqueId, let serverId = serverIds[randomId] else { continue }
            let serverMessage = serverMessages[serverId]
            if let local = uploaded[message.id], let serverMessage,
                let cloud = OutgoingMediaInput.cloudResource(in: serverMessage.media, matching: message.media)
            {
                _ = rename(mediaBox.completedPath(local.id), mediaBox.completedPath(cloud.id))
            }
            try tx.updateMessage(message.id) { local in
                var stored = serverMessage ?? local.toStoreMessage()
                stored.id = .id(MessageId(peerId: message.id.peerId, namespace: Namespaces.Message.cloud, id: serverId))
                stored.globallyUniqueId = randomId
                stored.flags.remove(.unsent)
                stored.flags.remove(.failed)
                if let date { stored.timestamp = date }
                var attributes = stored.attributes.filter {
                    !($0 is OutgoingMessageInfoAttribute) && !($0 is SendFailureAttribute)
                        && !($0 is PendingForwardAttribute) && !($0 is ForwardOptionsMessageAttribute)
                        && !($0 is OutgoingContentInfoMessageAttribute)
                }
                attributes.append(OutgoingMessageInfoAttribute(uniqueId: randomId, acknowledged: true))
                stored.attributes = attributes
                return stored
            }
        }
    }

    static func reason(code: Int32, text: String) -> SendFailureReason {
        switch text {
        case "MESSAGE_EMPTY": return .messageEmpty
        case "MESSAGE_TOO_LONG": return .messageTooLong
        case "PEER_ID_INVALID", "USER_DEACTIVATED", "CHAT_WRITE_FORBIDDEN", "INPUT_USER_DEACTIVATED", "CHAT_ID_INVALID":
            return .peerUnavailable
        case "YOU_BLOCKED_USER", "USER_IS_BLOCKED": return .blocked
        default: return code == 420 ? .tooManyRequests : .other
        }
    }
}
