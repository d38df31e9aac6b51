/// A snapshot of the account's contacts: their ids, stored peers and presences, and the server's saved count
/// (Telegram-iOS Postbox `ContactPeersView`).
public struct ContactPeersView: PostboxView, Equatable {
    public let peerIds: Set<PeerId>
    /// The stored peers among `peerIds`.
    public let peers: [PeerId: Peer]
    public let presences: [PeerId: PeerPresence]
    /// The `saved_count` of the last `contacts.contacts`.
    public let remoteTotalCount: Int32

    public init(peerIds: Set<PeerId>, peers: [PeerId: Peer], presences: [PeerId: PeerPresence], remoteTotalCount: Int32)
    {
        self.peerIds = peerIds
        self.peers = peers
        self.presences = presences
        self.remoteTotalCount = remoteTotalCount
    }

    public static func == (lhs: ContactPeersView, rhs: ContactPeersView) -> Bool {
        guard lhs.peerIds == rhs.peerIds, lhs.remoteTotalCount == rhs.remoteTotalCount,
            lhs.peers.count == rhs.peers.count, lhs.presences.count == rhs.presences.count
        else { return false }
        return lhs.peers.allSatisfy { peersEqual($0.value, rhs.peers[$0.key]) }
            && lhs.presences.allSatisfy { presencesEqual($0.value, rhs.presences[$0.key]) }
    }
}

/// The live side of `ContactPeersView`: reloaded when the contact set changes, patched when one of its peers or
/// presences does.
final class MutableContactPeersView: MutablePostboxView {
    private var peerIds: Set<PeerId> = []
    private var peers: [PeerId: Peer] = [:]
    private var presences: [PeerId: PeerPresence] = [:]
    private var remoteTotalCount: Int32 = 0

    /// This view reads no rendered messages from the operations.
    var renderedMessagePeers: Set<PeerId> { [] }

    init(_ transaction: Transaction) throws {
        try load(transaction)
    }

    private func load(_ transaction: Transaction) throws {
        peerIds = try transaction.getContactPeerIds()
        remoteTotalCount = try transaction.getRemoteContactCount()
        peers = [:]
        presences = [:]
        for peerId in peerIds {
            peers[peerId] = try transaction.getPeer(peerId)
            presences[peerId] = try transaction.getPeerPresence(peerId)
        }
    }

    func replay(_ transaction: Transaction, _ operations: PostboxTransaction) throws -> Bool {
        if operations.updatedContacts {
            try load(transaction)
            return true
        }
        var changed = false
        for (peerId, peer) in operations.updatedPeers where peerIds.contains(peerId) {
            peers[peerId] = peer
            changed = true
        }
        for (peerId, presence) in operations.updatedPeerPresences where peerIds.contains(peerId) {
            presences[peerId] = presence
            changed = true
        }
        return changed
    }

    func refresh(_ transaction: Transaction, _ changes: ExternalChanges) throws -> Bool {
        guard
            changes.everything || changes.contacts || !changes.peers.isDisjoint(with: peerIds)
                || !changes.presences.isDisjoint(with: peerIds)
        else { return false }
        try load(transaction)
        return true
    }

    func immutableView() -> ContactPeersView {
        ContactPeersView(peerIds: peerIds, peers: peers, presences: presences, remoteTotalCount: remoteTotalCount)
    }
}
