import Foundation
import MTProtoServer
import ServerAPI
import TLRuntime
import TelegramApi
import Testing

/// The account's seq sequence (core.telegram.org "Working with updates"): pushes of updates outside pts and qts —
/// privacy, blocking, drafts, notify settings — carry the next seq, several at once as `updatesCombined` from
/// `seq_start`; `updates.getState` and `getDifference` report it; pts-carrying pushes keep `seq = 0`.
@Suite struct SeqTests {
    typealias Account = AttackHarness.Account

    /// `(seq_start, seq)` of a push, `nil` for the kinds that carry none.
    static func seqRange(_ updates: Api.Updates) -> (start: Int32, end: Int32)? {
        switch updates {
        case .updates(let body): return (body.seq, body.seq)
        case .updatesCombined(let body): return (body.seqStart, body.seq)
        default: return nil
        }
    }

    static func state(_ key: Int64, _ harness: AttackHarness) throws -> Api.updates.State.Cons_state {
        let answer = try harness.result(Api.functions.updates.getState(), as: Api.updates.State.self, key: key)
        guard case .state(let state) = answer else { throw AttackHarness.Refused(response: .notImplemented) }
        return state
    }

    /// Ann's changes, each in the seq sequence, reach every session of hers — the calling one too — numbered 1, 2, …
    /// in order; a reset of two settings is one `updatesCombined` from 4 to 5; Ben's message is pts-carrying and
    /// comes with seq 0. getState and an empty difference report the seq reached, and it survives a restart.
    @Test func seqPushesAreNumberedInOrderAndReported() throws {
        let harness = try AttackHarness()
        let ann = try harness.signUp("9996620001", name: "Ann", key: 1)
        let ben = try harness.signUp("9996620002", name: "Ben", key: 2)
        #expect(try Self.state(1, harness).seq == 0)
        let pushed = ChannelTests.Pushed()
        // Session 1 of key 1 is the one making the calls; session 99 is another device's.
        for session in [Int64(1), 99] {
            harness.updates.subscribe(.init(authKeyId: 1, sessionId: session), connection: ObjectIdentifier(pushed)) {
                bytes in pushed.add(session, bytes)
            }
        }
        _ = try harness.result(
            Api.functions.account.setPrivacy(key: .inputPrivacyKeyStatusTimestamp, rules: [.inputPrivacyValueAllowAll]),
            as: Api.account.PrivacyRules.self, key: 1)
        #expect(harness.error(Api.functions.contacts.block(id: ben.inputPeer), key: 1) == nil)
        #expect(harness.error(Api.functions.messages.saveDraft(peer: ben.inputPeer, message: "draft"), key: 1) == nil)
        for peer in [Api.InputNotifyPeer.inputNotifyUsers, .inputNotifyChats] {
            #expect(
                harness.error(
                    Api.functions.account.updateNotifySettings(
                        peer: peer, settings: .inputPeerNotifySettings(.init(muteUntil: Int32.max))), key: 1) == nil)
        }
        // Each of the two settings above took one seq (4 and 5); the reset of both is one combined push, 6…7.
        #expect(harness.error(Api.functions.account.resetNotifySettings(), key: 1) == nil)
        #expect(harness.error(Api.functions.contacts.unblock(id: ben.inputPeer), key: 1) == nil)
        _ = try harness.result(
            Api.functions.messages.sendMessage(peer: ann.inputPeer, message: "hi", randomId: 7), as: Api.Updates.self,
            key: 2)
        for session in [Int64(1), 99] {
            let ranges = pushed.updates(for: session).compactMap(Self.seqRange)
            let numbered = ranges.filter { $0.end != 0 }
            #expect(numbered.map(\.start) == [1, 2, 3, 4, 5, 6, 8], "session \(session)")
            #expect(numbered.map(\.end) == [1, 2, 3, 4, 5, 7, 8], "session \(session)")
            if case .updatesCombined(let combined)? = pushed.updates(for: session).first(where: {
                if case .updatesCombined = $0 { return true } else { return false }
            }) {
                #expect(combined.updates.count == 2)
            } else {
                Issue.record("no updatesCombined for session \(session)")
            }
        }
        // Ben's message comes around pts-carrying updates: `updateShortMessage`, or `updates` with seq 0.
        let message = pushed.updates(for: 99).filter { updates in
            switch updates {
            case .updateShortMessage: return true
            case .updates(let body):
                return body.updates.contains { if case .updateNewMessage = $0 { true } else { false } }
            default: return false
            }
        }
        #expect(message.count == 1 && message.allSatisfy { (Self.seqRange($0)?.end ?? 0) == 0 }, "\(message)")
        let state = try Self.state(1, harness)
        #expect(state.seq == 8)
        let difference = try harness.result(
            Api.functions.updates.getDifference(pts: state.pts, date: state.date, qts: state.qts),
            as: Api.updates.Difference.self, key: 1)
        guard case .differenceEmpty(let empty) = difference else { Issue.record("\(difference)"); return }
        #expect(empty.seq == 8)
        // Ben's state has its own sequence, untouched by Ann's changes.
        #expect(try Self.state(2, harness).seq == 0)
        try harness.restart()
        #expect(try Self.state(1, harness).seq == 8)
    }
}
