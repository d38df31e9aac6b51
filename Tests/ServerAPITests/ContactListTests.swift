import Foundation
import Hashing
import ServerAPI
import TLRuntime
import TelegramApi
import Testing

/// The contact list (core.telegram.org `contacts.importContacts`, `getContacts`, `deleteContacts`, `deleteByPhones`,
/// `addContact`) on a server that imports at most 2 contacts a call: the rest come back in `retry_contacts`;
/// `getContacts` answers `contactsNotModified` for the hash of the list (Telegram's list hash over `saved_count` 0
/// and the ids ascending); users carry `contact` and `mutual_contact` as the viewer sees them.
@Suite struct ContactListTests {
    typealias Account = AttackHarness.Account

    static func phone(_ phone: String, _ clientId: Int64) -> Api.InputContact {
        .inputPhoneContact(.init(clientId: clientId, phone: phone, firstName: "N\(clientId)", lastName: ""))
    }

    static func contacts(_ account: Account, hash: Int64 = 0, _ harness: AttackHarness) throws -> Api.contacts.Contacts
    {
        try harness.result(
            Api.functions.contacts.getContacts(hash: hash), as: Api.contacts.Contacts.self, key: account.key)
    }

    /// The listed ids with their `mutual` flag and the users' `contact` / `mutual_contact` flags.
    static func listed(_ answer: Api.contacts.Contacts) -> [String] {
        guard case .contacts(let body) = answer else { return ["not modified"] }
        return zip(body.contacts, body.users).map { contact, user in
            guard case .contact(let entry) = contact, case .user(let shown) = user else { return "?" }
            return
                "\(entry.userId) mutual=\(entry.mutual) contact=\(shown.contact) mutualContact=\(shown.mutualContact)"
        }
    }

    @Test func importRetryHashDeleteAndAdd() throws {
        let harness = try AttackHarness(flood: .init(contactImportsPerCall: 2))
        let ann = try harness.signUp("9996620001", name: "Ann", key: 1)
        let ben = try harness.signUp("9996620002", name: "Ben", key: 2)
        let cid = try harness.signUp("9996620003", name: "Cid", key: 3)

        // Ben, nobody, Cid: the third is past the call's 2 and comes back to retry; then it is imported.
        let first = try harness.result(
            Api.functions.contacts.importContacts(contacts: [
                Self.phone("+999 662 0002", 10), Self.phone("9996629999", 11), Self.phone("9996620003", 12),
            ]), as: Api.contacts.ImportedContacts.self, key: ann.key)
        let answer = try #require(
            { () -> Api.contacts.ImportedContacts.Cons_importedContacts? in
                if case .importedContacts(let body) = first { return body } else { return nil }
            }(), "contacts.importContacts answered \(first)")
        #expect(answer.retryContacts == [12])
        #expect(
            answer.imported.map { contact -> [Int64] in
                guard case .importedContact(let entry) = contact else { return [] }
                return [entry.userId, entry.clientId]
            } == [[ben.id, 10]])
        let again = try harness.result(
            Api.functions.contacts.importContacts(contacts: [Self.phone("9996620003", 12)]),
            as: Api.contacts.ImportedContacts.self, key: ann.key)
        let second = try #require(
            { () -> Api.contacts.ImportedContacts.Cons_importedContacts? in
                if case .importedContacts(let body) = again { return body } else { return nil }
            }(), "contacts.importContacts answered \(again)")
        #expect(second.retryContacts.isEmpty && second.imported.count == 1)

        let ids = [ben.id, cid.id].sorted()
        let list = try Self.contacts(ann, harness)
        #expect(
            Self.listed(list) == ids.map { "\($0) mutual=false contact=true mutualContact=false" }, "\(list)")
        let hash = PaginationHash.contacts(savedCount: 0, userIds: ids)
        #expect(Self.listed(try Self.contacts(ann, hash: hash, harness)) == ["not modified"])
        #expect(Self.listed(try Self.contacts(ann, hash: hash &+ 1, harness)).count == 2, "another hash: the list")
        #expect(Self.listed(try Self.contacts(ben, hash: hash, harness)) == [], "Ben's own (empty) list")

        // Ben adds Ann by id: mutual both ways now.
        let added = try harness.result(
            Api.functions.contacts.addContact(id: ann.inputUser, firstName: "Ann", lastName: "", phone: ""),
            as: Api.Updates.self, key: ben.key)
        guard case .updates(let addedBody) = added, case .user(let shownAnn)? = addedBody.users.first else {
            Issue.record("\(added)"); return
        }
        #expect(shownAnn.id == ann.id && shownAnn.contact && shownAnn.mutualContact)
        #expect(
            Self.listed(try Self.contacts(ann, harness)).first
                == "\(ben.id) mutual=true contact=true mutualContact=true")

        // Ann deletes Ben by id, Ben deletes Ann by phone.
        let deleted = try harness.result(
            Api.functions.contacts.deleteContacts(id: [ben.inputUser]), as: Api.Updates.self, key: ann.key)
        guard case .updates(let deletedBody) = deleted, case .user(let shownBen)? = deletedBody.users.first else {
            Issue.record("\(deleted)"); return
        }
        #expect(shownBen.id == ben.id && !shownBen.contact)
        #expect(
            Self.listed(try Self.contacts(ann, harness)) == ["\(cid.id) mutual=false contact=true mutualContact=false"])
        #expect(harness.error(Api.functions.contacts.deleteByPhones(phones: ["+999 662 0001"]), key: ben.key) == nil)
        #expect(Self.listed(try Self.contacts(ben, harness)) == [])

        // Refusals.
        #expect(
            harness.error(
                Api.functions.contacts.addContact(id: .inputUserSelf, firstName: "Me", lastName: "", phone: ""),
                key: ann.key) == "CONTACT_ID_INVALID")
        #expect(
            harness.error(
                Api.functions.contacts.addContact(id: ben.inputUser, firstName: " ", lastName: "", phone: ""),
                key: ann.key) == "FIRSTNAME_INVALID")
        #expect(
            harness.error(
                Api.functions.contacts.importContacts(contacts: (0..<501).map { Self.phone("555\($0)", Int64($0)) }),
                key: ann.key) == "LIMIT_INVALID")
    }
}
