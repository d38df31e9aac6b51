import Foundation
import SecretApi
import SecretChats
import Testing
import TLRuntime

@Suite struct SessionTests {
    func pair(seed: UInt64 = 21) throws -> (Peer, Peer) {
        let (a, b) = try establishedPair(seed: seed)
        return (Peer(a, seed: seed + 1), Peer(b, seed: seed + 2))
    }

    @Test func messagesBothWaysWithTheLayerNegotiated() throws {
        let (alice, bob) = try pair()
        deliver(alice.send("hello Bob"), from: alice, to: bob)
        deliver(bob.send("hello Alice"), from: bob, to: alice)
        deliver(alice.send("how are you?"), from: alice, to: bob)
        #expect(bob.shown == ["hello Bob", "how are you?"])
        #expect(alice.shown == ["hello Alice"])
        #expect(alice.session.peerLayer == SecretChatLayer.current && bob.session.peerLayer == SecretChatLayer.current)
        #expect(alice.session.layer == 144)
        // Each side: a layer notice and its messages, in order; every received one counted.
        #expect(alice.session.sequence.outRaw == 3 && bob.session.sequence.inRaw == 3)
        #expect(bob.session.sequence.outRaw == 2 && alice.session.sequence.inRaw == 2)
        #expect(alice.drops.isEmpty && bob.drops.isEmpty)
    }

    @Test func twoHundredFiftyMessagesBothWaysReKeyInTheMiddle() throws {
        let (alice, bob) = try pair(seed: 31)
        let firstKey = alice.session.key
        for index in 0..<250 {
            deliver(alice.send("a\(index)"), from: alice, to: bob)
            deliver(bob.send("b\(index)"), from: bob, to: alice)
        }
        #expect(bob.shown == (0..<250).map { "a\($0)" })
        #expect(alice.shown == (0..<250).map { "b\($0)" })
        #expect(alice.session.rekeyCount >= 2 && alice.session.rekeyCount == bob.session.rekeyCount)
        #expect(alice.session.key == bob.session.key && alice.session.key != firstKey)
        #expect(alice.session.rekey == .idle && bob.session.rekey == .idle)
        // The visualization is the first key's, on both sides, whatever the re-keys did.
        #expect(alice.session.visualization == bob.session.visualization)
        #expect(alice.drops.isEmpty && bob.drops.isEmpty)
    }

    @Test func aKeyIsReplacedAfterAWeekOnVirtualTime() throws {
        let (alice, bob) = try pair(seed: 41)
        deliver(alice.send("one"), from: alice, to: bob)
        alice.now += 7 * 24 * 3600 - 1
        #expect(alice.session.startRekeyIfDue(now: alice.now, random: alice.random) == nil)
        alice.now += 1
        let due = alice.session.startRekeyIfDue(now: alice.now, random: alice.random)
        let request = try #require(due)
        deliver(alice.record([request]), from: alice, to: bob)
        #expect(alice.session.rekeyCount == 1 && bob.session.key == alice.session.key)
        deliver(alice.send("after"), from: alice, to: bob)
        #expect(bob.shown == ["one", "after"])
    }

    @Test func aDroppedMessageIsRecoveredThroughResend() throws {
        let (alice, bob) = try pair(seed: 51)
        deliver(alice.send("first"), from: alice, to: bob)
        let lost = alice.send("lost on the way")
        #expect(lost.count == 1)
        let third = alice.send("third")
        deliver(third, from: alice, to: bob)  // Bob sees the gap, holds "third" and asks for the missing one
        #expect(bob.shown == ["first", "lost on the way", "third"])
        #expect(bob.drops.contains { if case .heldForGap = $0 { true } else { false } })
        #expect(bob.session.held.isEmpty && bob.session.sequence.inRaw == alice.session.sequence.outRaw)
    }

    @Test func duplicatesAndReplaysAreDroppedAndNeverShown() throws {
        let (alice, bob) = try pair(seed: 61)
        let first = alice.send("once")
        deliver(first, from: alice, to: bob)
        deliver(first, from: alice, to: bob)  // the relay repeats it
        deliver(alice.send("twice?"), from: alice, to: bob)
        deliver([first.last!], from: alice, to: bob)  // replayed later
        #expect(bob.shown == ["once", "twice?"])
        #expect(bob.drops.filter { if case .duplicate = $0 { true } else { false } }.count == first.count + 1)
    }

    @Test func reflectedAndTamperedMessagesAreNeverShown() throws {
        let (alice, bob) = try pair(seed: 71)
        let sent = alice.send("original")
        _ = alice.receive(sent.last!)  // reflected to its sender: x differs, msg_key fails
        #expect(alice.drops == [.crypto(.messageKeyMismatch)])
        var tampered = sent.last!
        tampered[tampered.count - 5] ^= 0x40
        deliver([sent.first!, tampered], from: alice, to: bob)
        #expect(bob.shown.isEmpty)
        #expect(bob.drops == [.crypto(.messageKeyMismatch)])
        deliver([sent.last!], from: alice, to: bob)
        #expect(bob.shown == ["original"])
    }

    @Test func wrongParityEndsTheChat() throws {
        let (aliceEst, bobEst) = try establishedPair(seed: 81)
        var bob = SecretChatSession(established: bobEst, now: 0)
        // A message under the right key from the originator, but with the participant's parity (a mirrored
        // message): the docs say the chat must end.
        let layer = SecretApi.DecryptedMessageLayer.decryptedMessageLayer(
            .init(randomBytes: [UInt8](repeating: 7, count: 16), layer: 144, inSeqNo: 1, outSeqNo: 0,
                message: text("mirrored", randomId: 5)))
        let sealed = SecretChatCrypto.seal(layer.serialized(), key: aliceEst.key, sender: .originator)
        let events = bob.receive(sealed, now: 0)
        #expect(events.contains { if case .terminated = $0 { true } else { false } })
        #expect(bob.terminated != nil)
        #expect(!events.contains { if case .message = $0 { true } else { false } })
        // Acknowledging messages never sent ends it too.
        var other = SecretChatSession(established: bobEst, now: 0)
        let ahead = SecretApi.DecryptedMessageLayer.decryptedMessageLayer(
            .init(randomBytes: [UInt8](repeating: 7, count: 16), layer: 144, inSeqNo: 2 * 5, outSeqNo: 1,
                message: text("ahead", randomId: 6)))
        let aheadEvents = other.receive(SecretChatCrypto.seal(ahead.serialized(), key: aliceEst.key, sender: .originator), now: 0)
        #expect(aheadEvents.contains { if case .terminated = $0 { true } else { false } })
        #expect(other.terminated != nil)
    }

    @Test func outOfOrderMessagesAreShownInOrder() throws {
        let (alice, bob) = try pair(seed: 91)
        let one = alice.send("1"), two = alice.send("2"), three = alice.send("3")
        deliver(three + two + one, from: alice, to: bob)
        #expect(bob.shown == ["1", "2", "3"])
    }

    @Test func aRestartInTheMiddleKeepsEverything() throws {
        let (alice, bob) = try pair(seed: 101)
        for index in 0..<60 {
            deliver(alice.send("a\(index)"), from: alice, to: bob)
            deliver(bob.send("b\(index)"), from: bob, to: alice)
        }
        let stored = try JSONEncoder().encode(bob.session)
        bob.session = try JSONDecoder().decode(SecretChatSession.self, from: stored)
        for index in 60..<120 {
            deliver(alice.send("a\(index)"), from: alice, to: bob)
            deliver(bob.send("b\(index)"), from: bob, to: alice)
        }
        #expect(bob.shown == (0..<120).map { "a\($0)" })
        #expect(alice.shown == (0..<120).map { "b\($0)" })
        #expect(alice.session.rekeyCount >= 1)
    }

    @Test func bothSidesAskingToReKeyAtOnceAgreeOnOne() throws {
        let (alice, bob) = try pair(seed: 111)
        deliver(alice.send("hi"), from: alice, to: bob)
        deliver(bob.send("hi"), from: bob, to: alice)
        alice.now += 8 * 24 * 3600
        bob.now += 8 * 24 * 3600
        let aliceRequest = alice.session.startRekeyIfDue(now: alice.now, random: alice.random)
        let bobRequest = bob.session.startRekeyIfDue(now: bob.now, random: bob.random)
        let fromAlice = alice.record([try #require(aliceRequest)])
        let fromBob = bob.record([try #require(bobRequest)])
        // Both requests cross on the wire.
        let aliceReplies = alice.receive(fromBob[0])
        let bobReplies = bob.receive(fromAlice[0])
        deliver(aliceReplies, from: alice, to: bob)
        deliver(bobReplies, from: bob, to: alice)
        #expect(alice.session.rekeyCount == 1 && bob.session.rekeyCount == 1)
        #expect(alice.session.key == bob.session.key)
        deliver(alice.send("still here"), from: alice, to: bob)
        #expect(bob.shown == ["hi", "still here"])
    }
}

@Suite struct LayerEightServiceTests {
    /// A layer notice sent as `decryptedMessageService8` inside a layer (as telethon-secret-chat writes it) is a
    /// protocol message like any other: applied, never shown.
    @Test func aLayerEightServiceMessageIsAppliedNotShown() throws {
        let (aliceEst, bobEst) = try establishedPair(seed: 121)
        var bob = SecretChatSession(established: bobEst, now: 0)
        let notice = SecretApi.DecryptedMessageLayer.decryptedMessageLayer(
            .init(randomBytes: [UInt8](repeating: 1, count: 15), layer: 101, inSeqNo: 0, outSeqNo: 1,
                message: .decryptedMessageService8(
                    .init(randomId: 9, randomBytes: [UInt8](repeating: 2, count: 15),
                        action: .decryptedMessageActionNotifyLayer(.init(layer: 101))))))
        let events = bob.receive(SecretChatCrypto.seal(notice.serialized(), key: aliceEst.key, sender: .originator), now: 0)
        #expect(!events.contains { if case .message = $0 { true } else { false } })
        #expect(bob.peerLayer == 101 && bob.layer == 101)
        #expect(bob.sequence.inRaw == 1)
    }
}
