import Foundation
import MTProtoServer
import ServerAPI
import TLRuntime
import TelegramApi
import Testing

/// Scheduled messages (core.telegram.org "Scheduled messages") on a clock the test moves: stored apart with ids of
/// their own and delivered to nobody, sent for real when their date comes (the recipient gets a normal message, the
/// sender `updateDeleteScheduledMessages` with `sent_messages`), kept across a restart and sent on start when due
/// while the server was down, bounded (100 per chat, 365 days ahead), and seen and changed by their sender only.
@Suite struct ScheduledMessageTests {
    typealias Account = AttackHarness.Account

    static func subscribe(_ pushed: ChannelTests.Pushed, key: Int64, _ harness: AttackHarness) {
        harness.updates.subscribe(.init(authKeyId: key, sessionId: key), connection: ObjectIdentifier(pushed)) {
            bytes in pushed.add(key, bytes)
        }
    }

    static func schedule(
        _ text: String, to peer: Api.InputPeer, in seconds: Double, randomId: Int64, key: Int64,
        _ harness: AttackHarness
    ) throws -> Api.Updates {
        try harness.result(
            Api.functions.messages.sendMessage(
                peer: peer, message: text, randomId: randomId,
                scheduleDate: Int32(harness.clock.now + seconds)), as: Api.Updates.self, key: key)
    }

    static func messages(_ answer: Api.messages.Messages) -> [Api.Message.Cons_message] {
        let list: [Api.Message]
        switch answer {
        case .messages(let body): list = body.messages
        case .messagesSlice(let body): list = body.messages
        case .channelMessages(let body): list = body.messages
        case .messagesNotModified: list = []
        }
        return list.compactMap {
            if case .message(let message) = $0 { return message }
            return nil
        }
    }

    static func scheduled(_ peer: Api.InputPeer, key: Int64, _ harness: AttackHarness) throws -> [String] {
        messages(
            try harness.result(
                Api.functions.messages.getScheduledHistory(peer: peer, hash: 0), as: Api.messages.Messages.self,
                key: key)
        ).map(\.message)
    }

    static func history(_ peer: Api.InputPeer, key: Int64, _ harness: AttackHarness) throws -> [String] {
        messages(
            try harness.result(
                Api.functions.messages.getHistory(
                    peer: peer, offsetId: 0, offsetDate: 0, addOffset: 0, limit: 50, maxId: 0, minId: 0, hash: 0),
                as: Api.messages.Messages.self, key: key)
        ).map(\.message)
    }

    static func updates(_ list: [Api.Updates]) -> [Api.Update] {
        list.flatMap { updates -> [Api.Update] in
            if case .updates(let body) = updates { return body.updates }
            return []
        }
    }

    /// Signs `phone`'s existing account in on another device (key `key`).
    static func signIn(_ phone: String, key: Int64, _ harness: AttackHarness) throws {
        guard
            case .sentCode(let code) = try harness.result(
                AttackHarness.sendCode(phone), as: Api.auth.SentCode.self, key: key)
        else { throw AttackHarness.Refused(response: .notImplemented) }
        let auth = try harness.result(
            Api.functions.auth.signIn(phoneNumber: phone, phoneCodeHash: code.phoneCodeHash, phoneCode: "22222"),
            as: Api.auth.Authorization.self, key: key)
        guard case .authorization = auth else { throw AttackHarness.Refused(response: .notImplemented) }
    }

    static func pair(_ harness: AttackHarness) throws -> (Account, Account) {
        (
            try harness.signUp("9996620001", name: "Ann", key: 1),
            try harness.signUp("9996620002", name: "Ben", key: 2)
        )
    }

    /// Scheduled for ten minutes on: the answer ties the random id to a scheduled id, Ben gets nothing and sees
    /// nothing; at its time Ben gets the message and Ann's sessions are told which message it became.
    @Test func aScheduledMessageIsSentAtItsTime() throws {
        let harness = try AttackHarness()
        let (ann, ben) = try Self.pair(harness)
        try Self.signIn("9996620001", key: 11, harness)
        let pushed = ChannelTests.Pushed()
        for key: Int64 in [1, 11, 2] { Self.subscribe(pushed, key: key, harness) }
        let due = Int32(harness.clock.now + 600)
        let answer = try Self.schedule("later", to: ben.inputPeer, in: 600, randomId: 77, key: 1, harness)
        let answered = Self.updates([answer])
        guard case .updateMessageID(let identified)? = answered.first,
            case .updateNewScheduledMessage(let created)? = answered.last,
            case .message(let message) = created.message
        else {
            Issue.record("\(answer)"); return
        }
        #expect(identified.randomId == 77 && identified.id == message.id)
        #expect(message.fromScheduled && message.out && message.date == due && message.message == "later")
        // Ann's other device hears of it; Ben hears nothing and has nothing.
        #expect(
            Self.updates(pushed.updates(for: 11)).contains {
                if case .updateNewScheduledMessage = $0 { return true }
                return false
            })
        #expect(pushed.updates(for: 2).isEmpty)
        #expect(try Self.history(ann.inputPeer, key: 2, harness).isEmpty)
        #expect(try Self.scheduled(ben.inputPeer, key: 11, harness) == ["later"])
        // Ben cannot see Ann's scheduled messages.
        #expect(try Self.scheduled(ann.inputPeer, key: 2, harness).isEmpty)
        let backend = try #require(harness.handler.backend)
        harness.clock.advance(599)
        #expect(backend.sendDueScheduledMessages() == 0)
        #expect(try Self.history(ann.inputPeer, key: 2, harness).isEmpty)
        harness.clock.advance(1)
        backend.sendDueScheduledMessages()
        #expect(try Self.history(ann.inputPeer, key: 2, harness) == ["later"])
        #expect(try Self.scheduled(ben.inputPeer, key: 1, harness).isEmpty)
        // Ben is pushed a normal message; both of Ann's sessions the deletion with the id it was sent as.
        // (The chat is new to Ben: the full form, as Telegram sends a message from someone not yet known.)
        #expect(
            Self.updates(pushed.updates(for: 2)).contains {
                guard case .updateNewMessage(let new) = $0, case .message(let got) = new.message else { return false }
                return got.message == "later" && !got.out && !got.fromScheduled
            })
        let sentId = try #require(
            Self.messages(
                try harness.result(
                    Api.functions.messages.getHistory(
                        peer: ben.inputPeer, offsetId: 0, offsetDate: 0, addOffset: 0, limit: 1, maxId: 0, minId: 0,
                        hash: 0), as: Api.messages.Messages.self, key: 1)
            ).first?.id)
        for key: Int64 in [1, 11] {
            let deletions = Self.updates(pushed.updates(for: key)).compactMap { update in
                if case .updateDeleteScheduledMessages(let deleted) = update { return deleted }
                return nil
            }
            #expect(deletions.count == 1)
            #expect(deletions.first?.messages == [message.id] && deletions.first?.sentMessages == [sentId])
        }
    }

    /// Scheduled messages are stored: after a restart the one not yet due is still listed, and one that came due
    /// while the server was down is sent when it starts.
    @Test func scheduledMessagesSurviveARestartAndDueOnesGoOutOnStart() throws {
        let harness = try AttackHarness()
        let (ann, ben) = try Self.pair(harness)
        _ = try Self.schedule("soon", to: ben.inputPeer, in: 100, randomId: 1, key: 1, harness)
        _ = try Self.schedule("next week", to: ben.inputPeer, in: 7 * 86_400, randomId: 2, key: 1, harness)
        try harness.restart()
        #expect(try Self.scheduled(ben.inputPeer, key: 1, harness) == ["next week", "soon"])
        harness.clock.advance(200)
        try harness.restart()
        #expect(try Self.history(ann.inputPeer, key: 2, harness) == ["soon"])
        #expect(try Self.scheduled(ben.inputPeer, key: 1, harness) == ["next week"])
        // A new scheduled id never repeats one given before the restart.
        let answer = try Self.schedule("again", to: ben.inputPeer, in: 50, randomId: 3, key: 1, harness)
        guard case .updateMessageID(let identified)? = Self.updates([answer]).first else {
            Issue.record("\(answer)"); return
        }
        #expect(identified.id == 3)
    }

    /// At most 100 per chat, at most 365 days ahead; a date not in the future sends at once.
    @Test func boundsAndPastDates() throws {
        let harness = try AttackHarness()
        let (ann, ben) = try Self.pair(harness)
        let tooLate = Api.functions.messages.sendMessage(
            peer: ben.inputPeer, message: "x", randomId: 1, scheduleDate: Int32(harness.clock.now + 366 * 86_400))
        #expect(harness.error(tooLate, key: 1) == "SCHEDULE_DATE_TOO_LATE")
        for index in 0..<100 {
            _ = try Self.schedule(
                "m\(index)", to: ben.inputPeer, in: 3600, randomId: Int64(10 + index), key: 1, harness)
        }
        let oneMore = Api.functions.messages.sendMessage(
            peer: ben.inputPeer, message: "x", randomId: 500, scheduleDate: Int32(harness.clock.now + 3600))
        #expect(harness.error(oneMore, key: 1) == "SCHEDULE_TOO_MUCH")
        // Another chat has its own hundred: Ann to herself.
        _ = try Self.schedule("note", to: .inputPeerSelf, in: 3600, randomId: 501, key: 1, harness)
        // A date in the past: sent now, as a normal message.
        let past = try harness.result(
            Api.functions.messages.sendMessage(
                peer: ben.inputPeer, message: "now", randomId: 502, scheduleDate: Int32(harness.clock.now - 60)),
            as: Api.Updates.self, key: 1)
        guard case .updateShortSentMessage = past else { Issue.record("\(past)"); return }
        #expect(try Self.history(ann.inputPeer, key: 2, harness) == ["now"])
    }

    /// Deleting drops a scheduled message for good; sending one now delivers it at once; a stranger naming the
    /// sender's ids reaches nothing.
    @Test func deleteSendNowAndStrangers() throws {
        let harness = try AttackHarness()
        let (ann, ben) = try Self.pair(harness)
        _ = try harness.signUp("9996620003", name: "Cid", key: 3)
        _ = try Self.schedule("one", to: ben.inputPeer, in: 600, randomId: 1, key: 1, harness)
        _ = try Self.schedule("two", to: ben.inputPeer, in: 600, randomId: 2, key: 1, harness)
        // Cid names ids 1 and 2 (Ann's): his ids are his own, there is nothing there; nothing changes for Ann.
        let got = try harness.result(
            Api.functions.messages.getScheduledMessages(peer: .inputPeerSelf, id: [1, 2]),
            as: Api.messages.Messages.self, key: 3)
        #expect(Self.messages(got).isEmpty)
        _ = try harness.result(
            Api.functions.messages.deleteScheduledMessages(peer: .inputPeerSelf, id: [1, 2]), as: Api.Updates.self,
            key: 3)
        #expect(try Self.scheduled(ben.inputPeer, key: 1, harness) == ["two", "one"])
        // Ann reads them by id, deletes one and sends the other now.
        let byId = try harness.result(
            Api.functions.messages.getScheduledMessages(peer: ben.inputPeer, id: [2, 9]),
            as: Api.messages.Messages.self, key: 1)
        #expect(Self.messages(byId).map(\.message) == ["two"])
        let deleted = try harness.result(
            Api.functions.messages.deleteScheduledMessages(peer: ben.inputPeer, id: [1]), as: Api.Updates.self, key: 1)
        guard case .updateDeleteScheduledMessages(let gone)? = Self.updates([deleted]).first else {
            Issue.record("\(deleted)"); return
        }
        #expect(gone.messages == [1] && gone.sentMessages == nil)
        let sent = try harness.result(
            Api.functions.messages.sendScheduledMessages(peer: ben.inputPeer, id: [2]), as: Api.Updates.self, key: 1)
        let sentUpdates = Self.updates([sent])
        guard case .updateDeleteScheduledMessages(let moved)? = sentUpdates.first,
            case .updateNewMessage(let new)? = sentUpdates.last, case .message(let message) = new.message
        else {
            Issue.record("\(sent)"); return
        }
        #expect(moved.messages == [2] && moved.sentMessages == [message.id] && message.message == "two")
        #expect(try Self.history(ann.inputPeer, key: 2, harness) == ["two"])
        #expect(try Self.scheduled(ben.inputPeer, key: 1, harness).isEmpty)
        harness.clock.advance(601)
        #expect(try #require(harness.handler.backend).sendDueScheduledMessages() == 0)
        #expect(try Self.history(ann.inputPeer, key: 2, harness) == ["two"])
        #expect(
            harness.error(Api.functions.messages.sendScheduledMessages(peer: ben.inputPeer, id: [2]), key: 1)
                == "MESSAGE_ID_INVALID")
    }
}
