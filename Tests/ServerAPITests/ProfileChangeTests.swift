import Foundation
import MTProtoServer
import ServerAPI
import TLRuntime
import TelegramApi
import Testing

/// Profile and contact changes told without asking (core.telegram.org constructors `updateUserName`, `updateUser`,
/// `updatePeerSettings`): to the account's other sessions and to those who follow the user (a private chat or the
/// user in their contacts), never to a stranger or to the session that made the change.
@Suite struct ProfileChangeTests {
    typealias Account = AttackHarness.Account

    /// Ann (key 1, and her other session 99 on the same key), Ben who wrote to her, Cat whom neither knows; every
    /// session subscribed.
    static func setUp() throws -> (AttackHarness, ChannelTests.Pushed, Account, Account, Account) {
        let harness = try AttackHarness()
        let ann = try harness.signUp("9996620001", name: "Ann", key: 1)
        let ben = try harness.signUp("9996620002", name: "Ben", key: 2)
        let cat = try harness.signUp("9996620003", name: "Cat", key: 3)
        #expect(
            harness.error(Api.functions.messages.sendMessage(peer: ann.inputPeer, message: "hi", randomId: 1), key: 2)
                == nil)
        let pushed = ChannelTests.Pushed()
        for (key, session) in [(Int64(1), Int64(1)), (1, 99), (2, 2), (3, 3)] {
            harness.updates.subscribe(.init(authKeyId: key, sessionId: session), connection: ObjectIdentifier(pushed)) {
                bytes in pushed.add(session, bytes)
            }
        }
        return (harness, pushed, ann, ben, cat)
    }

    /// The `updates` pushed to session `session` that carry an update `matching`, with the users they carry.
    static func pushes(
        _ pushed: ChannelTests.Pushed, session: Int64, matching: (Api.Update) -> Bool
    ) -> [(update: Api.Update, users: [Api.User])] {
        pushed.updates(for: session).flatMap { updates -> [(update: Api.Update, users: [Api.User])] in
            guard case .updates(let body) = updates else { return [] }
            return body.updates.filter(matching).map { ($0, body.users) }
        }
    }

    static func isName(_ update: Api.Update) -> Bool {
        if case .updateUserName = update { return true }
        return false
    }

    /// A new name and a new username reach Ben and Ann's other session with the user attached; not Cat, not the
    /// session that renamed; a new bio alone is told to no one.
    @Test func aNewNameIsToldToFollowersAndOtherSessions() throws {
        let (harness, pushed, ann, _, _) = try Self.setUp()
        #expect(harness.error(Api.functions.account.updateProfile(firstName: "Anna"), key: 1) == nil)
        for session: Int64 in [99, 2] {
            let got = Self.pushes(pushed, session: session, matching: Self.isName)
            #expect(got.count == 1, "session \(session)")
            if case .updateUserName(let name)? = got.first?.update {
                #expect(name.userId == ann.id && name.firstName == "Anna" && name.usernames.isEmpty)
            }
            if case .user(let user)? = got.first?.users.first { #expect(user.id == ann.id && user.firstName == "Anna") }
        }
        #expect(Self.pushes(pushed, session: 3, matching: Self.isName).isEmpty, "a stranger is not told")
        #expect(Self.pushes(pushed, session: 1, matching: Self.isName).isEmpty, "the caller has its answer")
        #expect(harness.error(Api.functions.account.updateProfile(about: "bio"), key: 1) == nil)
        #expect(harness.error(Api.functions.account.updateProfile(firstName: "Anna"), key: 1) == nil)
        #expect(Self.pushes(pushed, session: 2, matching: Self.isName).count == 1, "nothing new to tell")
        #expect(harness.error(Api.functions.account.updateUsername(username: "anna_here"), key: 1) == nil)
        let renamed = Self.pushes(pushed, session: 2, matching: Self.isName)
        #expect(renamed.count == 2)
        if case .updateUserName(let name)? = renamed.last?.update {
            let names = name.usernames.map { username -> String in
                guard case .username(let value) = username, value.active else { return "" }
                return value.username
            }
            #expect(names == ["anna_here"])
        }
    }

    /// A new profile photo is `updateUser` with the user and the photo attached, to Ben and Ann's other session.
    @Test func aNewPhotoIsToldAsUpdateUser() throws {
        let (harness, pushed, ann, _, _) = try Self.setUp()
        harness.setProfilePhoto(key: 1, fileId: 9, side: 32)
        func isUser(_ update: Api.Update) -> Bool {
            if case .updateUser(let user) = update { return user.userId == ann.id }
            return false
        }
        for session: Int64 in [99, 2] {
            let got = Self.pushes(pushed, session: session, matching: isUser)
            #expect(got.count == 1, "session \(session)")
            if case .user(let user)? = got.first?.users.first { #expect(user.photo != nil) }
        }
        #expect(Self.pushes(pushed, session: 3, matching: isUser).isEmpty)
    }

    /// A contact added or removed on one session reaches the account's other session as `updatePeerSettings` with
    /// the user's `contact` flag as it now is; Cat, the contact, is not told.
    @Test func aContactChangeReachesTheOtherSessions() throws {
        let (harness, pushed, _, _, cat) = try Self.setUp()
        func contactFlags() -> [Bool] {
            Self.pushes(pushed, session: 99) {
                if case .updatePeerSettings = $0 { return true }
                return false
            }.compactMap {
                guard case .user(let user)? = $0.users.first, user.id == cat.id else { return nil }
                return user.contact
            }
        }
        #expect(
            harness.error(
                Api.functions.contacts.addContact(id: cat.inputUser, firstName: "Cat", lastName: "", phone: ""),
                key: 1) == nil)
        #expect(contactFlags() == [true])
        #expect(harness.error(Api.functions.contacts.deleteContacts(id: [cat.inputUser]), key: 1) == nil)
        #expect(contactFlags() == [true, false])
        #expect(
            harness.error(
                Api.functions.contacts.importContacts(contacts: [
                    .inputPhoneContact(.init(clientId: 1, phone: "9996620003", firstName: "Cat", lastName: ""))
                ]), key: 1) == nil)
        #expect(contactFlags() == [true, false, true])
        #expect(harness.error(Api.functions.contacts.deleteByPhones(phones: ["9996620003"]), key: 1) == nil)
        #expect(contactFlags() == [true, false, true, false])
        #expect(pushed.updates(for: 3).isEmpty)
        #expect(Self.pushes(pushed, session: 1) { _ in true }.isEmpty, "the caller has its answer")
    }
}
