import MTProtoServer
import ServerAPI
import TLRuntime
import TelegramApi
import Testing

/// Editing a scheduled message (`messages.editMessage` with `schedule_date`): its sender's sessions get
/// `updateNewScheduledMessage` with the new text and date, the list shows it, and it goes out as edited at its new
/// date; someone else's id, a date not in the future or over a year ahead, new media and an edit that changes
/// nothing are refused with Telegram's errors.
@Suite struct ScheduledEditTests {
    typealias Scheduled = ScheduledMessageTests

    static func edit(
        _ id: Int32, to peer: Api.InputPeer, text: String?, at date: Int32, media: Api.InputMedia? = nil
    ) -> Api.functions.messages.editMessage {
        Api.functions.messages.editMessage(peer: peer, id: id, message: text, media: media, scheduleDate: date)
    }

    /// Ann's "draft", scheduled to Ben ten minutes on (random id 5): the message her answer carries.
    static func scheduleDraft(
        to ben: AttackHarness.Account, _ harness: AttackHarness
    ) throws -> Api.Message.Cons_message {
        let answer = try Scheduled.schedule("draft", to: ben.inputPeer, in: 600, randomId: 5, key: 1, harness)
        guard case .updateNewScheduledMessage(let created)? = Scheduled.updates([answer]).last,
            case .message(let message) = created.message
        else { throw NotScheduled(answer: answer) }
        return message
    }

    /// The answer to scheduling carried no scheduled message.
    struct NotScheduled: Error { let answer: Api.Updates }

    @Test func aScheduledMessageIsEditedAndGoesOutAsEdited() throws {
        let harness = try AttackHarness()
        let (ann, ben) = try Scheduled.pair(harness)
        try Scheduled.signIn("9996620001", key: 11, harness)
        let pushed = ChannelTests.Pushed()
        for key: Int64 in [11, 2] { Scheduled.subscribe(pushed, key: key, harness) }
        let message = try Self.scheduleDraft(to: ben, harness)
        let later = Int32(harness.clock.now + 1200)
        let edited = try harness.result(
            Self.edit(message.id, to: ben.inputPeer, text: "final", at: later), as: Api.Updates.self, key: 1)
        for updates in [Scheduled.updates([edited]), Scheduled.updates(pushed.updates(for: 11))] {
            let changed = updates.compactMap { update -> Api.Message.Cons_message? in
                guard case .updateNewScheduledMessage(let new) = update, case .message(let got) = new.message,
                    got.message == "final"
                else { return nil }
                return got
            }
            #expect(changed.count == 1)
            #expect(changed.first?.id == message.id && changed.first?.date == later)
            #expect(changed.first?.fromScheduled == true)
        }
        #expect(try Scheduled.scheduled(ben.inputPeer, key: 1, harness) == ["final"])
        #expect(pushed.updates(for: 2).isEmpty)

        // The old date passes with nothing sent; the new one sends the edited text.
        let backend = try #require(harness.handler.backend)
        harness.clock.advance(600)
        #expect(backend.sendDueScheduledMessages() == 0)
        harness.clock.advance(600)
        #expect(backend.sendDueScheduledMessages() == 1)
        #expect(try Scheduled.history(ann.inputPeer, key: 2, harness) == ["final"])
    }

    @Test func editsOfScheduledMessagesAreChecked() throws {
        let harness = try AttackHarness()
        let (ann, ben) = try Scheduled.pair(harness)
        let message = try Self.scheduleDraft(to: ben, harness)
        let now = Int32(harness.clock.now)
        // Ben has no scheduled message of that id (Ann's are hers); nor has Ann one in another chat.
        #expect(
            harness.error(Self.edit(message.id, to: ann.inputPeer, text: "x", at: now + 600), key: 2)
                == "MESSAGE_ID_INVALID")
        #expect(
            harness.error(Self.edit(message.id + 1, to: ben.inputPeer, text: "x", at: now + 600), key: 1)
                == "MESSAGE_ID_INVALID")
        #expect(
            harness.error(Self.edit(message.id, to: ben.inputPeer, text: "x", at: now), key: 1)
                == "SCHEDULE_DATE_INVALID")
        #expect(
            harness.error(Self.edit(message.id, to: ben.inputPeer, text: "x", at: now + 400 * 86_400), key: 1)
                == "SCHEDULE_DATE_TOO_LATE")
        let dice = Api.InputMedia.inputMediaDice(.init(emoticon: "🎲"))
        #expect(
            harness.error(Self.edit(message.id, to: ben.inputPeer, text: nil, at: now + 600, media: dice), key: 1)
                == "MEDIA_NOT_MODIFIABLE")
        #expect(
            harness.error(Self.edit(message.id, to: ben.inputPeer, text: "draft", at: message.date), key: 1)
                == "MESSAGE_NOT_MODIFIED")
        #expect(try Scheduled.scheduled(ben.inputPeer, key: 1, harness) == ["draft"])
    }
}
