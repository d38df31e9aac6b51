import Foundation
import MediaBox
import Network
public import Postbox
import SwiftSignalKit
import SyncCore
import SyncCoreApi
import TelegramApi

/// Sends what Postbox's unsent table holds (Telegram-iOS `PendingMessageManager`): it watches the unsent view,
/// sends each message once at a time per chat in the order they were enqueued (`messages.sendMessage` with the
/// message's `random_id`), and replaces the local message with the server's in one transaction — same stable id,
/// so it keeps its place in every view — then hands the answer's `Updates` to the state manager so pts moves on.
///
/// Flood waits and lost connections are retried by the network layer (`AccountNetwork`'s rules); a refusal marks
/// the message failed with a `SendFailureAttribute` (`resend` clears it). `RANDOM_ID_DUPLICATE` means an earlier
/// attempt reached the server (the answer was lost, say by a restart): the local copy goes and the difference brings
/// the server's. Unsent messages survive a restart, and are sent once.
public final class PendingMessageManager: @unchecked Sendable {
    private let accountPeerId: PeerId
    private let postbox: Postbox
    private let network: AccountNetwork
    private let stateManager: AccountStateManager
    private let queue = Queue(name: "PendingMessageManager")
    private let viewDisposable = MetaDisposable()
    private var sending: Set<MessageId> = []
    /// The unsent set as last seen: a chat whose send finishes goes on with its next message from here.
    private var unsent: Set<MessageId> = []
    private var peerBusy: Set<PeerId> = []
    private let counters = LockedValue((sent: 0, failed: 0))
    private let progress = LockedValue<[MessageId: Double]>([:])

    init(accountPeerId: PeerId, postbox: Postbox, network: AccountNetwork, stateManager: AccountStateManager) {
        self.accountPeerId = accountPeerId
        self.postbox = postbox
        self.network = network
        self.stateManager = stateManager
    }

    deinit { viewDisposable.dispose() }

    /// Messages the server acknowledged, and messages that failed, since the start.
    public var sentCount: Int { counters.withLock { $0.sent } }
    public var failedCount: Int { counters.withLock { $0.failed } }

    /// The fraction of its file the server has acknowledged, for a message whose file is being uploaded.
    public func uploadProgress(_ id: MessageId) -> Double? { progress.withLock { $0[id] } }

    /// Starts watching the unsent messages.
    public func start() {
        viewDisposable.set(
            (postbox.unsentMessageIdsView() |> deliverOn(queue)).start(next: { [weak self] view in
                self?.unsentChanged(view.ids)
            }))
    }

    public func stop() {
        viewDisposable.set(nil)
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
        let waiting = ids.subtracting(sending).sorted { $0.id < $1.id }
        for id in waiting where !peerBusy.contains(id.peerId) {
            peerBusy.insert(id.peerId)
            sending.insert(id)
            Task { await self.send(id) }
        }
    }

    /// A send ended: the chat goes on with its next message; a message left unsent by a connection failure is tried
    /// again after `retryAfter` seconds.
    private func finished(_ id: MessageId, retryAfter: Double? = nil) {
        queue.async {
            self.sending.remove(id)
            self.peerBusy.remove(id.peerId)
            if let retryAfter {
                self.queue.after(retryAfter) { self.unsentChanged(self.unsent) }
            } else {
                self.unsentChanged(self.unsent.subtracting([id]))
            }
        }
    }

    private func send(_ id: MessageId) async {
        var retryAfter: Double?
        defer { finished(id, retryAfter: retryAfter) }
        let accountPeerId = self.accountPeerId
        guard
            let (message, peer) = try? postbox.readTransactionSync({ tx -> (Message, Api.InputPeer)? in
                guard let message = try tx.getMessage(id), message.flags.contains(.unsent), !message.flags.contains(.failed),
                    let peer = try apiInputPeer(id.peerId, accountPeerId: accountPeerId, transaction: tx)
                else { return nil }
                return (message, peer)
            })
        else { return }
        guard let randomId = message.globallyUniqueId else { return }
        let entities = message.attributes.compactMap { $0 as? TextEntitiesMessageAttribute }.first?.entities ?? []
        let reply = message.attributes.compactMap { $0 as? ReplyMessageAttribute }.first
        let replyTo = reply.map { Api.InputReplyTo.inputReplyToMessage(.init(replyToMsgId: $0.messageId.id)) }
        let apiEntities = entities.isEmpty ? nil : entities.compactMap { $0.apiEntity() }
        let localFile = message.media.compactMap { $0 as? TelegramMediaFile }.first { if case .localFile = $0.resource { true } else { false } }
        do {
            let updates: Api.Updates
            if let localFile {
                // Waiting for upload → uploading → sending (Telegram-iOS's states for a message with media).
                let path = postbox.mediaBox.completedPath(localFile.resource.id)
                let input = try await MultipartUpload.upload(network: network, path: path, name: localFile.fileName ?? "file") { fraction in
                    self.progress.withLock { $0[id] = fraction }
                }
                defer { _ = progress.withLock { $0.removeValue(forKey: id) } }
                do {
                    updates = try await network.request(
                        Api.functions.messages.sendMedia(
                            peer: peer, replyTo: replyTo,
                            media: .inputMediaUploadedDocument(
                                .init(
                                    forceFile: !localFile.isVoice && !localFile.isVideo && !localFile.isAnimated, file: input,
                                    mimeType: localFile.mimeType, attributes: localFile.attributes.compactMap(\.apiDocumentAttribute))),
                            message: message.text, randomId: randomId, entities: apiEntities))
                } catch NetworkError.rpc(_, let text) where text.hasPrefix("FILE_PART_") && text.hasSuffix("_MISSING") {
                    // The server no longer has a part (it forgot the upload): upload afresh on the next try.
                    MultipartUpload.forget(path: path)
                    throw NetworkError.connectionClosed
                }
            } else {
                updates = try await network.request(
                    Api.functions.messages.sendMessage(
                        peer: peer, replyTo: replyTo, message: message.text, randomId: randomId, entities: apiEntities))
            }
            try postbox.transactionSync { tx in
                try self.replace(id, randomId: randomId, with: updates, localFile: localFile, transaction: tx)
            }
            counters.withLock { $0.sent += 1 }
            stateManager.addUpdates(updates)
        } catch let error as NetworkError {
            if case .rpc(_, "RANDOM_ID_DUPLICATE") = error {
                _ = try? postbox.transactionSync { tx in try tx.deleteMessages([id]) }
                stateManager.addUpdates(.updatesTooLong)
                return
            }
            if case .rpc(let code, let text) = error {
                markFailed(id, SendFailureAttribute(reason: Self.reason(code: code, text: text), detail: text))
            }
            // Anything else (a connection that could not be made, a timeout) stays unsent and is tried again.
            retryAfter = 2
        } catch let error as UploadError {
            switch error {
            case .network(.rpc(let code, let text)):
                markFailed(id, SendFailureAttribute(reason: Self.reason(code: code, text: text), detail: text))
            case .network:
                retryAfter = 2
            case .unreadable, .unsupportedSize:
                markFailed(id, SendFailureAttribute(reason: .other, detail: "\(error)"))
            }
        } catch {
            markFailed(id, SendFailureAttribute(reason: .other, detail: "\(error)"))
        }
    }

    private func markFailed(_ id: MessageId, _ failure: SendFailureAttribute) {
        counters.withLock { $0.failed += 1 }
        _ = try? postbox.transactionSync { tx in
            try tx.updateMessage(id) { message in
                var stored = message.toStoreMessage()
                stored.flags.insert(.failed)
                stored.attributes.removeAll { $0 is SendFailureAttribute }
                stored.attributes.append(failure)
                return stored
            }
        }
    }

    /// The local message becomes the server's: its id, date and entities as the answer gives them.
    private func replace(
        _ id: MessageId, randomId: Int64, with updates: Api.Updates, localFile: TelegramMediaFile?, transaction tx: Transaction
    ) throws {
        var serverMessage: StoreMessage?
        var serverId: Int32?
        var date: Int32?
        switch updates {
        case .updateShortSentMessage(let sent):
            serverId = sent.id
            date = sent.date
        case .updates(let container):
            for update in container.updates {
                switch update {
                case .updateMessageID(let value) where value.randomId == randomId: serverId = value.id
                default: break
                }
            }
            // A server that sent no `updateMessageID`: the one new outgoing message of the answer is ours.
            let outgoing = container.updates.compactMap { update -> Int32? in
                guard case .updateNewMessage(let new) = update, case .message(let message) = new.message, message.out else { return nil }
                return message.id
            }
            if serverId == nil, outgoing.count == 1 { serverId = outgoing[0] }
            for case .updateNewMessage(let new) in container.updates {
                if let candidate = StoreMessage(apiMessage: new.message, accountPeerId: accountPeerId),
                    case .id(let candidateId) = candidate.id, candidateId.id == serverId
                {
                    serverMessage = candidate
                }
            }
        default:
            break
        }
        guard let serverId else { return }
        // The uploaded bytes become the server's document in MediaBox: nothing to download again.
        if let localFile, let cloud = serverMessage?.media.compactMap({ $0 as? TelegramMediaFile }).first {
            let mediaBox = postbox.mediaBox
            _ = rename(mediaBox.completedPath(localFile.resource.id), mediaBox.completedPath(cloud.resource.id))
        }
        try tx.updateMessage(id) { local in
            var stored = serverMessage ?? local.toStoreMessage()
            stored.id = .id(MessageId(peerId: id.peerId, namespace: Namespaces.Message.cloud, id: serverId))
            stored.globallyUniqueId = randomId
            stored.flags.remove(.unsent)
            stored.flags.remove(.failed)
            if let date { stored.timestamp = date }
            var attributes = stored.attributes.filter { !($0 is OutgoingMessageInfoAttribute) && !($0 is SendFailureAttribute) }
            attributes.append(OutgoingMessageInfoAttribute(uniqueId: randomId, acknowledged: true))
            stored.attributes = attributes
            return stored
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
