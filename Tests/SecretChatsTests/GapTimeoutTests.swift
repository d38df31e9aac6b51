import Foundation
import SecretApi
import SecretChats
import Testing

/// A gap the other side cannot fill (core.telegram.org/api/end-to-end/seq_no asks for a resend and waits): asked
/// for once, then given up after `SecretChatSession.gapTimeout` seconds of virtual time, and what was held behind it
/// shown in order.
@Suite struct GapTimeoutTests {
    func pair(seed: UInt64) throws -> (Peer, Peer) {
        let (a, b) = try establishedPair(seed: seed)
        return (Peer(a, seed: seed + 1), Peer(b, seed: seed + 2))
    }

    /// Alice sends "first"; "lost" never arrives; "third" and "fourth" are held; Bob's resend request is lost too
    /// (a peer that cannot resend is the same to Bob).
    func heldBehindALostMessage(seed: UInt64) throws -> (alice: Peer, bob: Peer, start: Int32) {
        let (alice, bob) = try pair(seed: seed)
        deliver(alice.send("first"), from: alice, to: bob)
        _ = alice.send("lost")
        let start = bob.now
        var requests: [[UInt8]] = []
        for sealed in alice.send("third") + alice.send("fourth") { requests += bob.receive(sealed) }
        #expect(!requests.isEmpty)  // the resend request, lost
        #expect(bob.shown == ["first"] && bob.session.held.count == 2)
        #expect(bob.session.gapDeadline == start + SecretChatSession.gapTimeout)
        return (alice, bob, start)
    }

    @Test func aGapNoResendFillsIsGivenUpAtTheBoundAndWhatWasHeldIsShown() throws {
        let (alice, bob, start) = try heldBehindALostMessage(seed: 401)
        #expect(bob.session.skipExpiredGap(now: start + SecretChatSession.gapTimeout - 1).isEmpty)
        #expect(bob.session.held.count == 2)
        let events = bob.session.skipExpiredGap(now: start + SecretChatSession.gapTimeout)
        let shown = events.compactMap { event -> String? in
            if case .message(.decryptedMessage(let value), _) = event { value.message } else { nil }
        }
        #expect(shown == ["third", "fourth"])
        #expect(skippedGaps(events) == [2...2])
        #expect(bob.session.held.isEmpty && bob.session.gapDeadline == nil)
        #expect(bob.session.sequence.inRaw == alice.session.sequence.outRaw)
        // The chat goes on both ways; the lost message arriving late is a duplicate, never shown.
        bob.now = start + SecretChatSession.gapTimeout
        bob.shown += shown
        deliver(alice.send("fifth"), from: alice, to: bob)
        deliver(bob.send("answer"), from: bob, to: alice)
        #expect(bob.shown == ["first", "third", "fourth", "fifth"])
        #expect(alice.shown == ["answer"])
    }

    @Test func aMessageArrivingAfterTheBoundAlsoReleasesTheGap() throws {
        let (alice, bob, start) = try heldBehindALostMessage(seed: 411)
        bob.now = start + SecretChatSession.gapTimeout + 5
        deliver(alice.send("fifth"), from: alice, to: bob)
        #expect(bob.shown == ["first", "third", "fourth", "fifth"])
        #expect(bob.drops.contains(.gapSkipped(2...2)))
    }

    @Test func aGapFilledWithinTheBoundSkipsNothing() throws {
        let (alice, bob, start) = try heldBehindALostMessage(seed: 421)
        bob.now = start + SecretChatSession.gapTimeout - 1
        // The resend comes just in time (raw 2 is "lost": Alice's layer notice is raw 0, "first" raw 1).
        _ = bob.receive(alice.session.reseal(try #require(alice.sentPayloads[2]), random: alice.random))
        #expect(bob.shown == ["first", "lost", "third", "fourth"])
        #expect(bob.session.gapDeadline == nil)
        #expect(bob.session.skipExpiredGap(now: start + 10 * SecretChatSession.gapTimeout).isEmpty)
        #expect(!bob.drops.contains { if case .gapSkipped = $0 { true } else { false } })
    }

    /// What arrives behind a gap already asked for is held, not asked for again: one request per arrival made a peer
    /// that answers every message with a notice and cannot resend (telethon-secret-chat) trade requests with us
    /// without end. A new loss behind the held messages is asked for alone.
    @Test func messagesHeldBehindAnAskedForGapAskForNothingMore() throws {
        let (alice, bob) = try pair(seed: 441)
        deliver(alice.send("first"), from: alice, to: bob)  // raw 0 notice, raw 1 "first"
        _ = alice.send("lost")  // raw 2
        let asked = alice.send("third").flatMap { bob.receive($0) }
        #expect(asked.count == 1)
        for text in ["fourth", "fifth", "sixth"] {
            #expect(alice.send(text).flatMap { bob.receive($0) }.isEmpty, "\(text) asked for a resend again")
        }
        _ = alice.send("lost too")  // raw 7
        let askedAgain = alice.send("eighth").flatMap { bob.receive($0) }
        #expect(askedAgain.count == 1)
        // Alice answers the two requests with raw 2 and raw 7 only; everything shows in order.
        for request in asked + askedAgain { deliver([request], from: bob, to: alice) }
        #expect(bob.shown == ["first", "lost", "third", "fourth", "fifth", "sixth", "lost too", "eighth"])
        #expect(bob.session.held.isEmpty)
    }

    @Test func aSecondGapBehindTheFirstGetsItsOwnBound() throws {
        let (alice, bob) = try pair(seed: 431)
        deliver(alice.send("first"), from: alice, to: bob)  // raw 0 notice, raw 1 "first"
        _ = alice.send("lost 2")
        let three = alice.send("three")
        _ = alice.send("lost 4")
        let five = alice.send("five")
        let start = bob.now
        _ = bob.receive(three[0])
        _ = bob.receive(five[0])
        #expect(bob.session.held.count == 2)
        let later = start + SecretChatSession.gapTimeout
        _ = bob.session.skipExpiredGap(now: later)  // gives up raw 2, shows "three", waits for raw 4 from now
        #expect(bob.session.held.count == 1 && bob.session.gapDeadline == later + SecretChatSession.gapTimeout)
        #expect(bob.session.skipExpiredGap(now: later + SecretChatSession.gapTimeout - 1).isEmpty)
        let events = bob.session.skipExpiredGap(now: later + SecretChatSession.gapTimeout)
        #expect(skippedGaps(events) == [4...4])
        #expect(bob.session.held.isEmpty && bob.session.sequence.inRaw == 6)
    }

    @Test func theGapClockSurvivesARestart() throws {
        let (_, bob, start) = try heldBehindALostMessage(seed: 441)
        let stored = try JSONEncoder().encode(bob.session)
        bob.session = try JSONDecoder().decode(SecretChatSession.self, from: stored)
        #expect(bob.session.gapDeadline == start + SecretChatSession.gapTimeout)
        #expect(!bob.session.skipExpiredGap(now: start + SecretChatSession.gapTimeout).isEmpty)
    }
}

/// The ranges of `.dropped(.gapSkipped)` among `events`.
func skippedGaps(_ events: [SecretChatEvent]) -> [ClosedRange<Int32>] {
    events.compactMap { event in if case .dropped(.gapSkipped(let range)) = event { range } else { nil } }
}
