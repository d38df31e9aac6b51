import Foundation
import Postbox
import SyncCore
import TelegramCore
import TestVectors
import Testing

/// kurigram 2.2.26 (the Pyrogram family, layer 229) on the other side of our account through a real tg-server, one
/// kurigram process for every feature (Tests/Fixtures/kurigram/core_peer.py): contacts (`import_contacts`,
/// `get_contacts`), presence (`update_status`, `get_users`), typing (`send_chat_action`), read receipts
/// (`read_chat_history`), reactions (`send_reaction`, `get_messages`), a draft (`messages.saveDraft`,
/// `getAllDrafts`), notify settings (`update_chat_notifications`), a scheduled message (`schedule_date`), forwards
/// (`forward_messages`) and blocking (`block_user`, `unblock_user`), each seen from both sides where it has two.
@Suite(.serialized) struct KurigramPeerTests {
    struct Hello: Decodable {
        let user_id: Int64
        let target: Int64
        let hi: Int32
        let imported: [Item]
        let contacts: [[Item]]
    }
    struct Presence: Decodable {
        let pushed: [Item]
        let status: String?
        let last_online: Int32?
    }
    struct Typing: Decodable { let action: String }
    struct Read: Decodable {
        let read_me: Int32
        let read: Bool
        let outbox_max_id: Int32
    }
    struct Reactions: Decodable {
        let sent: Bool
        let pushed: [[Item]]
        let fetched: [[Item]]
    }
    struct Drafts: Decodable {
        let saved: Bool
        let answer: String
        let drafts: [[Item]]
    }
    struct Notify: Decodable {
        let updated: Bool
        let answer: String
        let mute_until: Int32?
        let asked: Int32
        let show_previews: Bool?
        let silent: Bool?
    }
    struct Scheduled: Decodable {
        let date: Int32
        let sent: [Item]
        let listed: [[Item]]
        let sent_as: [Int64]
        let left: Int
        let last: [Item]
    }
    struct Forwards: Decodable {
        let forwarded: [Item]
        let original_date: Int64
        let got: [Item]
        let hi_date: Int64
    }
    struct Blocked: Decodable {
        let blocked: Bool
        let senders: [Int64]
    }
    struct Unblocked: Decodable {
        let unblocked: Bool
        let senders: [Int64]
    }
    struct Back: Decodable { let sender: Int64 }
    struct Deleted: Decodable {
        let first: [Item]?
        let again: Item?
    }

    /// One value of a mixed JSON list.
    enum Item: Decodable, Equatable {
        case number(Int64)
        case text(String)
        case flag(Bool)
        case null

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let flag = try? container.decode(Bool.self) {
                self = .flag(flag)
            } else if let number = try? container.decode(Int64.self) {
                self = .number(number)
            } else {
                self = .text(try container.decode(String.self))
            }
        }
    }

    static func send(_ account: Account, to peer: PeerId, _ message: EnqueueMessage) throws {
        _ = try account.postbox.transactionSync { tx in
            try enqueueMessages(
                transaction: tx, accountPeerId: account.peerId, peerId: peer, messages: [message],
                now: Int32(Date().timeIntervalSince1970))
        }
    }

    /// Our stored message in the chat with `peer` that satisfies `condition`, once there is one.
    static func stored(
        _ what: String, _ account: Account, with peer: PeerId, timeout: Double = 30,
        _ condition: @escaping (Message) -> Bool
    ) async throws -> Message {
        var found: Message?
        try await AccountIntegrationTests.wait(what, timeout: timeout) {
            found = try AccountIntegrationTests.storedMessages(account, with: peer).first(where: condition)
            return found != nil
        }
        return try #require(found)
    }

    static func sent(_ text: String) -> (Message) -> Bool {
        { $0.text == text && $0.id.namespace == Namespaces.Message.cloud && !$0.flags.contains(.unsent) }
    }

    @Test func kurigramOnTheOtherSideOfEachFeature() async throws {
        let started = Date()
        let world = try await AccountIntegrationTests.World(transport: .sockets)
        let ann = try await AccountIntegrationTests.signUp(world, phone: "9996622951", name: "Ann")
        ann.start()
        try await AccountIntegrationTests.wait("Ann's first state") { ann.stateManager.hasCaughtUp }
        let peer = try KurigramPeer(world, phone: "9996622952", targetPhone: "9996622951")
        func now() -> Int32 { Int32(Date().timeIntervalSince1970) }

        // Contacts: kurigram imports Ann by her number and lists her.
        let hello = try await peer.step("hello", as: Hello.self)
        let kira = PeerId.user(hello.user_id)
        #expect(hello.target == ann.peerId.id.rawValue)
        #expect(hello.imported == [.text("ImportedContacts"), .number(1)])
        #expect(hello.contacts == [[.number(hello.target), .text("Ann"), .flag(true)]])
        // Kira's "hi" as Ann stores it (an id of Ann's own box; `hello.hi` is Kira's).
        let hiId = try await Self.stored("Kira's hi", ann, with: kira) {
            $0.text == "hi" && $0.flags.contains(.incoming)
        }.id

        // Presence: kurigram's update_status reaches our presence table; ours reaches kurigram, pushed and read.
        try await AccountIntegrationTests.wait("Kira online in Ann's presence table", timeout: 30) {
            try ann.presence(of: kira)?.isOnline(at: now()) == true
        }
        try await ann.updateStatus(offline: false)
        let wentOffline = now()
        try await ann.updateStatus(offline: true)
        let presence = try await peer.step("presence", as: Presence.self)
        #expect(presence.pushed.first == .flag(true))
        if case .number(let wasOnline)? = presence.pushed.last {
            #expect(abs(wasOnline - Int64(wentOffline)) <= 5, "\(presence)")
        } else {
            Issue.record("no time in the pushed offline status: \(presence)")
        }
        #expect(presence.status == "OFFLINE", "\(presence)")
        #expect(abs(Int64(presence.last_online ?? 0) - Int64(wentOffline)) <= 5, "\(presence)")
        try await AccountIntegrationTests.wait("Kira offline in Ann's presence table", timeout: 30) {
            guard case .offline? = try ann.presence(of: kira)?.status else { return false }
            return true
        }

        // Typing: kurigram's send_chat_action is Kira typing here; Ann's reaches kurigram. (Only now: typing would
        // bring Kira back online before the wait above saw her offline.)
        try peer.cue("type")
        try await AccountIntegrationTests.wait("Kira typing, seen by Ann", timeout: 30) {
            ann.activities.typingUsers(in: kira) == [kira]
        }
        try await ann.sendTyping(in: kira)
        #expect(try await peer.step("typing", as: Typing.self).action == "SendMessageTypingAction")
        // kurigram's ChatAction.CANCEL (sent before that line) ends Kira's typing here.
        try await AccountIntegrationTests.wait("Kira's typing cancelled", timeout: 30) {
            ann.activities.typingUsers(in: kira).isEmpty
        }

        // Read receipts: kurigram's read_chat_history moves our outgoing read mark; our read reaches kurigram.
        try Self.send(ann, to: kira, EnqueueMessage(text: "read me"))
        let readMe = try await Self.stored("Ann's message sent", ann, with: kira, Self.sent("read me")).id
        try await AccountIntegrationTests.wait("Ann's outgoing read mark past her message", timeout: 30) {
            let state = try ann.postbox.readTransactionSync { try $0.getCombinedPeerReadState(kira) }
            return (state?.states[Namespaces.Message.cloud]?.maxOutgoingReadId ?? 0) >= readMe.id
        }
        try await ann.markRead(peerId: kira, upTo: hiId.id)
        let read = try await peer.step("read", as: Read.self)
        #expect(read.read && read.outbox_max_id == hello.hi)

        // Reactions: kurigram's 👍 on our message is stored here, not as ours; our ❤ shows in its get_messages.
        try peer.cue("react")
        try await AccountIntegrationTests.wait("Kira's 👍 on Ann's message", timeout: 30) {
            try ann.postbox.readTransactionSync { try $0.getMessage(readMe) }?.reactionsAttribute?.reactions
                == [.init(emoticon: "👍", count: 1, chosenOrder: nil)]
        }
        try await ann.sendReaction(hiId, emoticons: ["❤"])
        let reactions = try await peer.step("reactions", as: Reactions.self)
        #expect(reactions.sent && reactions.pushed == [[.text("ReactionEmoji"), .number(1)]])
        #expect(reactions.fetched == [[.text("❤"), .number(1), .null]], "\(reactions)")

        // A draft (one account's own): saved and listed by kurigram's raw calls.
        let drafts = try await peer.step("drafts", as: Drafts.self)
        #expect(drafts.saved && drafts.answer == "Updates")
        #expect(
            drafts.drafts == [
                [.text("UpdateDraftMessage"), .number(hello.target), .text("DraftMessage"), .text("a draft")]
            ])

        // Notify settings (one account's own): update_chat_notifications read back with account.getNotifySettings.
        let notify = try await peer.step("notify", as: Notify.self)
        #expect(notify.updated && notify.answer == "PeerNotifySettings")
        #expect(
            notify.mute_until == notify.asked && notify.show_previews == false && notify.silent == true, "\(notify)")

        // A scheduled message: kurigram parses its answer and lists it; it reaches Ann at its time, dated then.
        let scheduled = try await peer.step("scheduled", as: Scheduled.self)
        #expect(scheduled.sent == [.text("later"), .number(Int64(scheduled.date)), .flag(true)], "\(scheduled)")
        #expect(scheduled.listed.map { $0.last } == [.text("later")])
        // kurigram saw it leave its scheduled list as the chat's message, its own, dated at its time.
        #expect(scheduled.left == 0 && scheduled.sent_as.count == 1, "\(scheduled)")
        #expect(
            scheduled.last == [
                .number(scheduled.sent_as.first ?? 0), .text("later"), .flag(true), .number(Int64(scheduled.date)),
            ])
        let later = try await Self.stored("Kira's scheduled message", ann, with: kira) { $0.text == "later" }
        #expect(now() >= scheduled.date && later.timestamp == scheduled.date, "\(later.timestamp) \(scheduled.date)")

        // Forwards: kurigram forwards Ann's message back (kurigram parses the forward; Ann sees who wrote it); Ann
        // forwards Kira's hi to her, and kurigram's handler sees its origin.
        let forwarded = try await Self.stored("Kira's forward", ann, with: kira) {
            $0.text == "read me" && $0.flags.contains(.incoming)
        }
        let source = forwarded.attributes.compactMap { $0 as? ForwardSourceInfoAttribute }.first
        #expect(source?.authorId == ann.peerId, "\(forwarded.attributes)")
        let original = try await Self.stored("Ann's read me", ann, with: kira) { $0.id == readMe }
        #expect(source?.date == original.timestamp)
        try Self.send(ann, to: kira, .forward(hiId))
        let forwards = try await peer.step("forwards", as: Forwards.self)
        #expect(
            forwards.forwarded == [
                .text("read me"), .text("MessageOriginUser"), .number(hello.target), .number(forwards.original_date),
            ])
        #expect(
            forwards.got == [
                .text("hi"), .text("MessageOriginUser"), .number(kira.id.rawValue), .number(forwards.hi_date),
            ])

        // Blocking: kurigram blocks Ann, whose message is refused with Telegram's error; unblocked, it goes through.
        let blocked = try await peer.step("blocked", as: Blocked.self)
        #expect(blocked.blocked && blocked.senders == [hello.target])
        try Self.send(ann, to: kira, EnqueueMessage(text: "hello?"))
        _ = try await Self.stored("Ann's message refused", ann, with: kira) { message in
            message.text == "hello?" && message.flags.contains(.failed)
                && message.attributes.contains {
                    ($0 as? SendFailureAttribute).map { $0.reason == .blocked && $0.detail == "USER_IS_BLOCKED" }
                        ?? false
                }
        }
        try peer.cue("unblock")
        let unblocked = try await peer.step("unblocked", as: Unblocked.self)
        #expect(unblocked.unblocked && unblocked.senders.isEmpty)
        try Self.send(ann, to: kira, EnqueueMessage(text: "back"))
        _ = try await Self.stored("Ann's message after the unblock sent", ann, with: kira, Self.sent("back"))
        #expect(try await peer.step("back", as: Back.self).sender == hello.target)
        // kurigram's delete_contacts: the user removed (the answer's updatePeerSettings), then None (no updates).
        let deleted = try await peer.step("deleted", as: Deleted.self)
        #expect(deleted.first == [.number(hello.target), .flag(false)] && (deleted.again ?? .null) == .null)

        let result = await peer.finish()
        #expect(result.succeeded, "\(result.errorOutput.suffix(3000))")
        #expect(ann.stateManager.statistics.unhandledUpdates.isEmpty, "\(ann.stateManager.statistics.unhandledUpdates)")
        try await world.close([ann])
        print("KurigramPeerTests: \(Date().timeIntervalSince(started)) s")
    }
}
