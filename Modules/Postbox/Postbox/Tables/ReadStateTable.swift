import ValueBox

/// A chat's read state in one message namespace (Telegram-iOS Postbox read states).
public struct PeerReadState: Equatable, Sendable {
    /// The greatest incoming message id the user has read.
    public var maxIncomingReadId: Int32
    /// The greatest outgoing message id the other side has read.
    public var maxOutgoingReadId: Int32
    /// The greatest message id known.
    public var maxKnownId: Int32
    /// Unread incoming messages.
    public var count: Int32

    public init(maxIncomingReadId: Int32, maxOutgoingReadId: Int32, maxKnownId: Int32, count: Int32) {
        self.maxIncomingReadId = maxIncomingReadId
        self.maxOutgoingReadId = maxOutgoingReadId
        self.maxKnownId = maxKnownId
        self.count = count
    }

    public static let empty = PeerReadState(maxIncomingReadId: 0, maxOutgoingReadId: 0, maxKnownId: 0, count: 0)
}

/// A chat's read states in every namespace.
public struct CombinedPeerReadState: Equatable, Sendable {
    public var states: [Int32: PeerReadState]

    public init(states: [Int32: PeerReadState]) {
        self.states = states
    }

    /// Unread incoming messages across namespaces.
    public var count: Int32 { states.values.reduce(0) { $0 + $1.count } }
}

/// Table 14 (int64 keys): each chat's read states (Telegram-iOS Postbox `MessageHistoryReadStateTable`).
final class ReadStateTable: Table {
    func get(_ peerId: PeerId) throws -> CombinedPeerReadState? {
        guard let bytes = try valueBox.get(table, key: Keys.peer(peerId)) else { return nil }
        return try decode(bytes)
    }

    /// Every chat's read states.
    func all() throws -> [PeerId: CombinedPeerReadState] {
        var result: [PeerId: CombinedPeerReadState] = [:]
        try valueBox.scan(table) { key, value in
            result[PeerId(key.getInt64(0))] = try decode(value)
            return true
        }
        return result
    }

    private func decode(_ bytes: [UInt8]) throws -> CombinedPeerReadState {
        guard bytes.count % 20 == 0 else {
            throw PostboxError.undecodableRecord(table: table.id, detail: "read state of \(bytes.count) bytes")
        }
        let value = ValueBoxKey(bytes)
        var states: [Int32: PeerReadState] = [:]
        for offset in stride(from: 0, to: bytes.count, by: 20) {
            states[value.getInt32(offset)] = PeerReadState(
                maxIncomingReadId: value.getInt32(offset + 4), maxOutgoingReadId: value.getInt32(offset + 8),
                maxKnownId: value.getInt32(offset + 12), count: value.getInt32(offset + 16))
        }
        return CombinedPeerReadState(states: states)
    }

    func set(_ peerId: PeerId, _ state: CombinedPeerReadState) throws {
        var value = ValueBoxKey(length: 20 * state.states.count)
        for (position, (namespace, entry)) in state.states.sorted(by: { $0.key < $1.key }).enumerated() {
            let offset = position * 20
            value.setInt32(offset, value: namespace)
            value.setInt32(offset + 4, value: entry.maxIncomingReadId)
            value.setInt32(offset + 8, value: entry.maxOutgoingReadId)
            value.setInt32(offset + 12, value: entry.maxKnownId)
            value.setInt32(offset + 16, value: entry.count)
        }
        try valueBox.set(table, key: Keys.peer(peerId), value: value.bytes)
    }
}
