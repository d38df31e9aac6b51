import Foundation
import TelegramClient
import TestVectors
import Testing

/// Pins and invite links as real `tg` processes of our accounts against a `tg-server` process: Alice makes a private
/// supergroup and a link; Bob joins through it (a second time he is told he is a member); Alice pins a message and
/// Bob's history marks it pinned with the pin's service message, and his render heads the chat with the pinned bar;
/// a revoked link is refused; a link that asks an admin leaves Carol's join as a request, which Alice lists and
/// approves; an unpin reaches Bob; `--one-side` pins in a private chat for the pinner only.
@Suite(.serialized) struct PinLinkCommandTests {
    struct Link: Decodable {
        let chat: String
        let link: String
        let admin: String
        let revoked: Bool
        let request_needed: Bool
        let usage_limit: Int32?
    }

    struct JoinRequest: Decodable {
        let user: String
        let name: String
    }

    @Test func aLinkIsJoinedAPinReachesTheMemberAndARequestIsApproved() async throws {
        try await CommandLineHarness.with(pinsAndLinks)
    }

    func pinsAndLinks(_ harness: CommandLineHarness) async throws {
        for (command, option) in [
            ("pin", "--silent"), ("pin", "--one-side"), ("link", "--request"), ("link", "--list"), ("link", "--all"),
            ("requests", "--approve"), ("join", "invite link"),
        ] {
            let help = try await harness.tg([command, "--help"])
            #expect(help.status == 0 && help.output.contains(option), "tg \(command) --help: \(help.output)")
        }
        var users: [String: String] = [:]
        for (account, phone, name) in [
            ("alice", "9996610073", "Alice"), ("bob", "9996620074", "Bob"), ("carol", "9996630075", "Carol"),
        ] {
            let login = try await harness.tgJSON(
                LoginResult.self,
                [
                    "login", "--account", account, "--phone", phone, "--code",
                    String(repeating: String(phone.dropFirst(5).prefix(1)), count: 5),
                    "--first-name", name, "--server", harness.serverArgument, "--server-key", harness.keyFile,
                ])
            #expect(login.status == "signedIn", "\(account): \(login)")
            users[account] = "user:\(try #require(login.userId))"
        }

        // Alice's private supergroup, a message in it and a link to it.
        let group = try await harness.tgJSON(
            ChannelCommandTests.Group.self, ["--account", "alice", "create-group", "Pins", "--super"])
        #expect(group.kind == "supergroup" && group.username == nil, "\(group)")
        let meeting = try await harness.tgJSON(
            MessageSummary.self, ["--account", "alice", "send", group.chat, "Meeting at 10"])
        let link = try await harness.tgJSON(Link.self, ["--account", "alice", "link", group.chat, "--limit", "5"])
        #expect(link.chat == group.chat && link.link.hasPrefix("https://t.me/+") && !link.revoked, "\(link)")
        #expect(link.usage_limit == 5 && !link.request_needed)
        let listed = try await harness.tgJSON([Link].self, ["--account", "alice", "link", group.chat, "--list"])
        #expect(listed.map(\.link).contains(link.link) && listed.allSatisfy { !$0.revoked }, "\(listed)")
        // Every admin's links (the creator's view): here only Alice's, each naming her.
        let all = try await harness.tgJSON([Link].self, ["--account", "alice", "link", group.chat, "--list", "--all"])
        #expect(all.map(\.link) == listed.map(\.link) && Set(all.map(\.admin)) == [link.admin], "\(all)")
        #expect(link.admin.hasPrefix("user:"))

        // Bob joins through it; again, he is told he is a member.
        let joined = try await harness.tgJSON(
            [String: JSONValue].self, ["--account", "bob", "join", link.link])
        #expect(joined["status"] == .string("joined") && joined["chat"] == .string(group.chat), "\(joined)")
        #expect(joined["title"] == .string("Pins"))
        let again = try await harness.tg(["--account", "bob", "join", link.link])
        #expect(again.status == 0 && again.output.contains("already a member"), "\(again.output) \(again.errorOutput)")

        // Alice pins her message; Bob's history has it pinned and the pin's service message naming it.
        let pinned = try await harness.tgJSON(
            [String: JSONValue].self,
            ["--account", "alice", "pin", group.chat, String(meeting.id)])
        #expect(pinned["pinned"] == .bool(true) && pinned["id"] == .int(Int(meeting.id)), "\(pinned)")
        let bobs = try await harness.tgJSON([MessageSummary].self, ["--account", "bob", "history", group.chat]) {
            $0.contains { $0.id == meeting.id && $0.pinned } && $0.contains { $0.action?.type == "pinMessage" }
        }
        #expect(bobs.first { $0.id == meeting.id }?.pinned == true, "\(bobs.map { ($0.id, $0.pinned) })")
        let service = try #require(bobs.first { $0.action?.type == "pinMessage" }, "\(bobs.map(\.text))")
        #expect(service.replyTo == meeting.id && service.from == users["alice"], "\(service)")
        let drawn = try await harness.tg([
            "--account", "bob", "render", group.chat, "--ansi", "--plain", "--width", "60",
        ])
        #expect(drawn.status == 0, "\(drawn.errorOutput)")
        #expect(drawn.output.hasPrefix("📌 Pinned Message: Meeting at 10\n"), "\(drawn.output)")
        #expect(drawn.output.contains("Alice pinned “Meeting at 10”"), "\(drawn.output)")
        let bobHistory = try await harness.tg(["--account", "bob", "history", group.chat])
        #expect(bobHistory.output.contains("Meeting at 10 📌"), "\(bobHistory.output)")

        // One-sided pins are for private chats: refused in the group; in Alice's chat with Bob, pinned for her only.
        let sideways = try await harness.tg(["--account", "alice", "pin", group.chat, String(meeting.id), "--one-side"])
        #expect(
            sideways.status != 0 && sideways.errorOutput.contains("--one-side is for private chats only"),
            "\(sideways.status) \(sideways.errorOutput)")
        let bob = try #require(users["bob"])
        // By phone: Alice has no private chat with Bob yet, and whether his user is stored from the group depends on
        // what her earlier commands loaded ("no stored chat user:…" in one fresh run).
        let note = try await harness.tgJSON(
            MessageSummary.self, ["--account", "alice", "send", "+9996620074", "Only mine"])
        let mine = try await harness.tgJSON(
            [String: JSONValue].self, ["--account", "alice", "pin", bob, String(note.id), "--one-side"])
        #expect(mine["pinned"] == .bool(true), "\(mine)")
        let alicesSide = try await harness.tgJSON([MessageSummary].self, ["--account", "alice", "history", bob])
        #expect(alicesSide.first { $0.id == note.id }?.pinned == true, "\(alicesSide.map { ($0.id, $0.pinned) })")
        #expect(!alicesSide.contains { $0.action?.type == "pinMessage" }, "no service message for a one-sided pin")
        let bobsSide = try await harness.tgJSON(
            [MessageSummary].self, ["--account", "bob", "history", try #require(users["alice"])]
        ) { $0.contains { $0.text == "Only mine" } }
        #expect(bobsSide.first { $0.text == "Only mine" }?.pinned == false, "\(bobsSide.map { ($0.text, $0.pinned) })")

        // A revoked link admits no one.
        let revoked = try await harness.tgJSON(
            Link.self, ["--account", "alice", "link", group.chat, "--revoke", link.link])
        #expect(revoked.revoked && revoked.link == link.link, "\(revoked)")
        let active = try await harness.tgJSON([Link].self, ["--account", "alice", "link", group.chat, "--list"])
        #expect(!active.map(\.link).contains(link.link), "\(active)")
        let gone = try await harness.tgJSON(
            [Link].self, ["--account", "alice", "link", group.chat, "--list", "--revoked"])
        #expect(gone.map(\.link) == [link.link] && gone.allSatisfy(\.revoked), "\(gone)")
        let closed = try await harness.tg(["--account", "carol", "join", link.link])
        #expect(closed.status == 6 && closed.errorOutput.contains("INVITE_HASH_EXPIRED"), "\(closed.errorOutput)")

        // A link that asks first: Carol's join is a request, Alice lists it and approves it; then Carol is a member.
        let asking = try await harness.tgJSON(Link.self, ["--account", "alice", "link", group.chat, "--request"])
        #expect(asking.request_needed && asking.link != link.link, "\(asking)")
        let requested = try await harness.tgJSON(
            [String: JSONValue].self, ["--account", "carol", "join", asking.link])
        #expect(requested == ["status": .string("requested"), "title": .string("Pins")], "\(requested)")
        let plainRequest = try await harness.tg(["--account", "carol", "join", asking.link])
        #expect(
            plainRequest.status == 0 && plainRequest.output.contains("an admin must approve"), "\(plainRequest.output)")
        let waiting = try await harness.tgJSON([JoinRequest].self, ["--account", "alice", "requests", group.chat])
        #expect(waiting.map(\.user) == [try #require(users["carol"])] && waiting.first?.name == "Carol", "\(waiting)")
        let approved = try await harness.tgJSON(
            [String: JSONValue].self,
            ["--account", "alice", "requests", group.chat, "--approve", try #require(users["carol"])])
        #expect(approved["approved"] == .bool(true), "\(approved)")
        let afterwards = try await harness.tgJSON([JoinRequest].self, ["--account", "alice", "requests", group.chat])
        #expect(afterwards.isEmpty, "\(afterwards)")
        let member = try await harness.tgJSON(
            [String: JSONValue].self, ["--account", "carol", "join", asking.link])
        #expect(member["status"] == .string("member") && member["chat"] == .string(group.chat), "\(member)")

        // Alice unpins; Bob's history follows.
        _ = try await harness.tgJSON(
            [String: JSONValue].self,
            ["--account", "alice", "pin", group.chat, String(meeting.id), "--unpin"])
        let unpinned = try await harness.tgJSON(
            [MessageSummary].self, ["--account", "bob", "history", group.chat]
        ) {
            $0.contains { $0.id == meeting.id && !$0.pinned }
        }
        #expect(unpinned.first { $0.id == meeting.id }?.pinned == false)
        let plainRender = try await harness.tg(["--account", "bob", "render", group.chat, "--ansi", "--plain"])
        #expect(!plainRender.output.contains("📌 Pinned Message"), "\(plainRender.output)")
    }
}
