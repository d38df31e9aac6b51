import Foundation
import ImageCore
import MediaTestSupport
import TelegramClient
import TestVectors
import Testing

/// The group and channel commands as real `tg` processes of two of our accounts against a `tg-server` process: Alice
/// makes a public channel, Bob joins it by its username and reads Alice's post with its views; Bob may not post in
/// it; Alice lists, promotes and bans him, after which the channel is closed to him; a supergroup made with
/// `create-group --super` takes Bob's messages until Alice bans him, when his send is refused with the server's error
/// name; a basic group is made, listed and left.
@Suite(.serialized) struct ChannelCommandTests {
    struct Group: Decodable, Equatable {
        let chat: String
        let title: String
        let username: String?
        let kind: String
    }

    struct Member: Decodable {
        let peer: String
        let name: String
        let role: String
        let rights: [String]?
    }

    struct Members: Decodable {
        let chat: String
        let total: Int
        let members: [Member]
    }

    @Test func aChannelIsMadeJoinedReadAndClosedThroughTg() async throws {
        try await CommandLineHarness.with(channels)
    }

    func channels(_ harness: CommandLineHarness) async throws {
        var users: [String: String] = [:]
        for (account, phone, name) in [("alice", "9996610071", "Alice"), ("bob", "9996620072", "Bob")] {
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
        _ = try await harness.tgJSON([String: String?].self, ["--account", "bob", "username", "bob_chan"])

        // Alice's public channel; Bob joins it by its name.
        let news = try await harness.tgJSON(
            Group.self,
            ["--account", "alice", "create-channel", "Alice's news", "--about", "Daily", "--username", "alice_news"])
        #expect(news.kind == "channel" && news.username == "alice_news" && news.chat.hasPrefix("channel:"), "\(news)")
        let joined = try await harness.tgJSON(Group.self, ["--account", "bob", "join", "@alice_news"])
        #expect(joined == news)
        let again = try await harness.tg(["--account", "bob", "join", "@alice_news"])
        #expect(again.status == 6 && again.errorOutput.contains("USER_ALREADY_PARTICIPANT"), "\(again.errorOutput)")
        let nobody = try await harness.tg(["--account", "bob", "join", "@nobody_at_all"])
        #expect(nobody.status == 5, "\(nobody.errorOutput)")

        // Alice posts; Bob's history has the post under the channel, with its views.
        let post = try await harness.tgJSON(
            MessageSummary.self, ["--account", "alice", "send", news.chat, "**Rain** in Hanoi"])
        #expect(post.chat == news.chat && post.text == "Rain in Hanoi")
        let bobs = try await harness.tgJSON([MessageSummary].self, ["--account", "bob", "history", news.chat]) {
            $0.contains { $0.text == "Rain in Hanoi" }
        }
        let seen = try #require(bobs.first { $0.text == "Rain in Hanoi" }, "\(bobs.map(\.text))")
        #expect(seen.from == news.chat && seen.fromName == "Alice's news" && seen.chatName == "Alice's news")
        // Bob's `history` counted him as a viewer (messages.getMessagesViews with increment).
        #expect((seen.views ?? 0) >= 1 && seen.entities.map(\.type) == ["bold"], "\(seen)")
        let plain = try await harness.tg(["--account", "bob", "history", news.chat])
        #expect(plain.status == 0 && plain.output.contains("Alice's news: **Rain** in Hanoi 👁 "), "\(plain.output)")
        let drawn = try await harness.tg([
            "--account", "bob", "render", news.chat, "--ansi", "--plain", "--width", "60",
        ])
        #expect(drawn.status == 0 && drawn.output.contains("│ Alice's news"), "\(drawn.output)")
        #expect(drawn.output.contains("👁\u{FE0F} 1  "), "\(drawn.output)")
        // The join brought the read state: what was there before Bob joined is read, Alice's post since is not.
        let created = try #require(drawn.output.range(of: "created ·"), "\(drawn.output)")
        let unread = try #require(drawn.output.range(of: "unread messages"), "\(drawn.output)")
        let postTitle = try #require(drawn.output.range(of: "│ Alice's news"), "\(drawn.output)")
        #expect(created.upperBound < unread.lowerBound && unread.upperBound < postTitle.lowerBound, "\(drawn.output)")

        // Bob is no admin: he may not post, nor list the members.
        let bobPost = try await harness.tg(["--account", "bob", "send", news.chat, "me too"])
        #expect(bobPost.status == 6, "\(bobPost.errorOutput)")
        #expect(bobPost.errorOutput.contains("CHAT_WRITE_FORBIDDEN"), "\(bobPost.errorOutput)")
        let bobList = try await harness.tg(["--account", "bob", "members", news.chat])
        #expect(bobList.status == 6 && bobList.errorOutput.contains("CHAT_ADMIN_REQUIRED"), "\(bobList.errorOutput)")

        // Alice lists the members, makes Bob an editor, sees him among the admins, then bans him.
        let members = try await harness.tgJSON(Members.self, ["--account", "alice", "members", news.chat])
        #expect(members.total == 2 && Set(members.members.map(\.role)) == ["creator", "member"], "\(members)")
        _ = try await harness.tgJSON(
            [String: JSONValue].self, ["--account", "alice", "admin", news.chat, "@bob_chan", "--rights", "post,edit"])
        let admins = try await harness.tgJSON(Members.self, ["--account", "alice", "members", news.chat, "--admins"])
        #expect(admins.members.first { $0.peer == users["bob"] }?.rights == ["post", "edit"], "\(admins)")
        let badRight = try await harness.tg(["--account", "alice", "admin", news.chat, "@bob_chan", "--rights", "fly"])
        #expect(badRight.status == 2 && badRight.errorOutput.contains("fly"), "\(badRight.errorOutput)")
        let demoted = try await harness.tg(["--account", "alice", "admin", news.chat, "@bob_chan", "--remove"])
        #expect(demoted.status == 0 && demoted.output.contains("no longer an admin"), "\(demoted.output)")
        let banned = try await harness.tg(["--account", "alice", "ban", news.chat, "@bob_chan"])
        #expect(banned.status == 0 && banned.output.contains("banned"), "\(banned.errorOutput)")
        // Banned, Bob no longer finds the channel by its name (tg-server hides it), and by its id it is closed.
        let byName = try await harness.tg(["--account", "bob", "join", "@alice_news"])
        #expect(byName.status == 5 && byName.errorOutput.contains("USERNAME_NOT_OCCUPIED"), "\(byName.errorOutput)")
        let rejoin = try await harness.tg(["--account", "bob", "join", news.chat])
        #expect(rejoin.status == 6 && rejoin.errorOutput.contains("CHANNEL_PRIVATE"), "\(rejoin.errorOutput)")

        // A supergroup with Bob: he writes until Alice bans him, then his message is refused with the server's error.
        let builders = try await harness.tgJSON(
            Group.self, ["--account", "alice", "create-group", "Builders", "@bob_chan", "--super"])
        #expect(builders.kind == "supergroup", "\(builders)")
        let hello = try await harness.tgJSON(
            MessageSummary.self, ["--account", "bob", "send", builders.chat, "hi all"])
        #expect(hello.chat == builders.chat && hello.outgoing)
        let kicked = try await harness.tgJSON(
            [String: JSONValue].self, ["--account", "alice", "ban", builders.chat, "@bob_chan", "--until", "1d"])
        #expect(kicked["banned"] == .bool(true), "\(kicked)")
        let refused = try await harness.tg(["--account", "bob", "send", builders.chat, "still here?"])
        #expect(refused.status == 6, "\(refused.output) \(refused.errorOutput)")
        // tg-server answers a banned member as one outside a private channel (core.telegram.org: CHANNEL_PRIVATE).
        #expect(refused.errorOutput.contains("CHANNEL_PRIVATE"), "\(refused.errorOutput)")

        // A basic group: made with Bob, listed, left by Bob.
        let trip = try await harness.tgJSON(Group.self, ["--account", "alice", "create-group", "Trip", "@bob_chan"])
        #expect(trip.kind == "group" && trip.chat.hasPrefix("chat:"), "\(trip)")
        let tripMembers = try await harness.tgJSON(Members.self, ["--account", "alice", "members", trip.chat])
        #expect(tripMembers.total == 2, "\(tripMembers)")
        // Its photo: set from a PNG, then removed; a file that is no picture is refused before anything is sent.
        let picture = harness.folder.appendingPathComponent("trip.png").path
        try Data(PNGCodec.encode(Photo.drawn(width: 120, height: 90))).write(to: URL(fileURLWithPath: picture))
        let photo = try await harness.tg(["--account", "alice", "chat-photo", trip.chat, picture])
        #expect(photo.status == 0, "\(photo.errorOutput)")
        let notPicture = harness.folder.appendingPathComponent("trip.txt").path
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: notPicture))
        let refusedPicture = try await harness.tg(["--account", "alice", "chat-photo", trip.chat, notPicture])
        #expect(refusedPicture.status == 2 && refusedPicture.errorOutput.contains("trip.txt"))
        let both = try await harness.tg(["--account", "alice", "chat-photo", trip.chat, picture, "--remove"])
        #expect(both.status == 2, "\(both.errorOutput)")
        let removed = try await harness.tg(["--account", "alice", "chat-photo", trip.chat, "--remove"])
        #expect(removed.status == 0, "\(removed.errorOutput)")
        // Bob, a member, sees both changes as service messages.
        let bobsTrip = try await harness.tgJSON([MessageSummary].self, ["--account", "bob", "history", trip.chat]) {
            $0.contains { $0.action?.type == "chatDeletePhoto" }
        }
        #expect(
            bobsTrip.compactMap(\.action?.type).suffix(2) == ["chatEditPhoto", "chatDeletePhoto"], "\(bobsTrip)")
        let left = try await harness.tgJSON([String: String].self, ["--account", "bob", "leave", trip.chat])
        #expect(left["left"] == trip.chat)
        // Alice's history of the group: its creation and Bob's leaving as service messages with their actions.
        let tripHistory = try await harness.tgJSON([MessageSummary].self, ["--account", "alice", "history", trip.chat])
        {
            $0.contains { $0.action?.type == "chatDeleteUser" }
        }
        #expect(
            tripHistory.first?.action == ActionSummary(type: "chatCreate", title: "Trip", users: []), "\(tripHistory)")
        #expect(tripHistory.last?.action == ActionSummary(type: "chatDeleteUser", title: nil, users: [users["bob"]!]))
        let after = try await harness.tgJSON(Members.self, ["--account", "alice", "members", trip.chat])
        #expect(after.members.map(\.peer) == [users["alice"]], "\(after)")
    }
}

/// A JSON value of the small objects `tg` prints.
enum JSONValue: Decodable, Equatable {
    case string(String)
    case strings([String])
    case bool(Bool)
    case int(Int)
    case null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else {
            self = .strings(try container.decode([String].self))
        }
    }
}
