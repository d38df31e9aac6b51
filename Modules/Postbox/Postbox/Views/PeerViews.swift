/// A snapshot of one peer and its presence (Telegram-iOS Postbox `PeerView`).
public struct PeerView: PostboxView, Equatable {
    public let peerId: PeerId
    public let peer: Peer?
    public let presence: PeerPresence?

    public static func == (lhs: PeerView, rhs: PeerView) -> Bool {
        lhs.peerId == rhs.peerId && peersEqual(lhs.peer, rhs.peer) && presencesEqual(lhs.presence, rhs.presence)
    }
}

/// A snapshot of several peers and their presences (Telegram-iOS Postbox `MultiplePeersView`).
public struct MultiplePeersView: PostboxView, Equatable {
    public let peerIds: Set<PeerId>
    /// The stored peers among `peerIds`.
    public let peers: [PeerId: Peer]
    public let presences: [PeerId: PeerPresence]

    public static func == (lhs: MultiplePeersView, rhs: MultiplePeersView) -> Bool {
        guard lhs.peerIds == rhs.peerIds, lhs.peers.count == rhs.peers.count,
            lhs.presences.count == rhs.presences.count
        else { return false }
        return lhs.peers.allSatisfy { peersEqual($0.value, rhs.peers[$0.key]) }
            && lhs.presences.allSatisfy { presencesEqual($0.value, rhs.presences[$0.key]) }
    }
}

func presencesEqual(_ lhs: PeerPresence?, _ rhs: PeerPresence?) -> Bool {
    switch (lhs, rhs) {
    case (nil, nil): return true
    case let (.some(left), .some(right)): return left.isEqual(to: right)
    default: return false
    }
}

/// The live side of `PeerView` and `MultiplePeersView`: it changes only with updates of its peers.
final class MutablePeersView: MutablePostboxView {
    let peerIds: Set<PeerId>
    private var peers: [PeerId: Peer] = [:]
    private var presences: [PeerId: PeerPresence] = [:]

    /// This view reads no rendered messages from the operations.
    var renderedMessagePeers: Set<PeerId> { [] }

    init(_ transaction: Transaction, peerIds: Set<PeerId>) throws {
        self.peerIds = peerIds
        try load(transaction)
    }

    private func load(_ transaction: Transaction) throws {
        peers = [:]
        presences = [:]
        for peerId in peerIds {
            peers[peerId] = try transaction.getPeer(peerId)
            presences[peerId] = try transaction.getPeerPresence(peerId)
        }
    }

    func replay(_ transaction: Transaction, _ operations: PostboxTransaction) throws -> Bool {
        var changed = false
        for peerId in peerIds {
            if let peer = operations.updatedPeers[peerId] {
                peers[peerId] = peer
                changed = true
            }
            if let presence = operations.updatedPeerPresences[peerId] {
                presences[peerId] = presence
                changed = true
            }
        }
        return changed
    }

    func refresh(_ transaction: Transaction, _ changes: ExternalChanges) throws -> Bool {
        guard
            changes.everything || !changes.peers.isDisjoint(with: peerIds)
                || !changes.presences.isDisjoint(with: peerIds)
        else { return false }
        try load(transaction)
        return true
    }

    func immutableView() -> MultiplePeersView {
        MultiplePeersView(peerIds: peerIds, peers: peers, presences: presences)
    }
}

/// `MutablePeersView` for one peer, with `PeerView` snapshots.
final class MutablePeerView: MutablePostboxView {
    private let base: MutablePeersView
    let peerId: PeerId

    /// This view reads no rendered messages from the operations.
    var renderedMessagePeers: Set<PeerId> { [] }

    init(_ transaction: Transaction, peerId: PeerId) throws {
        self.peerId = peerId
        base = try MutablePeersView(transaction, peerIds: [peerId])
    }

    func replay(_ transaction: Transaction, _ operations: PostboxTransaction) throws -> Bool {
        try base.replay(transaction, operations)
    }

    func refresh(_ transaction: Transaction, _ changes: ExternalChanges) throws -> Bool {
        try base.refresh(transaction, changes)
    }

    func immutableView() -> PeerView {
        let view = base.immutableView()
        return PeerView(peerId: peerId, peer: view.peers[peerId], presence: view.presences[peerId])
    }
}
