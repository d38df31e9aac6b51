import Foundation
import MTProtoCore
import MTProtoServer
import ServerAPI
import TLRuntime
import TelegramApi
import Testing

/// Notify settings (core.telegram.org `account.updateNotifySettings`, `account.getNotifySettings`,
/// `account.resetNotifySettings`): kept per account for a chat or a kind of chat, pushed to the account's other
/// devices as `updateNotifySettings`, shown in `dialog.notify_settings` and `userFull.notify_settings`, the owner's
/// alone, kept across a restart; a muted chat's pushes carry nothing to show.
@Suite struct NotifySettingsTests {
    typealias Harness = ServerBackendTests.Harness

    static func error(_ response: RPCResponse) -> String? { ServerBackendTests.error(response) }

    static func notifyUpdates(_ updates: [Api.Updates]) -> [Api.Update.Cons_updateNotifySettings] {
        updates.flatMap { updates -> [Api.Update.Cons_updateNotifySettings] in
            let list: [Api.Update]
            switch updates {
            case .updates(let body): list = body.updates
            case .updatesCombined(let body): list = body.updates  // several at once, in the seq sequence
            default: return []
            }
            return list.compactMap {
                if case .updateNotifySettings(let settings) = $0 { return settings }
                return nil
            }
        }
    }

    static func muteUntil(_ settings: Api.PeerNotifySettings?) -> Int32? {
        if case .peerNotifySettings(let body)? = settings { return body.muteUntil }
        return nil
    }

    static func mute(
        _ peer: Api.InputPeer, until: Int32?, silent: Bool? = nil
    )
        -> Api.functions.account.updateNotifySettings
    {
        Api.functions.account.updateNotifySettings(
            peer: .inputNotifyPeer(.init(peer: peer)),
            settings: .inputPeerNotifySettings(.init(silent: silent, muteUntil: until)))
    }

    /// The caller's dialog with the user `userId`: its notify settings.
    static func dialogSettings(_ harness: Harness, key: Int64, userId: Int64) async throws -> Api.PeerNotifySettings? {
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
            if case .peerUser(let user) = dialog.peer, user.userId == userId { return dialog.notifySettings }
        }
        return nil
    }

    @Test func muteReachesTheOtherDeviceDialogAndFullUser() async throws {
        let harness = try Harness()
        _ = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        let ben = try await harness.signUp("9996620002", name: "Ben", key: 2, dc: 2)
        try await DraftTests.signIn(harness, "9996620001", key: 11)
        let toBen = Api.InputPeer.inputPeerUser(.init(userId: ben.id, accessHash: ben.accessHash))
        _ = try await harness.result(
            Api.functions.messages.sendMessage(peer: toBen, message: "hi", randomId: 1), as: Api.Updates.self, key: 1,
            dc: 2)
        let pushed = ChannelTests.Pushed()
        for key: Int64 in [1, 11, 2] {
            harness.updates.subscribe(.init(authKeyId: key, sessionId: key), connection: ObjectIdentifier(pushed)) {
                bytes in pushed.add(key, bytes)
            }
        }
        #expect(Self.muteUntil(try await Self.dialogSettings(harness, key: 1, userId: ben.id)) == nil)
        // Ann mutes Ben for an hour on device 1: device 11 hears it, and device 1 too (the change is in the seq
        // sequence, which the call's answer does not carry); Ben does not.
        let until: Int32 = 1_800_000_000 + 3600
        #expect(Self.error(await harness.call(Self.mute(toBen, until: until, silent: true), key: 1, dc: 2)) == nil)
        let other = try #require(Self.notifyUpdates(pushed.updates(for: 11)).first)
        #expect(Self.muteUntil(other.notifySettings) == until)
        if case .notifyPeer(let target) = other.peer, case .peerUser(let user) = target.peer {
            #expect(user.userId == ben.id)
        } else {
            Issue.record("\(other.peer)")
        }
        #expect(
            Self.notifyUpdates(pushed.updates(for: 2)).isEmpty && Self.notifyUpdates(pushed.updates(for: 1)).count == 1)
        // getNotifySettings, the dialog and the full user all say so, on either device.
        let got = try await harness.result(
            Api.functions.account.getNotifySettings(peer: .inputNotifyPeer(.init(peer: toBen))),
            as: Api.PeerNotifySettings.self, key: 11, dc: 2)
        #expect(Self.muteUntil(got) == until)
        if case .peerNotifySettings(let body) = got { #expect(body.silent == true && body.showPreviews == nil) }
        #expect(Self.muteUntil(try await Self.dialogSettings(harness, key: 11, userId: ben.id)) == until)
        let full = try await harness.result(
            Api.functions.users.getFullUser(id: .inputUser(.init(userId: ben.id, accessHash: ben.accessHash))),
            as: Api.users.UserFull.self, key: 1, dc: 2)
        if case .userFull(let body) = full, case .userFull(let user) = body.fullUser {
            #expect(Self.muteUntil(user.notifySettings) == until)
        } else {
            Issue.record("\(full)")
        }
        // All private chats, as a kind.
        let users = Api.functions.account.updateNotifySettings(
            peer: .inputNotifyUsers, settings: .inputPeerNotifySettings(.init(showPreviews: false)))
        #expect(Self.error(await harness.call(users, key: 1, dc: 2)) == nil)
        let kind = try await harness.result(
            Api.functions.account.getNotifySettings(peer: .inputNotifyUsers), as: Api.PeerNotifySettings.self, key: 11,
            dc: 2)
        if case .peerNotifySettings(let body) = kind { #expect(body.showPreviews == false) }
        if case .notifyUsers = Self.notifyUpdates(pushed.updates(for: 11)).last?.peer {} else { Issue.record("kind") }
        // Reset: the defaults everywhere, and device 11 hears each.
        #expect(Self.error(await harness.call(Api.functions.account.resetNotifySettings(), key: 1, dc: 2)) == nil)
        #expect(Self.notifyUpdates(pushed.updates(for: 11)).count == 4)
        #expect(Self.muteUntil(try await Self.dialogSettings(harness, key: 11, userId: ben.id)) == nil)
    }

    /// Ben cannot read Ann's settings (his own are the defaults); a forged peer is refused; a restart keeps them.
    @Test func settingsAreTheirOwnersAndSurviveARestart() throws {
        let harness = try AttackHarness()
        let ann = try harness.signUp("9996620001", name: "Ann", key: 1)
        let ben = try harness.signUp("9996620002", name: "Ben", key: 2)
        let carl = try harness.signUp("9996620003", name: "Carl", key: 3)
        let forged = Api.InputPeer.inputPeerUser(.init(userId: ann.id, accessHash: ann.accessHash ^ 1))
        #expect(harness.error(Self.mute(forged, until: Int32.max), key: 2) == "PEER_ID_INVALID")
        #expect(
            harness.error(
                Api.functions.account.getNotifySettings(peer: .inputNotifyPeer(.init(peer: forged))), key: 2)
                == "PEER_ID_INVALID")
        #expect(harness.error(Self.mute(carl.inputPeer, until: Int32.max), key: 1) == nil)
        let bens = try harness.result(
            Api.functions.account.getNotifySettings(peer: .inputNotifyPeer(.init(peer: carl.inputPeer))),
            as: Api.PeerNotifySettings.self, key: 2)
        #expect(Self.muteUntil(bens) == nil)
        _ = ben
        try harness.restart()
        let kept = try harness.result(
            Api.functions.account.getNotifySettings(peer: .inputNotifyPeer(.init(peer: carl.inputPeer))),
            as: Api.PeerNotifySettings.self, key: 1)
        #expect(Self.muteUntil(kept) == Int32.max)
        // Unmuting with no field set forgets the row.
        #expect(harness.error(Self.mute(carl.inputPeer, until: nil), key: 1) == nil)
        let unset = try harness.result(
            Api.functions.account.getNotifySettings(peer: .inputNotifyPeer(.init(peer: carl.inputPeer))),
            as: Api.PeerNotifySettings.self, key: 1)
        #expect(Self.muteUntil(unset) == nil)
    }

    /// A muted chat's push has no `loc_key` / `loc_args` (nothing to show); once the mute is over it shows again.
    @Test func aMutedChatsPushesHaveNothingToShow() async throws {
        let harness = try Harness(pushes: true)
        let alice = try await harness.signUp("9996620001", name: "Alice", key: 1, dc: 2)
        let bob = try await harness.signUp("9996620002", name: "Bob", key: 2, dc: 2)
        let key = NotificationKey.generate()
        let token = String(repeating: "cd", count: 32)
        let register = Api.functions.account.registerDevice(
            noMuted: false, tokenType: 1, token: token, appSandbox: false, secret: key.bytes, otherUids: [])
        #expect(try PushDeviceTests.bool(await harness.call(register, key: 2, dc: 2)))
        let toAlice = Api.InputPeer.inputPeerUser(.init(userId: alice.id, accessHash: alice.accessHash))
        let toBob = Api.InputPeer.inputPeerUser(.init(userId: bob.id, accessHash: bob.accessHash))
        // Muted until a second before now (the harness clock is 1,800,000,000): not muted.
        #expect(Self.error(await harness.call(Self.mute(toAlice, until: 1_799_999_999), key: 2, dc: 2)) == nil)
        _ = try await harness.result(
            Api.functions.messages.sendMessage(peer: toBob, message: "one", randomId: 1), as: Api.Updates.self,
            key: 1, dc: 2)
        #expect(Self.error(await harness.call(Self.mute(toAlice, until: Int32.max), key: 2, dc: 2)) == nil)
        _ = try await harness.result(
            Api.functions.messages.sendMessage(peer: toBob, message: "two", randomId: 2), as: Api.Updates.self,
            key: 1, dc: 2)
        // Unmuted, but every private chat muted as a kind: still muted; the chat's own 0 overrides it.
        #expect(Self.error(await harness.call(Self.mute(toAlice, until: nil), key: 2, dc: 2)) == nil)
        let users = Api.functions.account.updateNotifySettings(
            peer: .inputNotifyUsers, settings: .inputPeerNotifySettings(.init(muteUntil: Int32.max)))
        #expect(Self.error(await harness.call(users, key: 2, dc: 2)) == nil)
        _ = try await harness.result(
            Api.functions.messages.sendMessage(peer: toBob, message: "three", randomId: 3), as: Api.Updates.self,
            key: 1, dc: 2)
        #expect(Self.error(await harness.call(Self.mute(toAlice, until: 0), key: 2, dc: 2)) == nil)
        _ = try await harness.result(
            Api.functions.messages.sendMessage(peer: toBob, message: "four", randomId: 4), as: Api.Updates.self,
            key: 1, dc: 2)
        let files = PushDeviceTests.files(harness.folder.appendingPathComponent("pushes/\(token)"))
        #expect(files.count == 4)
        let payloads = try files.map { try PushDeviceTests.open($0, key: key) }
        #expect(payloads.map { $0["loc_key"] as? String } == ["MESSAGE_TEXT", nil, nil, "MESSAGE_TEXT"])
        #expect(payloads.map { $0["loc_args"] == nil } == [false, true, true, false])
        #expect(payloads.map { ($0["custom"] as? [String: String])?["msg_id"] } == ["1", "2", "3", "4"])
    }
}
