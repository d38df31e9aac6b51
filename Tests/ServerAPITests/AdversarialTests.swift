import Foundation
import ImageCore
import MTProtoServer
import PasswordSRP
import ServerAPI
import TLRuntime
import TelegramApi
import Testing

/// Other accounts trying what they must not: guessing a login code or a password, naming accounts through message
/// references, finding strangers by name, reading others' groups and photos, forging file references, and sending
/// texts and entities past Telegram's rules. Each test fails when its rule is taken out of the server.
@Suite struct AdversarialTests {
    typealias Account = AttackHarness.Account

    /// A patient guesser with a fresh key for every code (nothing ties the tries to one connection), who waits out
    /// every block, gets about 20 guesses in a day where a fresh code used to mean 5 fresh guesses without end; the
    /// block survives a restart; the owner of the number still signs in once it is over.
    @Test func aLoginCodeCannotBeGuessedByAskingForFreshCodes() throws {
        let harness = try AttackHarness()
        let phone = "447700900001"
        let codeFile = harness.folder.appendingPathComponent("codes/\(phone)")
        var guessesTried = 0
        var floods = 0
        var calls = 0
        let start = harness.clock.now
        var key: Int64 = 1_000
        while harness.clock.now - start < 86_400, calls < 3_000 {
            key += 1
            calls += 1
            switch harness.call(AttackHarness.sendCode(phone), key: key) {
            case .error(_, let name):
                #expect(name == "PHONE_NUMBER_FLOOD" || name.hasPrefix("FLOOD_WAIT_"), "\(name)")
                floods += 1
                harness.clock.advance(name.hasPrefix("FLOOD_WAIT_") ? Double(name.dropFirst(11))! : 300)
                continue
            case .result(let bytes):
                guard case .sentCode(let sent) = try Api.auth.SentCode(tlBytes: bytes) else { Issue.record("no code"); return }
                let code = Int(try String(contentsOf: codeFile, encoding: .utf8).dropLast())!
                for attempt in 1...5 {
                    calls += 1
                    let wrong = String(format: "%05d", (code + attempt) % 100_000)
                    let answer = harness.error(Api.functions.auth.signIn(phoneNumber: phone, phoneCodeHash: sent.phoneCodeHash, phoneCode: wrong), key: key)
                    if answer == "PHONE_CODE_INVALID" { guessesTried += 1 }
                    if let answer, answer.hasPrefix("FLOOD_WAIT_") {
                        floods += 1
                        harness.clock.advance(Double(answer.dropFirst(11))!)
                        break
                    }
                }
            }
        }
        #expect(guessesTried <= 25, "\(guessesTried) guesses in a day")
        #expect(floods > 0)
        // The block lives in the database: a restarted server still refuses the next guess.
        harness.clock.advance(-1)
        try harness.restart()
        switch harness.call(AttackHarness.sendCode(phone), key: 9_999) {
        case .error(_, let name):
            // Asking for a code may itself be refused while the number is blocked: that is a block too.
            #expect(name == "PHONE_NUMBER_FLOOD", "\(name)")
        case .result(let bytes):
            guard case .sentCode(let sent) = try Api.auth.SentCode(tlBytes: bytes) else { Issue.record("no code"); return }
            let code = try String(contentsOf: codeFile, encoding: .utf8).dropLast()
            let blocked = harness.error(
                Api.functions.auth.signIn(phoneNumber: phone, phoneCodeHash: sent.phoneCodeHash, phoneCode: String(code)), key: 9_999)
            #expect(blocked?.hasPrefix("FLOOD_WAIT_") == true, "\(blocked ?? "answered")")
        }
        // Once the block is over, the right code signs the number's owner up.
        harness.clock.advance(86_401)
        let freshAnswer = try harness.result(AttackHarness.sendCode(phone), as: Api.auth.SentCode.self, key: 10_000)
        guard case .sentCode(let fresh) = freshAnswer else { Issue.record("no code after the block: \(freshAnswer)"); return }
        let right = try String(contentsOf: codeFile, encoding: .utf8).dropLast()
        let signIn = try harness.result(
            Api.functions.auth.signIn(phoneNumber: phone, phoneCodeHash: fresh.phoneCodeHash, phoneCode: String(right)),
            as: Api.auth.Authorization.self, key: 10_000)
        guard case .authorizationSignUpRequired = signIn else { Issue.record("the right code was refused"); return }
    }

    /// One key asking codes for many numbers is slowed down, whatever the numbers.
    @Test func oneKeyCannotAskCodesForManyNumbers() throws {
        let harness = try AttackHarness()
        var answers: [String?] = []
        for n in 0..<22 { answers.append(harness.error(AttackHarness.sendCode("4477009002\(String(format: "%02d", n))"), key: 77)) }
        #expect(answers.prefix(20).allSatisfy { $0 == nil })
        #expect(answers[20] == "FLOOD_WAIT_60")
        // Restarting the server does not reset it.
        try harness.restart()
        #expect(harness.error(AttackHarness.sendCode("447700900299"), key: 77)?.hasPrefix("FLOOD_WAIT_") == true)
    }

    /// Wrong SRP proofs for an account: five are answered `PASSWORD_HASH_INVALID`, then every try waits — from
    /// another key too, and after a restart.
    @Test func aTwoStepPasswordCannotBeGuessed() throws {
        let harness = try AttackHarness()
        let victim = try harness.signUp("9996620001", name: "Victim", key: 1)
        try setPassword("correct horse", for: victim, harness)
        func proofRound(key: Int64) throws -> String? {
            guard case .password(let password) = try harness.result(Api.functions.account.getPassword(), as: Api.account.Password.self, key: key),
                let srpId = password.srpId
            else { return "no round" }
            let garbage = Api.InputCheckPasswordSRP.inputCheckPasswordSRP(.init(srpId: srpId, a: [UInt8](repeating: 7, count: 256), m1: [UInt8](repeating: 9, count: 32)))
            return harness.error(Api.functions.auth.checkPassword(password: garbage), key: key)
        }
        func passCodeStep(key: Int64) throws {
            let codeAnswer = try harness.result(AttackHarness.sendCode("9996620001"), as: Api.auth.SentCode.self, key: key)
            guard case .sentCode(let sent) = codeAnswer else { Issue.record("no code for the password step: \(codeAnswer)"); return }
            let answer = harness.error(Api.functions.auth.signIn(phoneNumber: "9996620001", phoneCodeHash: sent.phoneCodeHash, phoneCode: "22222"), key: key)
            #expect(answer == "SESSION_PASSWORD_NEEDED")
        }
        try passCodeStep(key: 50)
        var answers: [String?] = []
        for _ in 0..<6 { answers.append(try proofRound(key: 50)) }
        #expect(answers.prefix(5).allSatisfy { $0 == "PASSWORD_HASH_INVALID" }, "\(answers)")
        #expect(answers[5] == "FLOOD_WAIT_60", "\(answers)")
        try passCodeStep(key: 51)
        #expect(try proofRound(key: 51)?.hasPrefix("FLOOD_WAIT_") == true)
        try harness.restart()
        try passCodeStep(key: 52)
        #expect(try proofRound(key: 52)?.hasPrefix("FLOOD_WAIT_") == true)
        // Waiting it out lets one more guess through, and the next wait is twice as long.
        harness.clock.advance(61)
        #expect(try proofRound(key: 52) == "PASSWORD_HASH_INVALID")
        #expect(try proofRound(key: 52) == "FLOOD_WAIT_120")
    }

    private func setPassword(_ password: String, for account: Account, _ harness: AttackHarness) throws {
        guard case .password(let state) = try harness.result(Api.functions.account.getPassword(), as: Api.account.Password.self, key: account.key),
            case .passwordKdfAlgoSHA256SHA256PBKDF2HMACSHA512iter100000SHA256ModPow(let algo) = state.newAlgo
        else { Issue.record("no algorithm offered"); return }
        let algorithm = SRPAlgorithm(salt1: algo.salt1 + SecureRandomBytes.make(32), salt2: algo.salt2, g: algo.g, p: algo.p)
        let verifier = try SRPVerifier(password: password, algorithm: algorithm)
        let settings = Api.account.PasswordInputSettings.passwordInputSettings(
            .init(
                newAlgo: .passwordKdfAlgoSHA256SHA256PBKDF2HMACSHA512iter100000SHA256ModPow(
                    .init(salt1: algorithm.salt1, salt2: algorithm.salt2, g: algorithm.g, p: algorithm.p)),
                newPasswordHash: verifier.bytes, hint: "horse"))
        let answer = harness.error(
            Api.functions.account.updatePasswordSettings(password: .inputCheckPasswordEmpty, newSettings: settings), key: account.key)
        #expect(answer == nil, "\(answer ?? "")")
    }

    /// Three people: Alice and Bob share a group with Mallory; Carol is a stranger to Mallory. Mallory may reach Bob
    /// through a message of the group that shows him, and no one through a message that does not exist, is not hers,
    /// or does not show them.
    @Test func messageReferencesMustShowTheUserTheyName() throws {
        let harness = try AttackHarness()
        let alice = try harness.signUp("9996620001", name: "Alice", key: 1)
        let bob = try harness.signUp("9996620002", name: "Bob", key: 2)
        let carol = try harness.signUp("9996620003", name: "Carol", key: 3)
        let mallory = try harness.signUp("9996620004", name: "Mallory", key: 4)
        // Alice knows everyone (she signed them up in this story): the hashes she holds are her own view.
        _ = try harness.result(
            Api.functions.messages.createChat(users: [bob.inputUser, mallory.inputUser], title: "g"), as: Api.messages.InvitedUsers.self, key: 1)
        let chatId = try groupId(harness, key: 4)
        _ = try harness.result(
            Api.functions.messages.sendMessage(peer: .inputPeerChat(.init(chatId: chatId)), message: "hi from bob", randomId: 1), as: Api.Updates.self,
            key: 2)
        let bobsMessage = try lastMessageId(harness, peer: .inputPeerChat(.init(chatId: chatId)), key: 4)
        let group = Api.InputPeer.inputPeerChat(.init(chatId: chatId))
        func users(_ input: Api.InputUser) throws -> [Int64] {
            let response = harness.call(Api.functions.users.getUsers(id: [input]), key: 4)
            guard case .result(let bytes) = response else { return [] }
            var reader = TLReader(bytes)
            return try reader.readVector { (r: inout TLReader) throws(TLDecodingError) in try Api.User.parse(&r) }.compactMap {
                if case .user(let user) = $0 { return user.id }
                return nil
            }
        }
        // Reaching Bob through the group message that shows him works.
        #expect(try users(.inputUserFromMessage(.init(peer: group, msgId: bobsMessage, userId: bob.id))) == [bob.id])
        // Carol by id, through that message, through a message that does not exist, or through Mallory's own
        // chat with herself: nothing.
        #expect(try users(.inputUserFromMessage(.init(peer: group, msgId: bobsMessage, userId: carol.id))) == [])
        #expect(try users(.inputUserFromMessage(.init(peer: group, msgId: 999, userId: carol.id))) == [])
        #expect(try users(.inputUserFromMessage(.init(peer: .inputPeerSelf, msgId: 1, userId: carol.id))) == [])
        #expect(
            harness.error(Api.functions.users.getFullUser(id: .inputUserFromMessage(.init(peer: group, msgId: 1, userId: carol.id))), key: 4)
                == "USER_ID_INVALID")
        let toCarol = Api.InputPeer.inputPeerUserFromMessage(.init(peer: group, msgId: bobsMessage, userId: carol.id))
        #expect(harness.error(Api.functions.messages.sendMessage(peer: toCarol, message: "hello", randomId: 2), key: 4) == "PEER_ID_INVALID")
        // Nor through a group she is not in (Alice's message ids are hers, not Mallory's).
        #expect(try users(.inputUserFromMessage(.init(peer: .inputPeerChat(.init(chatId: chatId + 1)), msgId: 1, userId: alice.id))) == [])
        // And the accepted form does what it says: Mallory may write to Bob.
        let toBob = Api.InputPeer.inputPeerUserFromMessage(.init(peer: group, msgId: bobsMessage, userId: bob.id))
        #expect(harness.error(Api.functions.messages.sendMessage(peer: toBob, message: "hello bob", randomId: 3), key: 4) == nil)
    }

    /// `contacts.search` finds public usernames and one's own contacts by name; a stranger by first name, never.
    @Test func searchFindsUsernamesAndOwnContactsNeverStrangersByName() throws {
        let harness = try AttackHarness()
        _ = try harness.signUp("9996620001", name: "Carol", key: 1)
        _ = try harness.signUp("9996620002", name: "Dave", key: 2)
        _ = try harness.signUp("9996620003", name: "Mallory", key: 3)
        #expect(harness.error(Api.functions.account.updateUsername(username: "dave_public"), key: 2) == nil)
        func found(_ query: String, key: Int64) throws -> (mine: Int, others: Int, names: [String]) {
            guard case .found(let found) = try harness.result(Api.functions.contacts.search(q: query, limit: 50), as: Api.contacts.Found.self, key: key) else {
                return (0, 0, [])
            }
            let names = found.users.compactMap { user -> String? in
                if case .user(let u) = user { return u.firstName }
                return nil
            }
            return (found.myResults.count, found.results.count, names.sorted())
        }
        for letter in ["c", "C", "Car", "d", "m"] { #expect(try found(letter, key: 3).names.allSatisfy { $0 == "Dave" || $0 == "Mallory" }) }
        #expect(try found("car", key: 3).names == [])
        #expect(try found("dave_", key: 3).names == ["Dave"])
        // Carol saved as a contact by Dave: Dave finds her by name, in his own results.
        _ = try harness.result(
            Api.functions.contacts.importContacts(contacts: [.inputPhoneContact(.init(clientId: 1, phone: "9996620001", firstName: "Caz", lastName: ""))]),
            as: Api.contacts.ImportedContacts.self, key: 2)
        let mine = try found("ca", key: 2)
        #expect(mine.mine == 1 && mine.names == ["Carol"])
    }

    /// `messages.getChats` shows a group to its members, as `chatForbidden` to someone removed from it, and nothing
    /// to anyone else.
    @Test func groupsAreShownOnlyToTheirMembers() throws {
        let harness = try AttackHarness()
        _ = try harness.signUp("9996620001", name: "Alice", key: 1)
        let bob = try harness.signUp("9996620002", name: "Bob", key: 2)
        _ = try harness.signUp("9996620003", name: "Mallory", key: 3)
        _ = try harness.result(Api.functions.messages.createChat(users: [bob.inputUser], title: "secret plans"), as: Api.messages.InvitedUsers.self, key: 1)
        let chatId = try groupId(harness, key: 2)
        func chats(key: Int64) throws -> [Api.Chat] {
            guard case .chats(let list) = try harness.result(Api.functions.messages.getChats(id: [chatId, chatId + 1]), as: Api.messages.Chats.self, key: key)
            else { return [] }
            return list.chats
        }
        #expect(try chats(key: 3).isEmpty)
        guard case .chat(let seen)? = try chats(key: 2).first else { Issue.record("a member does not see the group"); return }
        #expect(seen.title == "secret plans" && seen.participantsCount == 2)
        _ = try harness.result(Api.functions.messages.deleteChatUser(chatId: chatId, userId: bob.inputUser), as: Api.Updates.self, key: 1)
        guard case .chatForbidden(let forbidden)? = try chats(key: 2).first else { Issue.record("a removed member should see chatForbidden"); return }
        #expect(forbidden.title == "secret plans")
    }

    /// A profile photo is served only for a peer the caller can reach, and only the peer's current one; photos by id
    /// need the file reference the server gave, which is not derived from the id.
    @Test func photosNeedAReachablePeerAndTheirFileReference() throws {
        let harness = try AttackHarness()
        let alice = try harness.signUp("9996620001", name: "Alice", key: 1)
        let bob = try harness.signUp("9996620002", name: "Bob", key: 2)
        _ = try harness.signUp("9996620003", name: "Mallory", key: 3)
        let alicePhoto = try uploadProfilePhoto(harness, key: 1, fileId: 11)
        let bobPhoto = try uploadProfilePhoto(harness, key: 2, fileId: 12)
        #expect(harness.error(Api.functions.account.updateUsername(username: "alice_public"), key: 1) == nil)
        let hash = try harness.hashSeen(of: "alice_public", by: AttackHarness.Account(id: 0, accessHash: 0, key: 3))
        func peerPhoto(_ peer: Api.InputPeer, _ photoId: Int64) -> String? {
            harness.error(
                Api.functions.upload.getFile(location: .inputPeerPhotoFileLocation(.init(peer: peer, photoId: photoId)), offset: 0, limit: 4096),
                key: 3)
        }
        #expect(peerPhoto(.inputPeerUser(.init(userId: alice.id, accessHash: 0)), alicePhoto.id) == "PEER_ID_INVALID")
        #expect(peerPhoto(.inputPeerUser(.init(userId: alice.id, accessHash: hash)), alicePhoto.id) == nil)
        #expect(peerPhoto(.inputPeerUser(.init(userId: alice.id, accessHash: hash)), bobPhoto.id) == "FILE_ID_INVALID")
        #expect(peerPhoto(.inputPeerSelf, bobPhoto.id) == "FILE_ID_INVALID")
        _ = bob
        func byId(_ reference: [UInt8]) -> String? {
            harness.error(
                Api.functions.upload.getFile(
                    location: .inputPhotoFileLocation(.init(id: alicePhoto.id, accessHash: alicePhoto.accessHash, fileReference: reference, thumbSize: "s")),
                    offset: 0, limit: 4096), key: 1)
        }
        #expect(byId(alicePhoto.fileReference) == nil)
        #expect(byId([]) == "FILE_REFERENCE_EMPTY")
        #expect(byId(Array(repeating: 1, count: 8)) == "FILE_REFERENCE_INVALID")
        var forged = alicePhoto.fileReference
        forged[forged.count - 1] ^= 1
        #expect(byId(forged) == "FILE_REFERENCE_EXPIRED")
        // References outlive a restart (the key is in the database).
        try harness.restart()
        #expect(byId(alicePhoto.fileReference) == nil)
    }

    /// Telegram's lengths are UTF-16 code units: combining marks and emoji count for what they weigh.
    @Test func lengthsCountUTF16CodeUnits() throws {
        let harness = try AttackHarness()
        let alice = try harness.signUp("9996620001", name: "Alice", key: 1)
        let bob = try harness.signUp("9996620002", name: "Bob", key: 2)
        func send(_ text: String, id: Int64) -> String? {
            harness.error(Api.functions.messages.sendMessage(peer: bob.inputPeer, message: text, randomId: id), key: 1)
        }
        #expect(send(String(repeating: "a", count: 4096), id: 1) == nil)
        #expect(send(String(repeating: "😀", count: 2048), id: 2) == nil)
        #expect(send(String(repeating: "😀", count: 2049), id: 3) == "MESSAGE_TOO_LONG")
        #expect(send("e" + String(repeating: "\u{0301}", count: 4096), id: 4) == "MESSAGE_TOO_LONG")  // one character
        #expect(harness.error(Api.functions.account.updateProfile(lastName: String(repeating: "x", count: 65)), key: 1) == "LASTNAME_INVALID")
        #expect(harness.error(Api.functions.account.updateProfile(firstName: "A" + String(repeating: "\u{0301}", count: 64)), key: 1) == "FIRSTNAME_INVALID")
        #expect(harness.error(Api.functions.account.updateProfile(about: String(repeating: "🙂", count: 36)), key: 1) == "ABOUT_TOO_LONG")
        #expect(harness.error(Api.functions.account.updateProfile(about: String(repeating: "🙂", count: 35)), key: 1) == nil)
        let title = "T" + String(repeating: "\u{0301}", count: 128)
        #expect(harness.error(Api.functions.messages.createChat(users: [bob.inputUser], title: title), key: 1) == "CHAT_TITLE_TOO_LONG")
        _ = alice
    }

    /// Entities are checked against the text: bounds, count, and mentions of users the sender may name.
    @Test func entitiesAreCheckedClippedAndConverted() throws {
        let harness = try AttackHarness()
        _ = try harness.signUp("9996620001", name: "Alice", key: 1)
        let bob = try harness.signUp("9996620002", name: "Bob", key: 2)
        let carol = try harness.signUp("9996620003", name: "Carol", key: 3)
        let text = "hello, world!!"  // 14 units
        func send(_ entities: [Api.MessageEntity], id: Int64) -> String? {
            harness.error(Api.functions.messages.sendMessage(peer: bob.inputPeer, message: text, randomId: id, entities: entities), key: 1)
        }
        let pastTheEnd = (0..<200).map { Api.MessageEntity.messageEntityBold(.init(offset: Int32(20 + $0), length: 5)) }
        #expect(send(pastTheEnd, id: 1) == "ENTITIES_TOO_LONG")
        #expect(send(Array(pastTheEnd.prefix(3)), id: 2) == "ENTITY_BOUNDS_INVALID")
        #expect(send([.messageEntityItalic(.init(offset: -1, length: 3))], id: 3) == "ENTITY_BOUNDS_INVALID")
        #expect(send([.messageEntityItalic(.init(offset: 1, length: -3))], id: 4) == "ENTITY_BOUNDS_INVALID")
        let zeroHash = Api.InputUser.inputUser(.init(userId: carol.id, accessHash: 0))
        #expect(send([.inputMessageEntityMentionName(.init(offset: 0, length: 5, userId: zeroHash))], id: 5) == "ENTITY_MENTION_USER_INVALID")
        #expect(send([.messageEntityMentionName(.init(offset: 0, length: 5, userId: carol.id))], id: 6) == "ENTITY_MENTION_USER_INVALID")
        // Accepted: a bold running past the end is clipped, an empty one dropped, a mention of Bob (whose hash Alice
        // holds) stored in its output form.
        let accepted: [Api.MessageEntity] = [
            .messageEntityBold(.init(offset: 7, length: 100)), .messageEntityCode(.init(offset: 2, length: 0)),
            .inputMessageEntityMentionName(.init(offset: 0, length: 5, userId: bob.inputUser)),
        ]
        #expect(send(accepted, id: 7) == nil)
        let stored = try lastMessage(harness, peer: .inputPeerSelf, fromKey: 2)
        #expect(stored?.message == text)
        let entities = stored?.entities ?? []
        #expect(entities.count == 2)
        if case .messageEntityBold(let bold)? = entities.first { #expect(bold.offset == 7 && bold.length == 7) } else { Issue.record("\(entities)") }
        if case .messageEntityMentionName(let mention)? = entities.last { #expect(mention.userId == bob.id && mention.length == 5) } else {
            Issue.record("\(entities)")
        }
    }

    /// A key signed in to one account cannot be turned into another's by importing an authorization; importing the same
    /// account's again is served.
    @Test func importingAnAuthorizationDoesNotTakeOverASignedInKey() throws {
        let harness = try AttackHarness()
        let alice = try harness.signUp("9996620001", name: "Alice", key: 1)
        _ = try harness.signUp("9996620002", name: "Bob", key: 2)
        let exportedToken = try harness.result(Api.functions.auth.exportAuthorization(dcId: 2), as: Api.auth.ExportedAuthorization.self, key: 2)
        guard case .exportedAuthorization(let token) = exportedToken else { Issue.record("\(exportedToken)"); return }
        let answer = harness.error(Api.functions.auth.importAuthorization(id: token.id, bytes: token.bytes), key: 1)
        #expect(answer == "AUTH_BYTES_INVALID")
        let me = harness.call(Api.functions.users.getUsers(id: [.inputUserSelf]), key: 1)
        guard case .result(let bytes) = me else { Issue.record("\(me)"); return }
        var reader = TLReader(bytes)
        let users = try reader.readVector { (r: inout TLReader) throws(TLDecodingError) in try Api.User.parse(&r) }
        if case .user(let user)? = users.first { #expect(user.id == alice.id) } else { Issue.record("no user") }
        // The token was not used up: a fresh key may still import it, and import it again (a Pyrogram-family
        // client's media session shares its DC's key) with a second token of the same account.
        #expect(harness.error(Api.functions.auth.importAuthorization(id: token.id, bytes: token.bytes), key: 99) == nil)
        let exportedAgain = try harness.result(Api.functions.auth.exportAuthorization(dcId: 2), as: Api.auth.ExportedAuthorization.self, key: 2)
        guard case .exportedAuthorization(let again) = exportedAgain else { Issue.record("\(exportedAgain)"); return }
        #expect(harness.error(Api.functions.auth.importAuthorization(id: again.id, bytes: again.bytes), key: 99) == nil)
    }

    // MARK: - Helpers

    private func groupId(_ harness: AttackHarness, key: Int64) throws -> Int64 {
        guard case .dialogs(let dialogs) = try harness.result(
            Api.functions.messages.getDialogs(offsetDate: 0, offsetId: 0, offsetPeer: .inputPeerEmpty, limit: 10, hash: 0), as: Api.messages.Dialogs.self,
            key: key)
        else { throw AttackHarness.Refused(response: .notImplemented) }
        for case .chat(let chat) in dialogs.chats { return chat.id }
        throw AttackHarness.Refused(response: .notImplemented)
    }

    private func messages(_ harness: AttackHarness, peer: Api.InputPeer, key: Int64) throws -> [Api.Message] {
        let history = try harness.result(
            Api.functions.messages.getHistory(peer: peer, offsetId: 0, offsetDate: 0, addOffset: 0, limit: 10, maxId: 0, minId: 0, hash: 0),
            as: Api.messages.Messages.self, key: key)
        switch history {
        case .messages(let m): return m.messages
        case .messagesSlice(let m): return m.messages
        default: return []
        }
    }

    private func lastMessageId(_ harness: AttackHarness, peer: Api.InputPeer, key: Int64) throws -> Int32 {
        for message in try messages(harness, peer: peer, key: key) {
            if case .message(let m) = message { return m.id }
        }
        throw AttackHarness.Refused(response: .notImplemented)
    }

    /// The newest message of the recipient (key `fromKey`)'s first dialog.
    private func lastMessage(_ harness: AttackHarness, peer: Api.InputPeer, fromKey key: Int64) throws -> Api.Message.Cons_message? {
        guard case .dialogs(let dialogs) = try harness.result(
            Api.functions.messages.getDialogs(offsetDate: 0, offsetId: 0, offsetPeer: .inputPeerEmpty, limit: 10, hash: 0), as: Api.messages.Dialogs.self,
            key: key)
        else { return nil }
        for case .message(let m) in dialogs.messages { return m }
        return nil
    }

    private struct UploadedPhoto {
        let id: Int64
        let accessHash: Int64
        let fileReference: [UInt8]
    }

    private func uploadProfilePhoto(_ harness: AttackHarness, key: Int64, fileId: Int64) throws -> UploadedPhoto {
        var bitmap = Bitmap(width: 160, height: 120)
        for y in 0..<120 { for x in 0..<160 { bitmap[x, y] = RGBA(r: UInt8(x), g: UInt8(y), b: UInt8(truncatingIfNeeded: fileId), a: 255) } }
        let png = PNGCodec.encode(bitmap)
        #expect(harness.error(Api.functions.upload.saveFilePart(fileId: fileId, filePart: 0, bytes: png), key: key) == nil)
        let answer = try harness.result(
            Api.functions.photos.uploadProfilePhoto(file: .inputFile(.init(id: fileId, parts: 1, name: "p.png", md5Checksum: ""))),
            as: Api.photos.Photo.self, key: key)
        guard case .photo(let result) = answer, case .photo(let photo) = result.photo else { throw AttackHarness.Refused(response: .notImplemented) }
        return UploadedPhoto(id: photo.id, accessHash: photo.accessHash, fileReference: photo.fileReference)
    }
}

/// Random bytes for the tests' own salts.
enum SecureRandomBytes {
    static func make(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255) } }
}
