import Postbox
import TestVectors
import Testing

@Suite struct IdentityTests {
    @Test func peerIdPacksNamespaceIntoBits32To34() {
        let channel = PeerId(namespace: .init(rawValue: 2), id: .init(rawValue: 123))
        #expect(channel.toInt64() == (2 << 32) | 123)
        let big = PeerId(namespace: .init(rawValue: 1), id: .init(rawValue: 0x1_0000_0005))
        #expect(big.toInt64() == (1 << 35) | (1 << 32) | 5)
        #expect(PeerId(big.toInt64()) == big)
        let secret = PeerId(namespace: .init(rawValue: 3), id: .init(rawValue: -5))
        #expect(PeerId(secret.toInt64()) == secret)
        #expect(PeerId(0x7fff_ffff << 32).namespace == .max)
    }

    @Test func peerIdRoundTripsRandomIds() {
        var generator = SeededGenerator(seed: 3)
        for _ in 0..<10_000 {
            let namespace = Int32.random(in: 0...6, using: &generator)
            guard namespace != 3 else { continue }
            let id = Int64.random(in: 0..<(1 << 61), using: &generator)
            let peerId = PeerId(namespace: .init(rawValue: namespace), id: .init(rawValue: id))
            #expect(PeerId(peerId.toInt64()) == peerId)
        }
    }

    @Test func messageIndexOrdersByTimestampThenNamespaceThenId() {
        let p = peer(1)
        let a = MessageIndex(id: MessageId(peerId: p, namespace: 1, id: 1), timestamp: 5)
        let b = MessageIndex(id: MessageId(peerId: p, namespace: 0, id: 9), timestamp: 6)
        let c = MessageIndex(id: MessageId(peerId: p, namespace: 1, id: 0), timestamp: 6)
        #expect([c, a, b].sorted() == [a, b, c])
        #expect(MessageId(peerId: p, namespace: 0, id: 5).description == "0:1:0_5")
    }

    @Test func pinnedChatListIndicesSortAboveOthers() {
        let m = MessageIndex(id: MessageId(peerId: peer(1), namespace: 0, id: 1), timestamp: 100)
        let old = MessageIndex(id: MessageId(peerId: peer(2), namespace: 0, id: 1), timestamp: 1)
        #expect(ChatListIndex(pinningIndex: nil, messageIndex: m) < ChatListIndex(pinningIndex: 5, messageIndex: old))
        #expect(ChatListIndex(pinningIndex: 1, messageIndex: m) < ChatListIndex(pinningIndex: 0, messageIndex: old))
    }
}
