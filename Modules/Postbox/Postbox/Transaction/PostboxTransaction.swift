public import ValueBox

/// A change to one chat's history, recorded for live views (Telegram-iOS Postbox `MessageHistoryOperation`).
public enum MessageHistoryOperation: Sendable {
    /// A message was added.
    case insertMessage(Message)
    /// Messages were removed (with the tags they had).
    case remove([(MessageIndex, MessageTags)])
    /// A message changed in place (same index).
    case updateMessage(Message)
    /// The chat's read state changed.
    case updateReadState(CombinedPeerReadState)
    /// Shared media referenced by the message at this index changed.
    case updateEmbeddedMedia(MessageIndex)
}

/// A change to the unsent-message set.
public enum UnsentMessageOperation: Equatable, Sendable {
    case insert(MessageId)
    case remove(MessageId)
}

/// Where hole operations apply: a chat's namespace and space.
public struct HoleOperationKey: Hashable, Sendable {
    public let peerId: PeerId
    public let namespace: Int32
    public let space: MessageHistoryHoleSpace
}

/// Everything one write transaction changed, built before commit and handed to transaction observers (the live
/// views of the next layer) (Telegram-iOS Postbox `PostboxTransaction`).
public struct PostboxTransaction: Sendable {
    /// The history changes of every chat whose history changed (each such chat has an entry). Removals and read
    /// states are always listed; inserted and updated messages are rendered when a transaction observer is
    /// registered — observers always see them — or an open view reads that chat, and are otherwise left out.
    public var currentOperationsByPeerId: [PeerId: [MessageHistoryOperation]] = [:]
    public var holeOperations: [HoleOperationKey: [MessageHistoryHoleOperation]] = [:]
    public var chatListOperations: [ChatListOperation] = []
    public var updatedPeers: [PeerId: Peer] = [:]
    public var updatedPeerPresences: [PeerId: PeerPresence] = [:]
    public var updatedReadStates: [PeerId: CombinedPeerReadState] = [:]
    public var updatedPreferences: [ValueBoxKey: PreferencesEntry?] = [:]
    public var updatedOrderedItemLists: Set<Int32> = []
    /// Whether the contact peer ids or the remote contact count changed.
    public var updatedContacts = false
    public var unsentOperations: [UnsentMessageOperation] = []
    public var updatedMedia: [MediaId: Media] = [:]
    public var stateUpdated = false
    /// The metadata transaction-state counter after this transaction.
    public var transactionStateVersion: Int64 = 0

    public init() {}

    /// Whether the transaction changed nothing a view could show.
    public var isEmpty: Bool {
        currentOperationsByPeerId.isEmpty && holeOperations.isEmpty && chatListOperations.isEmpty
            && updatedPeers.isEmpty && updatedPeerPresences.isEmpty && updatedReadStates.isEmpty
            && updatedPreferences.isEmpty && updatedOrderedItemLists.isEmpty && unsentOperations.isEmpty
            && updatedMedia.isEmpty && !stateUpdated && !updatedContacts
    }

    /// Records that `peerId`'s history changed without an operation to show for it (its message was not rendered).
    mutating func noteChanged(_ peerId: PeerId) {
        if currentOperationsByPeerId[peerId] == nil { currentOperationsByPeerId[peerId] = [] }
    }

    mutating func append(_ operation: MessageHistoryOperation, peerId: PeerId) {
        currentOperationsByPeerId[peerId, default: []].append(operation)
    }
}
