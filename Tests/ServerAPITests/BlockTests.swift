import Foundation
import MTProtoServer
import ServerAPI
import TLRuntime
import TelegramApi
import Testing

/// Blocking (core.telegram.org methods `contacts.block`, `contacts.unblock`, `contacts.getBlocked`; update
/// `updatePeerBlocked`), on a clock the test moves.
@Suite struct BlockTests {
    typealias Account = AttackHarness.Account

    static func send(_ text: String, to peer: Account, from key: Int64, _ harness: AttackHarness, id: Int64) -> String?
    {
        harness.error(Api.functions.messages.sendMessage(peer: peer.inputPeer, message: text, randomId: id), key: key)
    }

    static func fullUser(
        _ user: Account, seenBy key: Int64, _ harness: AttackHarness
    ) throws
        -> (full: Api.UserFull.Cons_userFull, user: Api.User.Cons_user)
    {
        let answer = try harness.result(
            Api.functions.users.getFullUser(id: user.inputUser), as: Api.users.UserFull.self, key: key)
        guard case .userFull(let body) = answer, case .userFull(let full) = body.fullUser,
            case .user(let shown)? = body.users.first
        else { throw AttackHarness.Refused(response: .notImplemented) }
        return (full, shown)
    }

    static func blockedIds(_ answer: Api.contacts.Blocked) -> [Int64] {
        let entries: [Api.PeerBlocked]
        switch answer {
        case .blocked(let body): entries = body.blocked
        case .blockedSlice(let body): entries = body.blocked
        }
        return entries.compactMap {
            guard case .peerBlocked(let body) = $0, case .peerUser(let user) = body.peerId else { return nil }
            return user.userId
        }
    }

    /// Ann blocks Ben: his messages to her are refused with USER_IS_BLOCKED and hers to him with YOU_BLOCKED_USER;
    /// he sees her never online, without her photo, and is not told when she comes online; her full user of him says
    /// `blocked`; her other session gets `updatePeerBlocked`. Unblocking undoes all of it.
    @Test func aBlockRefusesMessagesBothWaysAndHidesTheBlocker() throws {
        let harness = try AttackHarness()
        let ann = try harness.signUp("9996620001", name: "Ann", key: 1)
        let ben = try harness.signUp("9996620002", name: "Ben", key: 2)
        #expect(Self.send("hi", to: ann, from: 2, harness, id: 1) == nil)
        #expect(harness.error(Api.functions.account.updateStatus(offline: false), key: 1) == nil)
        harness.setProfilePhoto(key: 1, fileId: 9)
        if case .userStatusOnline? = try Self.fullUser(ann, seenBy: 2, harness).user.status {
        } else {
            Issue.record("Ann not online before the block")
        }
        #expect(try Self.fullUser(ann, seenBy: 2, harness).user.photo != nil)
        #expect(try Self.fullUser(ann, seenBy: 2, harness).full.profilePhoto != nil)
        let pushed = ChannelTests.Pushed()
        harness.updates.subscribe(.init(authKeyId: 1, sessionId: 99), connection: ObjectIdentifier(pushed)) {
            bytes in pushed.add(1, bytes)
        }
        harness.updates.subscribe(.init(authKeyId: 2, sessionId: 2), connection: ObjectIdentifier(pushed)) {
            bytes in pushed.add(2, bytes)
        }
        #expect(harness.error(Api.functions.contacts.block(id: ben.inputPeer), key: 1) == nil)
        func blockedPushes() -> [Api.Update.Cons_updatePeerBlocked] {
            pushed.updates(for: 1).flatMap { updates -> [Api.Update.Cons_updatePeerBlocked] in
                guard case .updates(let body) = updates else { return [] }
                return body.updates.compactMap {
                    if case .updatePeerBlocked(let blocked) = $0 { return blocked }
                    return nil
                }
            }
        }
        #expect(blockedPushes().count == 1 && blockedPushes().first?.blocked == true)
        #expect(Self.send("still there?", to: ann, from: 2, harness, id: 2) == "USER_IS_BLOCKED")
        #expect(Self.send("bye", to: ben, from: 1, harness, id: 3) == "YOU_BLOCKED_USER")
        let seen = try Self.fullUser(ann, seenBy: 2, harness)
        if case .userStatusEmpty? = seen.user.status {} else { Issue.record("\(String(describing: seen.user.status))") }
        #expect(seen.user.photo == nil && seen.full.profilePhoto == nil && !seen.full.blocked)
        #expect(try Self.fullUser(ben, seenBy: 1, harness).full.blocked)
        // Ann going offline and online again: not pushed to Ben.
        let before = pushed.updates(for: 2).count
        #expect(harness.error(Api.functions.account.updateStatus(offline: true), key: 1) == nil)
        #expect(harness.error(Api.functions.account.updateStatus(offline: false), key: 1) == nil)
        #expect(pushed.updates(for: 2).count == before)
        // Blocking again changes nothing and pushes nothing; unblocking undoes it.
        #expect(harness.error(Api.functions.contacts.block(id: ben.inputPeer), key: 1) == nil)
        #expect(harness.error(Api.functions.contacts.unblock(id: ben.inputPeer), key: 1) == nil)
        #expect(Self.send("back", to: ann, from: 2, harness, id: 4) == nil)
        #expect(Self.send("welcome", to: ben, from: 1, harness, id: 5) == nil)
        #expect(try !Self.fullUser(ben, seenBy: 1, harness).full.blocked)
        if case .userStatusOnline? = try Self.fullUser(ann, seenBy: 2, harness).user.status {
        } else {
            Issue.record("Ann's status hidden after the unblock")
        }
        #expect(blockedPushes().map(\.blocked) == [true, false], "one for the block, one for the unblock")
    }

    /// `contacts.getBlocked` pages newest first: `blockedSlice` with the total while more remain, `blocked` for the
    /// whole list. Only users can be blocked, never oneself; `my_stories_from` is accepted and changes nothing.
    @Test func theBlockListPagesNewestFirst() throws {
        let harness = try AttackHarness()
        let ann = try harness.signUp("9996620001", name: "Ann", key: 1)
        var others: [Account] = []
        for (index, name) in ["Ben", "Cid", "Dan"].enumerated() {
            others.append(try harness.signUp("999662000\(index + 2)", name: name, key: Int64(index + 2)))
        }
        for other in others {
            harness.clock.advance(10)
            #expect(harness.error(Api.functions.contacts.block(id: other.inputPeer), key: 1) == nil)
        }
        let first = try harness.result(
            Api.functions.contacts.getBlocked(offset: 0, limit: 2), as: Api.contacts.Blocked.self, key: 1)
        guard case .blockedSlice(let slice) = first else { Issue.record("\(first)"); return }
        #expect(slice.count == 3 && Self.blockedIds(first) == [others[2].id, others[1].id] && slice.users.count == 2)
        let rest = try harness.result(
            Api.functions.contacts.getBlocked(offset: 2, limit: 2), as: Api.contacts.Blocked.self, key: 1)
        #expect(Self.blockedIds(rest) == [others[0].id])
        if case .blockedSlice = rest {} else { Issue.record("a later page is a slice") }
        let whole = try harness.result(
            Api.functions.contacts.getBlocked(offset: 0, limit: 100), as: Api.contacts.Blocked.self, key: 1)
        guard case .blocked(let all) = whole else { Issue.record("\(whole)"); return }
        #expect(all.blocked.count == 3)
        guard case .peerBlocked(let newest) = try #require(all.blocked.first) else { Issue.record("\(all)"); return }
        #expect(newest.date == Int32(harness.clock.now))
        // Stories only: accepted, nothing blocked, that list empty.
        let cidPeer = others[1].inputPeer
        #expect(harness.error(Api.functions.contacts.unblock(myStoriesFrom: true, id: cidPeer), key: 1) == nil)
        let stories = try harness.result(
            Api.functions.contacts.getBlocked(myStoriesFrom: true, offset: 0, limit: 10), as: Api.contacts.Blocked.self,
            key: 1)
        #expect(Self.blockedIds(stories).isEmpty)
        #expect(
            Self.blockedIds(
                try harness.result(
                    Api.functions.contacts.getBlocked(offset: 0, limit: 100), as: Api.contacts.Blocked.self, key: 1)
            ).count == 3)
        #expect(harness.error(Api.functions.contacts.block(id: .inputPeerSelf), key: 1) == "CONTACT_ID_INVALID")
        #expect(harness.error(Api.functions.contacts.block(id: ann.inputPeer), key: 1) == "CONTACT_ID_INVALID")
        #expect(
            harness.error(Api.functions.contacts.block(id: .inputPeerChat(.init(chatId: 5))), key: 1)
                == "PEER_ID_INVALID")
        let forged = Api.InputPeer.inputPeerUser(.init(userId: others[0].id, accessHash: others[0].accessHash + 1))
        #expect(harness.error(Api.functions.contacts.block(id: forged), key: 1) == "PEER_ID_INVALID")
    }

    /// Blocks are stored: after a restart the list still names Ben and his message is still refused.
    @Test func aBlockSurvivesARestart() throws {
        let harness = try AttackHarness()
        let ann = try harness.signUp("9996620001", name: "Ann", key: 1)
        let ben = try harness.signUp("9996620002", name: "Ben", key: 2)
        #expect(harness.error(Api.functions.contacts.block(id: ben.inputPeer), key: 1) == nil)
        try harness.restart()
        let list = try harness.result(
            Api.functions.contacts.getBlocked(offset: 0, limit: 10), as: Api.contacts.Blocked.self, key: 1)
        #expect(Self.blockedIds(list) == [ben.id])
        #expect(Self.send("hi", to: ann, from: 2, harness, id: 1) == "USER_IS_BLOCKED")
    }
}
