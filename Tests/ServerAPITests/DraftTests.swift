import Foundation
import MTProtoServer
import ServerAPI
import TLRuntime
import TelegramApi
import Testing

/// Drafts (core.telegram.org "Message drafts"): `messages.saveDraft` kept per account and chat, pushed to the account's
/// other devices as `updateDraftMessage`, shown in `dialog.draft` and `messages.getAllDrafts`, cleared by an empty
/// message, by sending to the chat and by `messages.clearAllDrafts`; bounded like a message; kept across a restart.
@Suite struct DraftTests {
    typealias Harness = ServerBackendTests.Harness

    static func error(_ response: RPCResponse) -> String? { ServerBackendTests.error(response) }

    /// Signs `phone`'s existing account in on another device (key `key`).
    static func signIn(_ harness: Harness, _ phone: String, key: Int64) async throws {
        let sent = try await harness.result(
            Api.functions.auth.sendCode(phoneNumber: phone, apiId: 1, apiHash: "", settings: .codeSettings(.init())),
            as: Api.auth.SentCode.self, key: key, dc: 2)
        guard case .sentCode(let code) = sent else { throw ServerBackendTests.Failure(response: .notImplemented) }
        let digit = String(Array(phone)[5])
        let auth = try await harness.result(
            Api.functions.auth.signIn(
                phoneNumber: phone, phoneCodeHash: code.phoneCodeHash, phoneCode: String(repeating: digit, count: 5)),
            as: Api.auth.Authorization.self, key: key, dc: 2)
        guard case .authorization = auth else { throw ServerBackendTests.Failure(response: .notImplemented) }
    }

    static func draftUpdates(_ updates: [Api.Updates]) -> [Api.Update.Cons_updateDraftMessage] {
        updates.flatMap { updates -> [Api.Update.Cons_updateDraftMessage] in
            let list: [Api.Update]
            switch updates {
            case .updates(let body): list = body.updates
            case .updatesCombined(let body): list = body.updates  // several at once, in the seq sequence
            default: return []
            }
            return list.compactMap {
                if case .updateDraftMessage(let draft) = $0 { return draft }
                return nil
            }
        }
    }

    static func text(_ draft: Api.DraftMessage?) -> String? {
        if case .draftMessage(let body)? = draft { return body.message }
        return nil
    }

    /// The caller's dialog with `peerId` (a user).
    static func dialogDraft(_ harness: Harness, key: Int64, userId: Int64) async throws -> Api.DraftMessage? {
        let dialogs = try await harness.result(
            Api.functions.messages.getDialogs(
                offsetDate: 0, offsetId: 0, offsetPeer: .inputPeerEmpty, limit: 50, hash: 0),
            as: Api.messages.Dialogs.self, key: key, dc: 2)
        let list: [Api.Dialog]
        switch dialogs {
        case .dialogs(let body): list = body.dialogs
        case .dialogsSlice(let body): list = body.dialogs
        case .dialogsNotModified: list = []
        }
        for case .dialog(let dialog) in list {
            if case .peerUser(let user) = dialog.peer, user.userId == userId { return dialog.draft }
        }
        return nil
    }

    @Test func aDraftReachesTheOtherDeviceAndSendingClearsIt() async throws {
        let harness = try Harness()
        _ = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        let ben = try await harness.signUp("9996620002", name: "Ben", key: 2, dc: 2)
        try await Self.signIn(harness, "9996620001", key: 11)
        let toBen = Api.InputPeer.inputPeerUser(.init(userId: ben.id, accessHash: ben.accessHash))
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.sendMessage(peer: toBen, message: "hi", randomId: 1), key: 1, dc: 2))
                == nil)
        let pushed = ChannelTests.Pushed()
        // Each device's session is the one its calls come from (the harness calls with session id = key): the
        // caller's own session gets its answer, never a push.
        for key: Int64 in [1, 11, 2] {
            harness.updates.subscribe(.init(authKeyId: key, sessionId: key), connection: ObjectIdentifier(pushed)) {
                bytes in pushed.add(key, bytes)
            }
        }
        // Too long, or with media: refused.
        let long = String(repeating: "x", count: 4097)
        #expect(
            Self.error(await harness.call(Api.functions.messages.saveDraft(peer: toBen, message: long), key: 1, dc: 2))
                == "MESSAGE_TOO_LONG")
        // Ann types on device 1: device 11 gets it, device 1 (the caller) too — the change is in the seq sequence,
        // which the call's answer does not carry — and Ben nothing.
        let bold = Api.MessageEntity.messageEntityBold(.init(offset: 0, length: 4))
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.saveDraft(
                        noWebpage: true, replyTo: .inputReplyToMessage(.init(replyToMsgId: 1)), peer: toBen,
                        message: "half written", entities: [bold]), key: 1, dc: 2)) == nil)
        let other = try #require(Self.draftUpdates(pushed.updates(for: 11)).first)
        guard case .draftMessage(let draft) = other.draft else { Issue.record("\(other.draft)"); return }
        #expect(draft.message == "half written" && draft.noWebpage && draft.entities?.count == 1)
        if case .inputReplyToMessage(let reply)? = draft.replyTo {
            #expect(reply.replyToMsgId == 1)
        } else {
            Issue.record("no reply")
        }
        if case .peerUser(let peer) = other.peer { #expect(peer.userId == ben.id) } else { Issue.record("peer") }
        #expect(
            Self.draftUpdates(pushed.updates(for: 2)).isEmpty && Self.draftUpdates(pushed.updates(for: 1)).count == 1)
        // In the dialog and in getAllDrafts, on either device.
        #expect(Self.text(try await Self.dialogDraft(harness, key: 11, userId: ben.id)) == "half written")
        let all = try await harness.result(Api.functions.messages.getAllDrafts(), as: Api.Updates.self, key: 11, dc: 2)
        #expect(Self.draftUpdates([all]).map { Self.text($0.draft) } == ["half written"])
        // Ben cannot see it.
        let benAll = try await harness.result(
            Api.functions.messages.getAllDrafts(), as: Api.Updates.self, key: 2, dc: 2)
        #expect(Self.draftUpdates([benAll]).isEmpty)
        // Sending to Ben clears it: device 11 gets draftMessageEmpty, the dialog has none.
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.sendMessage(peer: toBen, message: "done", randomId: 2), key: 1, dc: 2))
                == nil)
        let cleared = Self.draftUpdates(pushed.updates(for: 11))
        #expect(cleared.count == 2)
        if case .draftMessageEmpty = cleared.last?.draft {} else { Issue.record("\(String(describing: cleared.last))") }
        #expect(try await Self.dialogDraft(harness, key: 1, userId: ben.id) == nil)
        // An empty message clears too; clearAllDrafts clears everything.
        #expect(
            Self.error(
                await harness.call(Api.functions.messages.saveDraft(peer: toBen, message: "again"), key: 11, dc: 2))
                == nil)
        #expect(Self.draftUpdates(pushed.updates(for: 1)).last.map { Self.text($0.draft) } == "again")
        #expect(
            Self.error(await harness.call(Api.functions.messages.saveDraft(peer: toBen, message: ""), key: 1, dc: 2))
                == nil)
        #expect(try await Self.dialogDraft(harness, key: 1, userId: ben.id) == nil)
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.saveDraft(peer: .inputPeerSelf, message: "note"), key: 1, dc: 2))
                == nil)
        let before = Self.draftUpdates(pushed.updates(for: 11)).count
        #expect(Self.error(await harness.call(Api.functions.messages.clearAllDrafts(), key: 1, dc: 2)) == nil)
        let afterClear = Self.draftUpdates(pushed.updates(for: 11))
        #expect(afterClear.count == before + 1)
        if case .draftMessageEmpty = afterClear.last?.draft {} else { Issue.record("not cleared") }
        let none = try await harness.result(Api.functions.messages.getAllDrafts(), as: Api.Updates.self, key: 1, dc: 2)
        #expect(Self.draftUpdates([none]).isEmpty)
    }

    /// A stranger's input peer without the access hash is refused; a draft survives a restart.
    @Test func draftsAreTheirOwnersAndSurviveARestart() throws {
        let harness = try AttackHarness()
        let ann = try harness.signUp("9996620001", name: "Ann", key: 1)
        let ben = try harness.signUp("9996620002", name: "Ben", key: 2)
        let forged = Api.InputPeer.inputPeerUser(.init(userId: ann.id, accessHash: ann.accessHash ^ 1))
        #expect(
            harness.error(Api.functions.messages.saveDraft(peer: forged, message: "x"), key: 2) == "PEER_ID_INVALID")
        #expect(
            harness.error(
                Api.functions.messages.saveDraft(peer: .inputPeerChat(.init(chatId: 77)), message: "x"), key: 2)
                == "CHAT_ID_INVALID")
        #expect(harness.error(Api.functions.messages.saveDraft(peer: ben.inputPeer, message: "kept"), key: 1) == nil)
        try harness.restart()
        let all = try harness.result(Api.functions.messages.getAllDrafts(), as: Api.Updates.self, key: 1)
        #expect(Self.draftUpdates([all]).map { Self.text($0.draft) } == ["kept"])
    }
}
