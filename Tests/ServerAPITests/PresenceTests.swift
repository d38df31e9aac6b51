import Foundation
import MTProtoServer
import ServerAPI
import TLRuntime
import TelegramApi
import Testing

/// Presence with privacy (core.telegram.org constructors `userStatus*`, methods `account.updateStatus`,
/// `account.setPrivacy`, `account.getPrivacy`, `contacts.getStatuses`; update `updateUserStatus`), on a clock the test
/// moves.
@Suite struct PresenceTests {
    typealias Account = AttackHarness.Account
    static let start: Int32 = 1_800_000_000
    static let day: Double = 86_400

    /// `target`'s status as `viewer` sees it (`users.getUsers`).
    static func status(of target: Account, seenBy viewer: Account, _ harness: AttackHarness) throws -> Api.UserStatus? {
        let users = try harness.result(
            Api.functions.users.getUsers(id: [target.inputUser]), as: UsersVector.self, key: viewer.key)
        guard case .user(let user)? = users.users.first else { return nil }
        return user.status
    }

    /// A boxed `Vector<User>`.
    struct UsersVector: TLObject {
        let users: [Api.User]
        static func parse(_ reader: inout TLReader) throws(TLDecodingError) -> UsersVector {
            UsersVector(
                users: try reader.readVector { (r: inout TLReader) throws(TLDecodingError) in try Api.User.parse(&r) })
        }
        func serialize(_ writer: inout TLWriter) {}
    }

    /// The `updateUserStatus` pushed to key `key`'s session, in order.
    static func statusPushes(_ pushed: ChannelTests.Pushed, key: Int64) -> [Api.Update.Cons_updateUserStatus] {
        pushed.updates(for: key).compactMap {
            guard case .updateShort(let short) = $0, case .updateUserStatus(let status) = short.update else {
                return nil
            }
            return status
        }
    }

    static func subscribe(_ pushed: ChannelTests.Pushed, key: Int64, _ harness: AttackHarness) {
        harness.updates.subscribe(.init(authKeyId: key, sessionId: key), connection: ObjectIdentifier(pushed)) {
            bytes in pushed.add(key, bytes)
        }
    }

    /// Ann and Ben with a private chat (Ben wrote to Ann, then the clock moved past his activity).
    static func pair(_ harness: AttackHarness) throws -> (Account, Account) {
        let ann = try harness.signUp("9996620001", name: "Ann", key: 1)
        let ben = try harness.signUp("9996620002", name: "Ben", key: 2)
        #expect(
            harness.error(Api.functions.messages.sendMessage(peer: ann.inputPeer, message: "hi", randomId: 1), key: 2)
                == nil)
        harness.clock.advance(1000)
        return (ann, ben)
    }

    static func setPrivacy(
        _ rules: [Api.InputPrivacyRule], _ account: Account, _ harness: AttackHarness
    ) throws
        -> [Api.PrivacyRule]
    {
        let answer = try harness.result(
            Api.functions.account.setPrivacy(key: .inputPrivacyKeyStatusTimestamp, rules: rules),
            as: Api.account.PrivacyRules.self, key: account.key)
        guard case .privacyRules(let body) = answer else { return [] }
        return body.rules
    }

    /// Online with `expires` five minutes on, pushed to the chat partner; offline when the time runs out (the last
    /// time online shown), and at once when the client says so (pushed with `was_online`).
    @Test func onlineExpiresAndOfflineIsPushed() throws {
        let harness = try AttackHarness()
        let (ann, ben) = try Self.pair(harness)
        let pushed = ChannelTests.Pushed()
        Self.subscribe(pushed, key: 2, harness)
        let t0 = Int32(harness.clock.now)
        #expect(harness.error(Api.functions.account.updateStatus(offline: false), key: 1) == nil)
        guard case .userStatusOnline(let online)? = try Self.status(of: ann, seenBy: ben, harness) else {
            Issue.record("not online"); return
        }
        #expect(online.expires == t0 + 300)
        let first = Self.statusPushes(pushed, key: 2)
        #expect(first.count == 1 && first.first?.userId == ann.id)
        if case .userStatusOnline(let pushedOnline)? = first.first?.status {
            #expect(pushedOnline.expires == t0 + 300)
        } else {
            Issue.record("\(first)")
        }
        // Saying online again while online extends the time and pushes nothing new.
        harness.clock.advance(60)
        #expect(harness.error(Api.functions.account.updateStatus(offline: false), key: 1) == nil)
        #expect(Self.statusPushes(pushed, key: 2).count == 1)
        harness.clock.advance(301)
        guard case .userStatusOffline(let expired)? = try Self.status(of: ann, seenBy: ben, harness) else {
            Issue.record("not offline"); return
        }
        #expect(expired.wasOnline == t0 + 60)
        // Online, then offline at once: both pushed, the second with the time.
        #expect(harness.error(Api.functions.account.updateStatus(offline: false), key: 1) == nil)
        harness.clock.advance(10)
        #expect(harness.error(Api.functions.account.updateStatus(offline: true), key: 1) == nil)
        let pushes = Self.statusPushes(pushed, key: 2)
        #expect(pushes.count == 3)
        guard case .userStatusOffline(let off)? = pushes.last?.status else { Issue.record("\(pushes)"); return }
        #expect(off.wasOnline == Int32(harness.clock.now))
        guard case .userStatusOffline(let seen)? = try Self.status(of: ann, seenBy: ben, harness) else {
            Issue.record("not offline"); return
        }
        #expect(seen.wasOnline == Int32(harness.clock.now))
        // Sending a message is activity: online again, pushed.
        #expect(
            harness.error(Api.functions.messages.sendMessage(peer: ben.inputPeer, message: "back", randomId: 2), key: 1)
                == nil)
        if case .userStatusOnline = try Self.status(of: ann, seenBy: ben, harness) {
        } else {
            Issue.record("not online")
        }
        #expect(Self.statusPushes(pushed, key: 2).count == 4)
    }

    /// Someone with neither a chat with Ann nor Ann in their contacts is not told she came online (only the partner
    /// is); asked, they see her status, which her privacy decides.
    @Test func aStrangerGetsNoPush() throws {
        let harness = try AttackHarness()
        let (ann, ben) = try Self.pair(harness)
        let cid = try harness.signUp("9996620003", name: "Cid", key: 3)
        let pushed = ChannelTests.Pushed()
        Self.subscribe(pushed, key: 2, harness)
        Self.subscribe(pushed, key: 3, harness)
        #expect(harness.error(Api.functions.account.updateStatus(offline: false), key: 1) == nil)
        #expect(Self.statusPushes(pushed, key: 2).count == 1)
        #expect(Self.statusPushes(pushed, key: 3).isEmpty)
        // Once Cid has Ann in his contacts, he is told.
        #expect(
            harness.error(
                Api.functions.contacts.importContacts(contacts: [
                    .inputPhoneContact(.init(clientId: 1, phone: "9996620001", firstName: "Ann", lastName: ""))
                ]), key: 3) == nil)
        #expect(harness.error(Api.functions.account.updateStatus(offline: true), key: 1) == nil)
        #expect(Self.statusPushes(pushed, key: 3).count == 1)
        _ = (ann, ben, cid)
    }

    /// `disallowAll` hides the time: the partner sees "recently", then "last week", "last month", and "a long time
    /// ago" (`userStatusEmpty`) as time passes, and is not told of changes; an exception for him shows it again; a
    /// contacts rule shows it to contacts only; Ann, hiding hers from Ben, sees Ben's as "recently" `by_me`.
    @Test func privacyHidesTheTime() throws {
        let harness = try AttackHarness()
        let (ann, ben) = try Self.pair(harness)
        let pushed = ChannelTests.Pushed()
        Self.subscribe(pushed, key: 2, harness)
        #expect(try Self.setPrivacy([.inputPrivacyValueDisallowAll], ann, harness).count == 1)
        let read = try harness.result(
            Api.functions.account.getPrivacy(key: .inputPrivacyKeyStatusTimestamp), as: Api.account.PrivacyRules.self,
            key: 1)
        guard case .privacyRules(let stored) = read, case .privacyValueDisallowAll? = stored.rules.first else {
            Issue.record("\(read)"); return
        }
        #expect(harness.error(Api.functions.account.updateStatus(offline: false), key: 1) == nil)
        #expect(Self.statusPushes(pushed, key: 2).isEmpty)
        guard case .userStatusRecently(let recently)? = try Self.status(of: ann, seenBy: ben, harness) else {
            Issue.record("not recently"); return
        }
        #expect(!recently.byMe)
        // Ann herself sees her exact status, and Ben's as hidden by her own rules.
        if case .userStatusOnline = try Self.status(of: ann, seenBy: ann, harness) {} else { Issue.record("self") }
        guard case .userStatusRecently(let byMe)? = try Self.status(of: ben, seenBy: ann, harness) else {
            Issue.record("Ben not recently"); return
        }
        #expect(byMe.byMe)
        #expect(harness.error(Api.functions.account.updateStatus(offline: true), key: 1) == nil)
        harness.clock.advance(4 * Self.day)
        if case .userStatusLastWeek = try Self.status(of: ann, seenBy: ben, harness) {} else { Issue.record("week") }
        harness.clock.advance(4 * Self.day)
        if case .userStatusLastMonth = try Self.status(of: ann, seenBy: ben, harness) {} else { Issue.record("month") }
        harness.clock.advance(30 * Self.day)
        if case .userStatusEmpty = try Self.status(of: ann, seenBy: ben, harness) {} else { Issue.record("long ago") }
        // An exception for Ben shows him the time (and the answer names him among the users).
        let withBen = try harness.result(
            Api.functions.account.setPrivacy(
                key: .inputPrivacyKeyStatusTimestamp,
                rules: [.inputPrivacyValueAllowUsers(.init(users: [ben.inputUser])), .inputPrivacyValueDisallowAll]),
            as: Api.account.PrivacyRules.self, key: 1)
        guard case .privacyRules(let answer) = withBen else { Issue.record("\(withBen)"); return }
        #expect(answer.users.count == 1)
        if case .userStatusOffline = try Self.status(of: ann, seenBy: ben, harness) {} else { Issue.record("allowed") }
        // Contacts only: Ben is not Ann's contact until she adds him.
        #expect(try Self.setPrivacy([.inputPrivacyValueAllowContacts], ann, harness).count == 1)
        if case .userStatusOffline = try Self.status(of: ann, seenBy: ben, harness) { Issue.record("not a contact") }
        #expect(
            harness.error(
                Api.functions.contacts.importContacts(contacts: [
                    .inputPhoneContact(.init(clientId: 1, phone: "9996620002", firstName: "Ben", lastName: ""))
                ]), key: 1) == nil)
        if case .userStatusOffline = try Self.status(of: ann, seenBy: ben, harness) {} else { Issue.record("contact") }
        // A user list overrides everybody: all but Ben.
        #expect(
            try Self.setPrivacy(
                [.inputPrivacyValueAllowAll, .inputPrivacyValueDisallowUsers(.init(users: [ben.inputUser]))], ann,
                harness
            ).count == 2)
        if case .userStatusOffline = try Self.status(of: ann, seenBy: ben, harness) { Issue.record("disallowed") }
    }

    /// Keys and rules tg-server does not apply are refused by name; a user named with a wrong access hash is not
    /// found.
    @Test func unsupportedKeysAndRulesAreRefused() throws {
        let harness = try AttackHarness()
        let (ann, ben) = try Self.pair(harness)
        #expect(
            harness.error(
                Api.functions.account.setPrivacy(key: .inputPrivacyKeyPhoneCall, rules: [.inputPrivacyValueAllowAll]),
                key: 1) == "PRIVACY_KEY_INVALID")
        #expect(
            harness.error(Api.functions.account.getPrivacy(key: .inputPrivacyKeyChatInvite), key: 1)
                == "PRIVACY_KEY_INVALID")
        #expect(
            harness.error(
                Api.functions.account.setPrivacy(
                    key: .inputPrivacyKeyStatusTimestamp, rules: [.inputPrivacyValueAllowPremium]), key: 1)
                == "PRIVACY_VALUE_INVALID")
        let forged = Api.InputUser.inputUser(.init(userId: ben.id, accessHash: ben.accessHash + 1))
        #expect(
            harness.error(
                Api.functions.account.setPrivacy(
                    key: .inputPrivacyKeyStatusTimestamp, rules: [.inputPrivacyValueAllowUsers(.init(users: [forged]))]
                ), key: 1) == "USER_ID_INVALID")
        _ = ann
    }

    /// `contacts.getStatuses`: each contact's status as the caller may see it.
    @Test func contactsStatusesFollowPrivacy() throws {
        let harness = try AttackHarness()
        let (ann, ben) = try Self.pair(harness)
        #expect(
            harness.error(
                Api.functions.contacts.importContacts(contacts: [
                    .inputPhoneContact(.init(clientId: 1, phone: "9996620001", firstName: "Ann", lastName: ""))
                ]), key: 2) == nil)
        #expect(harness.error(Api.functions.account.updateStatus(offline: false), key: 1) == nil)
        let statuses = try harness.result(Api.functions.contacts.getStatuses(), as: StatusVector.self, key: 2)
        guard case .contactStatus(let only)? = statuses.items.first, statuses.items.count == 1 else {
            Issue.record("\(statuses.items)"); return
        }
        #expect(only.userId == ann.id)
        if case .userStatusOnline = only.status {} else { Issue.record("\(only.status)") }
        _ = try Self.setPrivacy([.inputPrivacyValueDisallowAll], ann, harness)
        let hidden = try harness.result(Api.functions.contacts.getStatuses(), as: StatusVector.self, key: 2)
        guard case .contactStatus(let again)? = hidden.items.first, case .userStatusRecently = again.status else {
            Issue.record("\(hidden.items)"); return
        }
        _ = ben
    }

    struct StatusVector: TLObject {
        let items: [Api.ContactStatus]
        static func parse(_ reader: inout TLReader) throws(TLDecodingError) -> StatusVector {
            StatusVector(
                items: try reader.readVector { (r: inout TLReader) throws(TLDecodingError) in
                    try Api.ContactStatus.parse(&r)
                })
        }
        func serialize(_ writer: inout TLWriter) {}
    }

    /// Privacy rules and the last time online are stored: after a restart (nobody online any more) Ann is offline
    /// since the time she was last seen, and her rules still hide it from Ben.
    @Test func privacyAndLastSeenSurviveARestart() throws {
        let harness = try AttackHarness()
        let (ann, ben) = try Self.pair(harness)
        #expect(harness.error(Api.functions.account.updateStatus(offline: false), key: 1) == nil)
        let seenAt = Int32(harness.clock.now)
        _ = try Self.setPrivacy([.inputPrivacyValueAllowUsers(.init(users: [ben.inputUser]))], ann, harness)
        try harness.restart()
        guard case .userStatusOffline(let offline)? = try Self.status(of: ann, seenBy: ben, harness) else {
            Issue.record("not offline"); return
        }
        #expect(offline.wasOnline == seenAt)
        let cid = try harness.signUp("9996620003", name: "Cid", key: 3)
        guard case .userStatusRecently? = try Self.status(of: ann, seenBy: cid, harness) else {
            Issue.record("Cid sees the time"); return
        }
        let read = try harness.result(
            Api.functions.account.getPrivacy(key: .inputPrivacyKeyStatusTimestamp), as: Api.account.PrivacyRules.self,
            key: 1)
        guard case .privacyRules(let rules) = read, case .privacyValueAllowUsers(let allowed)? = rules.rules.first
        else {
            Issue.record("\(read)"); return
        }
        #expect(allowed.users == [ben.id] && rules.users.count == 1)
    }

    /// When the last session of the account's keys goes away, the account goes offline and its watchers are told.
    @Test func theLastSessionGoingAwayTakesTheAccountOffline() async throws {
        let harness = try AttackHarness()
        let (ann, ben) = try Self.pair(harness)
        let pushed = ChannelTests.Pushed()
        Self.subscribe(pushed, key: 2, harness)
        let annConnection = ChannelTests.Pushed()
        Self.subscribe(annConnection, key: 1, harness)
        #expect(harness.error(Api.functions.account.updateStatus(offline: false), key: 1) == nil)
        harness.clock.advance(5)
        harness.updates.unsubscribe(
            [UpdateGateway.Target(authKeyId: 1, sessionId: 1)], connection: ObjectIdentifier(annConnection))
        let deadline = Date().addingTimeInterval(5)
        while Self.statusPushes(pushed, key: 2).count < 2 && Date() < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        let pushes = Self.statusPushes(pushed, key: 2)
        guard pushes.count == 2, case .userStatusOffline(let off) = pushes[1].status else {
            Issue.record("\(pushes)"); return
        }
        #expect(off.wasOnline == Int32(harness.clock.now))
        if case .userStatusOffline = try Self.status(of: ann, seenBy: ben, harness) {} else { Issue.record("online") }
    }
}
