public import AccountNetworking
import Foundation
import Network
public import Postbox
import SwiftSignalKit
import SyncCore
import SyncCoreApi
import TelegramApi

/// Fills the holes history views reach (Telegram-iOS `fetchMessageHistoryHole` driven by `AccountViewTracker`):
/// a view whose oldest shown cloud message has a hole below it asks for the page under it with
/// `messages.getHistory`, one with a hole above its newest asks for the page over it; the page and the hole's new
/// edges are written in one transaction, so the view refreshes once. A hole is fetched once however many views reach
/// it at the same time.
public final class HistoryHoleFetcher: @unchecked Sendable {
    /// One fetch: the hole, its space, and which end of it the page is taken from.
    public struct Request: Hashable, Sendable {
        public let peerId: PeerId
        public let hole: ClosedRange<Int32>
        /// `true` fills from the hole's top down (a view scrolled up to it), `false` from its bottom up.
        public let fromTop: Bool
        /// The shared-media tag of a tagged view (its own hole space, filled with `messages.search`), or `nil`.
        public let tag: MessageTags?

        public init(peerId: PeerId, hole: ClosedRange<Int32>, fromTop: Bool, tag: MessageTags? = nil) {
            self.peerId = peerId
            self.hole = hole
            self.fromTop = fromTop
            self.tag = tag
        }
    }

    /// Messages per `getHistory` page (Telegram-iOS asks for 100 around a hole's edge).
    public let pageSize: Int32
    private let accountPeerId: PeerId
    private let postbox: Postbox
    private let network: any AccountNetworking
    /// The executor its Swift tasks prefer (`AccountScheduling.taskExecutor`; nil: Swift's default).
    private let taskExecutor: (any TaskExecutor)?
    private let inFlight = LockedValue<Set<Request>>([])
    private let counters = LockedValue((requests: 0, failures: 0))

    init(
        accountPeerId: PeerId, postbox: Postbox, network: any AccountNetworking, pageSize: Int32 = 100,
        taskExecutor: (any TaskExecutor)? = nil
    ) {
        self.taskExecutor = taskExecutor
        self.accountPeerId = accountPeerId
        self.postbox = postbox
        self.network = network
        self.pageSize = pageSize
    }

    /// How many `getHistory` calls were made, and how many failed.
    public var requestCount: Int { counters.withLock { $0.requests } }
    public var failureCount: Int { counters.withLock { $0.failures } }

    /// Called with each emission of a history view: starts the fetch of the hole at its edge, unless one runs.
    /// A tagged view fills its tag's space from the hole's top down (`messages.search` pages downwards).
    public func viewChanged(_ view: MessageHistoryView) {
        guard view.holeEarlier || view.holeLater else { return }
        if let tag = view.tag, HoleSpaces.filter(for: tag) == nil { return }
        let space: MessageHistoryHoleSpace = view.tag.map { .tag($0) } ?? .everywhere
        let cloud = view.entries.map(\.message).filter { $0.id.namespace == Namespaces.Message.cloud }
        let lowest = cloud.min { $0.id.id < $1.id.id }
        let highest = cloud.max { $0.id.id < $1.id.id }
        let request =
            try? postbox.readTransactionSync { tx -> Request? in
                let holes = try tx.getHoles(peerId: view.peerId, namespace: Namespaces.Message.cloud, space: space)
                if view.holeEarlier {
                    guard let hole = holes.last(where: { $0.lowerBound < (lowest?.id.id ?? Int32.max) }) else {
                        return nil
                    }
                    // The nearest stored message below the view's edge must lie below the hole: otherwise the emission
                    // predates a page that filled the hole's old range, and what is left of it is out of the view's reach.
                    if let lowest,
                        let next = try tx.earlierMessages(
                            peerId: view.peerId, before: lowest.index, count: 1, tag: view.tag
                        ).first,
                        next.id.namespace == Namespaces.Message.cloud, next.id.id > hole.upperBound
                    {
                        return nil
                    }
                    return Request(peerId: view.peerId, hole: hole, fromTop: true, tag: view.tag)
                } else {
                    guard let hole = holes.first(where: { $0.upperBound > (highest?.id.id ?? 0) }) else { return nil }
                    if let highest,
                        let next = try tx.laterMessages(
                            peerId: view.peerId, after: highest.index, count: 1, tag: view.tag
                        ).first,
                        next.id.namespace == Namespaces.Message.cloud, next.id.id < hole.lowerBound
                    {
                        return nil
                    }
                    return Request(peerId: view.peerId, hole: hole, fromTop: view.tag != nil, tag: view.tag)
                }
            } ?? nil
        guard let request else { return }
        Task(executorPreference: taskExecutor) { try? await self.fetch(request) }
    }

    /// Fetches one page of `request`'s hole and stores it; returns how many messages came. A request already running,
    /// or one whose edge is no longer a hole (a page filled it since the request was made), returns 0 at once.
    @discardableResult
    public func fetch(_ request: Request) async throws -> Int {
        guard inFlight.withLock({ $0.insert(request).inserted }) else { return 0 }
        defer { _ = inFlight.withLock { $0.remove(request) } }
        let accountPeerId = self.accountPeerId
        let edge = request.fromTop ? request.hole.upperBound : request.hole.lowerBound
        let space: MessageHistoryHoleSpace = request.tag.map { .tag($0) } ?? .everywhere
        let stillAHole = try postbox.readTransactionSync { tx in
            try tx.getHoles(peerId: request.peerId, namespace: Namespaces.Message.cloud, space: space)
                .contains { $0.contains(edge) }
        }
        guard stillAHole else { return 0 }
        guard
            let peer = try postbox.readTransactionSync({ tx in
                try apiInputPeer(request.peerId, accountPeerId: accountPeerId, transaction: tx)
            })
        else {
            // Without a way to address the peer the hole cannot be filled: drop it rather than ask forever.
            try postbox.transactionSync { tx in
                try HoleSpaces.removeHole(tx, peerId: request.peerId, range: request.hole)
            }
            return 0
        }
        counters.withLock { $0.requests += 1 }
        let answer: Api.messages.Messages
        let top = request.hole.upperBound == Int32.max ? Int32.max : request.hole.upperBound + 1
        do {
            if let tag = request.tag, let filter = HoleSpaces.filter(for: tag) {
                // The newest tagged messages below the hole's top.
                answer = try await network.request(
                    Api.functions.messages.search(
                        peer: peer, q: "", filter: filter, minDate: 0, maxDate: 0, offsetId: top, addOffset: 0,
                        limit: pageSize,
                        maxId: 0, minId: 0, hash: 0))
            } else if request.fromTop {
                // The newest messages below the hole's top: ids < upperBound + 1.
                answer = try await network.request(
                    Api.functions.messages.getHistory(
                        peer: peer, offsetId: top, offsetDate: 0, addOffset: 0, limit: pageSize, maxId: 0, minId: 0,
                        hash: 0))
            } else {
                // The newest `pageSize` above the hole's bottom: the rest of the hole is above them.
                answer = try await network.request(
                    Api.functions.messages.getHistory(
                        peer: peer, offsetId: 0, offsetDate: 0, addOffset: 0, limit: pageSize, maxId: 0,
                        minId: request.hole.lowerBound - 1, hash: 0))
            }
        } catch {
            counters.withLock { $0.failures += 1 }
            throw error
        }
        let (messages, users, chats) = Self.contents(answer)
        let ids = messages.compactMap { $0.cloudId?.id }.filter { request.hole.contains($0) }
        let complete = messages.count < Int(pageSize)
        let filled: ClosedRange<Int32>
        if request.fromTop {
            let bottom =
                complete ? request.hole.lowerBound : max(request.hole.lowerBound, ids.min() ?? request.hole.lowerBound)
            filled = bottom...request.hole.upperBound
        } else if complete {
            filled = request.hole
        } else {
            filled = (ids.min() ?? request.hole.lowerBound)...request.hole.upperBound
        }
        try postbox.transactionSync { tx in
            _ = try storeMessagePage(
                messages: messages, users: users, chats: chats, accountPeerId: accountPeerId, transaction: tx)
            if let tag = request.tag {
                try tx.removeHole(
                    peerId: request.peerId, namespace: Namespaces.Message.cloud, space: .tag(tag), range: filled)
            } else {
                try HoleSpaces.removeHole(tx, peerId: request.peerId, range: filled)
            }
        }
        return messages.count
    }

    static func contents(_ answer: Api.messages.Messages) -> ([Api.Message], [Api.User], [Api.Chat]) {
        switch answer {
        case .messages(let page): return (page.messages, page.users, page.chats)
        case .messagesSlice(let page): return (page.messages, page.users, page.chats)
        case .channelMessages(let page): return (page.messages, page.users, page.chats)
        case .messagesNotModified: return ([], [], [])
        }
    }
}
