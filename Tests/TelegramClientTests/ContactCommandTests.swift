import Foundation
import TelegramClient
import TestVectors
import Testing

/// Contacts and common chats as real `tg` processes against a `tg-server` process that imports at most 2 contacts a
/// call (`--contact-imports-per-call 2`), with Telethon 1.45 as Bob: bad phone books are refused with their line and
/// store nothing; a vCard imports Bob, Carol and Dave (one number is nobody's; two come back in `retry_contacts` and
/// are sent again); `tg contacts` lists them; a CSV imports too; Telethon makes a group with Alice, and `tg info`
/// shows the same common chats Telethon's `messages.getCommonChats` and `common_chats_count` show; deleting by phone
/// and by username takes them off the list.
@Suite(.serialized) struct ContactCommandTests {
    static let bob = "9996620191"
    static let alice = "9996610191"
    static let carol = "9996610192"
    static let dave = "9996610193"

    struct Row: Decodable {
        let user: String
        let name: String
        let username: String?
        let status: String?
    }

    struct Entry: Decodable {
        let phone: String
        let name: String
        let user: String?
    }

    struct Imported: Decodable {
        let imported: [Entry]
        let notOnTelegram: [Entry]
        let retried: Int
        let retryLater: [Entry]
    }

    struct Info: Decodable {
        let user: String
        let name: String
        let contact: Bool
        let commonChatsCount: Int
        let commonChats: [String]
    }

    struct PeerContacts: Decodable { let user_ids: [Int64] }
    struct PeerCommon: Decodable {
        let titles: [String]
        let count: Int
    }
    struct Created: Decodable { let chat_id: Int64 }

    @Test func contactsAndCommonChatsWithTelethon() async throws {
        let harness = try await CommandLineHarness(
            peerPhone: Self.bob, peerUsername: "bob_contacts", serverArguments: ["--contact-imports-per-call", "2"])
        do {
            try await contacts(harness)
        } catch {
            await harness.close()
            throw error
        }
        await harness.close()
    }

    func write(_ text: String, _ name: String, in harness: CommandLineHarness) throws -> String {
        let path = harness.folder.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func contacts(_ harness: CommandLineHarness) async throws {
        for (arguments, text) in [
            (["contacts", "--help"], "last seen status"), (["contacts", "import", "--help"], "vCard"),
            (["contacts", "delete", "--help"], "deleteByPhones"), (["info", "--help"], "common"),
        ] {
            let help = try await harness.tg(arguments)
            #expect(help.status == 0 && help.output.contains(text), "tg \(arguments): \(help.output)")
        }
        var users: [String: Int64] = [:]
        for (account, phone, name) in [
            ("alice", Self.alice, "Alice"), ("carol", Self.carol, "Carol"), ("dave", Self.dave, "Dave"),
        ] {
            let login = try await harness.tgJSON(
                LoginResult.self,
                [
                    "login", "--account", account, "--phone", phone, "--code", "11111", "--first-name", name,
                    "--server", harness.serverArgument, "--server-key", harness.keyFile,
                ])
            #expect(login.status == "signedIn", "\(account): \(login)")
            users[account] = login.userId
        }
        let alice = try #require(users["alice"]), carol = try #require(users["carol"]),
            dave = try #require(users["dave"])

        // Bad files: refused with the line, exit 2, nothing imported.
        let unterminated = try write("BEGIN:VCARD\nFN:Bob\nTEL:+\(Self.bob)\n", "bad.vcf", in: harness)
        let noPhone = try write("name,number\nBob,\(Self.bob)\n", "bad.csv", in: harness)
        let wrongKind = try write("Bob \(Self.bob)\n", "book.txt", in: harness)
        for (path, text) in [
            (unterminated, "bad.vcf:1: BEGIN:VCARD without END:VCARD"), (noPhone, "no 'phone' column"),
            (wrongKind, "not a .vcf or .csv"),
            (harness.folder.appendingPathComponent("none.vcf").path, "cannot be read"),
        ] {
            let refused = try await harness.tg(["--account", "alice", "contacts", "import", path])
            #expect(refused.status == 2 && refused.errorOutput.contains(text), "\(path): \(refused.errorOutput)")
        }
        #expect(try await harness.tgJSON([Row].self, ["--account", "alice", "contacts"]).isEmpty)

        // A vCard of four numbers, one nobody's: the server defers two of the call, which are sent again.
        let book = try write(
            """
            BEGIN:VCARD
            VERSION:4.0
            FN:Bobby Telethon
            TEL;TYPE=cell:+999 662 0191
            END:VCARD
            BEGIN:VCARD
            VERSION:3.0
            N:Cee;Carol;;;
            TEL:+\(Self.carol)
            TEL:+9996619999
            END:VCARD
            BEGIN:VCARD
            FN:Dave
            TEL:\(Self.dave)
            END:VCARD

            """, "book.vcf", in: harness)
        let imported = try await harness.tgJSON(Imported.self, ["--account", "alice", "contacts", "import", book])
        #expect(imported.imported.count == 3 && imported.notOnTelegram.map(\.phone) == ["+9996619999"], "\(imported)")
        #expect(imported.retried == 2 && imported.retryLater.isEmpty, "\(imported)")
        let bobId = try #require(imported.imported.first { $0.phone == "+999 662 0191" }?.user)
        #expect(Set(imported.imported.compactMap(\.user)) == [bobId, "user:\(carol)", "user:\(dave)"])

        let rows = try await harness.tgJSON([Row].self, ["--account", "alice", "contacts"])
        #expect(rows.map(\.name) == ["Bob", "Carol", "Dave"], "\(rows)")
        #expect(rows.map(\.user) == [bobId, "user:\(carol)", "user:\(dave)"])
        #expect(rows.first?.username == "bob_contacts" && rows.allSatisfy { $0.status != nil }, "\(rows)")
        let listed = try await harness.tg(["--account", "alice", "contacts"])
        #expect(listed.status == 0 && listed.output.contains("\(bobId)  Bob  @bob_contacts"), "\(listed.output)")
        let again = try await harness.tg(["--account", "alice", "contacts", "import", book])
        #expect(again.output.contains("imported 3, not on Telegram 1, retried 2"), "\(again.output)")

        // Carol's CSV names Alice and nobody.
        let csv = try write(
            "name,phone\n\"Alice, from work\",+\(Self.alice)\nNobody,+9996619998\n", "c.csv", in: harness)
        let carols = try await harness.tgJSON(Imported.self, ["--account", "carol", "contacts", "import", csv])
        #expect(carols.imported.map(\.user) == ["user:\(alice)"] && carols.notOnTelegram.count == 1, "\(carols)")

        // Telethon makes a group with Alice: both sides count one common chat with the same title.
        let club = try await harness.peer(
            Created.self, ["op": "create_group", "with": Self.alice, "title": "Contacts Club"])
        let info = try await harness.tgJSON(Info.self, ["--account", "alice", "info", "@bob_contacts"])
        #expect(info.user == bobId && info.name == "Bob" && info.contact, "\(info)")
        #expect(info.commonChatsCount == 1 && info.commonChats == ["Contacts Club"], "\(info)")
        let theirs = try await harness.peer(PeerCommon.self, ["op": "common_chats", "with": Self.alice])
        #expect(theirs.titles == info.commonChats && theirs.count == info.commonChatsCount, "\(theirs)")
        let shown = try await harness.tg(["--account", "alice", "info", "@bob_contacts"])
        #expect(shown.output.contains("common chats: 1") && shown.output.contains("  Contacts Club"), "\(shown.output)")
        let group = try await harness.tg(["--account", "alice", "info", "chat:\(club.chat_id)"])
        #expect(group.status == 2 && group.errorOutput.contains("is not a user"), "\(group.errorOutput)")
        // Telethon imported Alice to write to her: she is in its contact list as the server keeps it.
        #expect(try await harness.peer(PeerContacts.self, ["op": "contacts"]).user_ids == [alice])

        // Deleting by phone and by username.
        let byPhone = try await harness.tg(["--account", "alice", "contacts", "delete", "+\(Self.dave)"])
        #expect(byPhone.status == 0 && byPhone.output.contains("deleted Dave"), "\(byPhone.errorOutput)")
        let notThere = try await harness.tg(["--account", "alice", "contacts", "delete", "+\(Self.dave)"])
        #expect(
            notThere.status == 5 && notThere.errorOutput.contains("not in your contacts"), "\(notThere.errorOutput)")
        let byName = try await harness.tg(["--account", "alice", "contacts", "delete", "@bob_contacts"])
        #expect(byName.status == 0 && byName.output.contains("deleted Bob"), "\(byName.errorOutput)")
        #expect(try await harness.tgJSON([Row].self, ["--account", "alice", "contacts"]).map(\.name) == ["Carol"])
        let gone = try await harness.tg(["--account", "alice", "contacts", "delete", "@bob_contacts"])
        #expect(gone.status == 5 && gone.errorOutput.contains("not in your contacts"), "\(gone.errorOutput)")
        #expect(try await harness.tgJSON(Info.self, ["--account", "alice", "info", "@bob_contacts"]).contact == false)
    }
}
