import Foundation
import MTProtoServer
import ServerAPI
import ServerStore
import TLRuntime
import TelegramApi
import Testing

/// `messages.forwardMessages` between people (core.telegram.org `messages.forwardMessages`, `messageFwdHeader`): the
/// copy names the first author, `drop_author` sends a plain copy, `drop_media_captions` (with it) drops a media
/// message's caption but never a text, each copy answers with its own `random_id`, and a message not in the caller's
/// box cannot be forwarded.
@Suite struct ForwardTests {
    /// The new messages of `updates` with the `random_id`s they answer.
    static func sent(_ updates: Api.Updates) -> (messages: [Api.Message.Cons_message], randomIds: [Int64]) {
        guard case .updates(let body) = updates else { return ([], []) }
        var messages: [Api.Message.Cons_message] = []
        var randomIds: [Int64] = []
        for update in body.updates {
            switch update {
            case .updateNewMessage(let new): if case .message(let m) = new.message { messages.append(m) }
            case .updateMessageID(let id): randomIds.append(id.randomId)
            default: continue
            }
        }
        return (messages, randomIds)
    }

    static func author(_ message: Api.Message.Cons_message) -> Int64? {
        guard case .messageFwdHeader(let header)? = message.fwdFrom, case .peerUser(let user)? = header.fromId else {
            return nil
        }
        return user.userId
    }

    @Test func headersDroppedAuthorsAndCaptions() throws {
        let harness = try AttackHarness()
        let ann = try harness.signUp("9996620001", name: "Ann", key: 1)
        let ben = try harness.signUp("9996620002", name: "Ben", key: 2)
        let cid = try harness.signUp("9996620003", name: "Cid", key: 3)
        // Ben writes Ann a text and a located caption.
        _ = try harness.result(
            Api.functions.messages.sendMessage(peer: ann.inputPeer, message: "hello", randomId: 1),
            as: Api.Updates.self, key: 2)
        _ = try harness.result(
            Api.functions.messages.sendMedia(
                peer: ann.inputPeer, media: .inputMediaGeoPoint(.init(geoPoint: PlaceMediaTests.hanoi)),
                message: "here", randomId: 2),
            as: Api.Updates.self, key: 2)
        let benInAnnsBox = ben.inputPeer
        func forward(
            _ ids: [Int32], randomIds: [Int64], dropAuthor: Bool = false, dropCaptions: Bool = false
        ) throws
            -> (messages: [Api.Message.Cons_message], randomIds: [Int64])
        {
            Self.sent(
                try harness.result(
                    Api.functions.messages.forwardMessages(
                        dropAuthor: dropAuthor, dropMediaCaptions: dropCaptions, fromPeer: benInAnnsBox, id: ids,
                        randomId: randomIds, toPeer: cid.inputPeer),
                    as: Api.Updates.self, key: 1))
        }
        // Ann's box: 1 "hello", 2 the location. A plain forward names Ben.
        let plain = try forward([1, 2], randomIds: [10, 11])
        #expect(plain.messages.map(\.message) == ["hello", "here"])
        #expect(plain.messages.map(Self.author) == [ben.id, ben.id])
        #expect(plain.randomIds == [10, 11])
        // Captions stay under the author's name whatever is asked.
        let named = try forward([2], randomIds: [12], dropCaptions: true)
        #expect(named.messages.map(\.message) == ["here"] && named.messages.map(Self.author) == [ben.id])
        // drop_author: plain copies from Ann.
        let copies = try forward([1, 2], randomIds: [13, 14], dropAuthor: true)
        #expect(copies.messages.map(\.message) == ["hello", "here"])
        #expect(copies.messages.allSatisfy { $0.fwdFrom == nil })
        // With drop_media_captions too the location loses its caption, the text keeps its words.
        let bare = try forward([1, 2], randomIds: [15, 16], dropAuthor: true, dropCaptions: true)
        #expect(bare.messages.map(\.message) == ["hello", ""])
        #expect(bare.messages.allSatisfy { $0.fwdFrom == nil })
        if case .messageMediaGeo? = bare.messages.last?.media {} else { Issue.record("the location lost its media") }
        // A forward of a forward names the first author: Cid passes Ann's copy of Ben's words back to Ben.
        let annInCidsBox = ann.inputPeer
        let again = Self.sent(
            try harness.result(
                Api.functions.messages.forwardMessages(
                    fromPeer: annInCidsBox, id: [1], randomId: [17], toPeer: ben.inputPeer),
                as: Api.Updates.self, key: 3))
        #expect(again.messages.map(Self.author) == [ben.id])
        // An id missing from the box is left out, and the random ids still pair with their own message.
        let partial = try forward([999, 1], randomIds: [18, 19])
        #expect(partial.randomIds == [19] && partial.messages.map(\.message) == ["hello"])
        // A stranger cannot forward what is not in their box.
        let stranger = try harness.signUp("9996620004", name: "Dee", key: 4)
        #expect(
            harness.error(
                Api.functions.messages.forwardMessages(
                    fromPeer: benInAnnsBox, id: [1, 2], randomId: [20, 21], toPeer: stranger.inputPeer),
                key: 4) == "MESSAGE_ID_INVALID")
    }
}

/// The forwards privacy key (core.telegram.org "Privacy", `inputPrivacyKeyForwards`): a copy links to its author only
/// when the author's rules allow the user who forwards it; otherwise `fwd_from` has `from_name` and no `from_id`.
@Suite struct ForwardPrivacyTests {
    static func header(_ message: Api.Message.Cons_message) -> Api.MessageFwdHeader.Cons_messageFwdHeader? {
        guard case .messageFwdHeader(let header)? = message.fwdFrom else { return nil }
        return header
    }

    @Test func anAuthorWhoHidesForwardsIsNamedNotLinked() throws {
        let harness = try AttackHarness()
        let ann = try harness.signUp("9996620001", name: "Ann", key: 1)
        let ben = try harness.signUp("9996620002", name: "Ben", key: 2)
        let cid = try harness.signUp("9996620003", name: "Cid", key: 3)
        for (text, id) in [("one", Int64(1)), ("two", 2)] {
            _ = try harness.result(
                Api.functions.messages.sendMessage(peer: ann.inputPeer, message: text, randomId: id),
                as: Api.Updates.self, key: 2)
        }
        func forward(_ id: Int32, randomId: Int64) throws -> Api.MessageFwdHeader.Cons_messageFwdHeader? {
            ForwardTests.sent(
                try harness.result(
                    Api.functions.messages.forwardMessages(
                        fromPeer: ben.inputPeer, id: [id], randomId: [randomId], toPeer: cid.inputPeer),
                    as: Api.Updates.self, key: 1)
            ).messages.first.flatMap(Self.header)
        }
        func setForwards(_ rules: [Api.InputPrivacyRule]) throws {
            let answer = try harness.result(
                Api.functions.account.setPrivacy(key: .inputPrivacyKeyForwards, rules: rules),
                as: Api.account.PrivacyRules.self, key: 2)
            let body = try #require(
                { () -> Api.account.PrivacyRules.Cons_privacyRules? in
                    if case .privacyRules(let body) = answer { return body } else { return nil }
                }(), "account.setPrivacy answered \(answer)")
            #expect(body.rules.count == rules.count)
        }
        // By default everybody may link: from_id, no name.
        let open = try #require(try forward(1, randomId: 10))
        #expect(open.fromId != nil && open.fromName == nil)
        // Ben hides his forwards from everybody: Ann's copy names him, with no link.
        try setForwards([.inputPrivacyValueDisallowAll])
        let hidden = try #require(try forward(1, randomId: 11))
        #expect(hidden.fromId == nil && hidden.fromName == "Ben")
        let read = try harness.result(
            Api.functions.account.getPrivacy(key: .inputPrivacyKeyForwards), as: Api.account.PrivacyRules.self, key: 2)
        guard case .privacyRules(let readBody) = read else { Issue.record("\(read)"); return }
        if case .privacyValueDisallowAll? = readBody.rules.first {} else { Issue.record("\(readBody.rules)") }
        // A forward of the hidden copy (the second in Cid's box) keeps the name: Cid passes it on to Ben.
        let again = ForwardTests.sent(
            try harness.result(
                Api.functions.messages.forwardMessages(
                    fromPeer: ann.inputPeer, id: [2], randomId: [12], toPeer: ben.inputPeer),
                as: Api.Updates.self, key: 3))
        #expect(again.messages.first.flatMap(Self.header)?.fromName == "Ben")
        #expect(again.messages.first.flatMap(Self.header)?.fromId == nil)
        // Contacts may link: Ann is not Ben's contact yet, then is.
        try setForwards([.inputPrivacyValueAllowContacts, .inputPrivacyValueDisallowAll])
        #expect(try forward(2, randomId: 13)?.fromId == nil)
        #expect(
            harness.error(
                Api.functions.contacts.importContacts(contacts: [
                    .inputPhoneContact(.init(clientId: 1, phone: "9996620001", firstName: "Ann", lastName: ""))
                ]), key: 2) == nil)
        let linked = try #require(try forward(2, randomId: 14))
        #expect(linked.fromId != nil && linked.fromName == nil)
        // Ben forwarding his own message always links to himself.
        let own = ForwardTests.sent(
            try harness.result(
                Api.functions.messages.forwardMessages(
                    fromPeer: ann.inputPeer, id: [1], randomId: [15], toPeer: cid.inputPeer),
                as: Api.Updates.self, key: 2))
        #expect(
            own.messages.first.flatMap(Self.header) == nil || own.messages.first.flatMap(Self.header)?.fromId != nil)
    }
}
