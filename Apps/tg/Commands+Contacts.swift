import ArgumentParser
import TelegramClient
import TelegramCore

/// `tg contacts [list | import FILE | delete PEER]`: the account's contact list.
struct Contacts: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List, import or delete your contacts.",
        subcommands: [List.self, Import.self, Delete.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List your contacts by name, with their last seen status when it is known.",
            discussion: """
                contacts.getContacts with the hash of the list stored here: an unchanged list is not sent again. \
                Prints 'user:ID  Name  @username  status', or with --json [{"user", "name", "username", "status"}].
                """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let rows = try await global.withOnlineAccount { _, account in try await ContactCommands.list(account) }
            if output.json { return try Output.json(rows) }
            if rows.isEmpty { print("no contacts") }
            for row in rows {
                let parts = [row.user, row.name, row.username.map { "@" + $0 }, row.status].compactMap { $0 }
                print(parts.joined(separator: "  "))
            }
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import the phone numbers of a vCard (.vcf) or CSV (.csv) file as contacts.",
            discussion: """
                A .vcf holds vCard 3.0 or 4.0 cards (BEGIN:VCARD … END:VCARD): each TEL line is one contact, named by \
                N (or FN). A .csv has a header with a name (or first_name, last_name) and a phone column. The whole \
                file is checked first: a bad line is reported with its number and nothing is imported. \
                contacts.importContacts in batches of at most 500; numbers the server answers in retry_contacts are \
                sent again (up to 3 times, a second apart). Prints how many were imported, are not on Telegram and \
                were retried, or with --json {"imported", "notOnTelegram", "retried", "retryLater", "floodWait"}.
                """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "The .vcf or .csv file.") var file: String

        func run() async throws {
            let contacts: [PhoneContact]
            do { contacts = try ContactFile.read(file) } catch { throw TGExit.toolError(error) }
            let result = try await global.withOnlineAccount { _, account in
                try await ContactCommands.importContacts(account, contacts)
            }
            if output.json { return try Output.json(result) }
            print(
                "imported \(result.imported.count), not on Telegram \(result.notOnTelegram.count), "
                    + "retried \(result.retried)")
            for entry in result.imported { print("  + \(entry.name)  \(entry.phone)  \(entry.user ?? "")") }
            for entry in result.notOnTelegram { print("  - \(entry.name)  \(entry.phone)  (not on Telegram)") }
            if !result.retryLater.isEmpty {
                let reason = result.floodWait.map { "the server asked to wait \($0) s" } ?? "the server asked to retry"
                print("\(result.retryLater.count) not imported yet (\(reason)); run the import again later")
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove someone from your contacts.",
            discussion: """
                +phone: contacts.deleteByPhones; @username, user:ID or a name: contacts.deleteContacts (someone who \
                is not a contact is reported, exit 5, either way). Prints 'deleted NAME', or with --json {"deleted": "NAME"}.
                """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "The contact: @username, +phone, user:ID or their name.") var peer: String

        func run() async throws {
            let name = try await global.withOnlineAccount { _, account in
                try await ContactCommands.delete(account, peer)
            }
            if output.json { return try Output.json(["deleted": name]) }
            print("deleted \(name)")
        }
    }
}

/// `tg info PEER`: who a user is to you, and the chats you share.
struct Info: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a user: name, username, whether they are your contact, and the groups and channels you share.",
        discussion: """
            users.getFullUser (common_chats_count) and messages.getCommonChats. Prints the user, then 'common chats: \
            N' and one title a line; with --json {"user", "name", "username", "contact", "commonChatsCount", \
            "commonChats"}.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The user: @username, +phone, user:ID or a chat's name.") var peer: String

    func run() async throws {
        let info = try await global.withOnlineAccount { _, account in
            try await ContactCommands.info(account, try await resolvePeer(peer, account))
        }
        if output.json { return try Output.json(info) }
        print([info.user, info.name, info.username.map { "@" + $0 }].compactMap { $0 }.joined(separator: "  "))
        print("contact: \(info.contact ? "yes" : "no")")
        print("common chats: \(info.commonChatsCount)")
        for title in info.commonChats { print("  \(title)") }
    }
}
