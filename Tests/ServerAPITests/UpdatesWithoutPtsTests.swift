import Foundation
import ServerAPI
import TLRuntime
import TelegramApi
import Testing

/// Updates that carry no pts (`updateChatDefaultBannedRights`, core.telegram.org "Working with updates") reach a
/// member who was away through `updates.getDifference`, with the group in `chats`.
@Suite struct UpdatesWithoutPtsTests {
    static func state(_ harness: AttackHarness, key: Int64) throws -> Api.updates.State.Cons_state {
        guard
            case .state(let state) = try harness.result(
                Api.functions.updates.getState(), as: Api.updates.State.self, key: key)
        else { throw Unexpected() }
        return state
    }

    static func difference(
        _ harness: AttackHarness, key: Int64, from state: Api.updates.State.Cons_state
    ) throws -> Api.updates.Difference {
        try harness.result(
            Api.functions.updates.getDifference(pts: state.pts, date: state.date, qts: state.qts),
            as: Api.updates.Difference.self, key: key)
    }

    struct Unexpected: Error {}

    /// Ben's pts does not move when the group's defaults change, so a difference by pts alone would say nothing:
    /// the change is kept at the pts he had and handed over once his date is not past it; a later difference from
    /// the state it reached is empty. A member who was in the second it was made gets it again (a date is a second),
    /// and Cid, not in the group, never does.
    @Test func aGroupsDefaultRightsReachAMemberWhoWasAway() throws {
        let harness = try AttackHarness()
        let (_, group) = try ChatPhotoTests.annsGroupWithBen(harness, title: "Rules")
        let chatId = group.id
        harness.clock.advance(5)
        let away = try Self.state(harness, key: 2)
        let cidAway = try Self.state(harness, key: 3)
        harness.clock.advance(60)
        #expect(
            harness.error(
                Api.functions.messages.editChatDefaultBannedRights(
                    peer: .inputPeerChat(.init(chatId: chatId)),
                    bannedRights: .chatBannedRights(.init(sendMessages: true, untilDate: 0))), key: 1) == nil)
        #expect(try Self.state(harness, key: 2).pts == away.pts, "the change moves no pts")
        harness.clock.advance(60)

        let difference = try Self.difference(harness, key: 2, from: away)
        guard case .difference(let body) = difference else { Issue.record("\(difference)"); return }
        let rights = body.otherUpdates.compactMap { update -> Api.Update.Cons_updateChatDefaultBannedRights? in
            if case .updateChatDefaultBannedRights(let rights) = update { return rights }
            return nil
        }
        #expect(rights.count == 1)
        guard let changed = rights.first, case .chatBannedRights(let taken) = changed.defaultBannedRights else {
            Issue.record("\(body.otherUpdates)"); return
        }
        guard case .peerChat(let peer) = changed.peer else { Issue.record("\(changed.peer)"); return }
        #expect(peer.chatId == chatId && taken.sendMessages)
        let shown = body.chats.compactMap { chat -> Api.Chat.Cons_chat? in
            if case .chat(let chat) = chat, chat.id == chatId { return chat }
            return nil
        }.first
        guard case .chatBannedRights(let shownRights)? = shown?.defaultBannedRights else {
            Issue.record("\(body.chats)"); return
        }
        #expect(shownRights.sendMessages && shown?.version == changed.version)

        // From the state that difference reached: nothing more.
        guard case .state(let reached) = body.state else { Issue.record("\(body.state)"); return }
        harness.clock.advance(1)
        guard case .differenceEmpty = try Self.difference(harness, key: 2, from: reached) else {
            Issue.record("the change was handed over twice"); return
        }
        // Cid is not in the group.
        guard case .differenceEmpty = try Self.difference(harness, key: 3, from: cidAway) else {
            Issue.record("a stranger heard of the group's rights"); return
        }
    }
}
