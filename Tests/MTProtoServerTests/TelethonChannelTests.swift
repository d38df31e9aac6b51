import Foundation
import TestVectors
import Testing

/// Telethon 1.45.0 in supergroups and broadcast channels on a real tg-server (Tests/Fixtures/telethon/
/// server_channels.py): a supergroup and a broadcast channel made public, found by username and joined by a second
/// account with its own access hash; posts live both ways; a broadcast post without author and with views; a
/// non-admin refused with `CHAT_WRITE_FORBIDDEN`; the member list and an admin made with Telethon's helpers; then 300 posts while the second account is offline, caught up by
/// `catch_up()` (`updateChannelTooLong` in `updates.getDifference`, then `updates.getChannelDifference` in pages of
/// 100), each once and in order.
@Suite(.serialized) struct TelethonChannelTests {
    struct Report: Decodable {
        let created: [[JSONValue]]
        let username_set: [Bool]
        let bob_found: [Bool]
        let participants: Int
        let bob_got: [JSONValue]
        let alice_got: [JSONValue]
        let bob_got_post: [Bool]
        let bob_post_refused: String?
        let bob_history: [String]
        let bob_dialogs: [String]
        let participants_names: [String]
        let admins: [[String?]]
        let bob_promoting_himself: String?
        let caught_up: Int
        let caught_up_in_order: Bool
        let caught_up_head: [String]
        let caught_up_tail: [String]
        let difference_requests: [Int]
        let other_difference_requests: [Int64]
        let caught_up_before_live: Int
    }

    /// A flag, a number or a text in a mixed JSON list.
    enum JSONValue: Decodable, Equatable {
        case flag(Bool)
        case number(Int64)
        case text(String)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let flag = try? container.decode(Bool.self) {
                self = .flag(flag)
            } else if let number = try? container.decode(Int64.self) {
                self = .number(number)
            } else {
                self = .text(try container.decode(String.self))
            }
        }
    }

    @Test func telethonJoinsPostsAndCatchesUpInChannels() async throws {
        let python = ProcessSupport.python
        try #require(FileManager.default.fileExists(atPath: python.path), "no .venv with Telethon: run `make deps`")
        let server = try await ProcessSupport.Server()
        defer { server.stopLater() }
        let script = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/telethon/server_channels.py")
        let result = try await ProcessRunner.runOffPool(
            python,
            [script.path, "--port", String(try #require(server.ports[2])), "--count", "300"]
                + (try await server.telethonArguments()),
            timeout: 240)
        try #require(result.succeeded, "\(result.output) \(result.errorOutput.suffix(3000))")
        let report = try JSONDecoder().decode(Report.self, from: result.stdout)
        #expect(
            report.created == [
                [.flag(true), .flag(false), .flag(true), .text("Supergroup")],
                [.flag(false), .flag(true), .flag(true), .text("News")],
            ])
        #expect(report.username_set == [true, true])
        #expect(report.bob_found == [true, true, true, true])
        #expect(report.participants == 2)
        #expect(report.bob_got.first == .text("hello group"))
        #expect(report.alice_got == [.text("hi from bob"), .flag(true), .flag(false)])
        #expect(report.bob_got_post == [true, true, true])
        #expect(report.bob_post_refused == "ChatWriteForbiddenError")
        #expect(report.bob_history.suffix(2) == ["hello group", "hi from bob"])
        #expect(report.bob_dialogs == ["News", "Supergroup"])
        // Telethon's get_participants (channels.getParticipants) and edit_admin (channels.editAdmin).
        #expect(report.participants_names == ["Alice", "Bob"])
        #expect(
            report.admins == [["Alice", "ChannelParticipantCreator", nil], ["Bob", "ChannelParticipantAdmin", "mod"]])
        #expect(report.bob_promoting_himself == "ChatAdminRequiredError")
        #expect(report.caught_up == 301)
        #expect(report.caught_up_in_order, "head \(report.caught_up_head) tail \(report.caught_up_tail)")
        // catch_up alone brought the 300 (updateChannelTooLong in updates.getDifference), 100 at a time: three pages,
        // the last one final; the next post came live.
        #expect(report.caught_up_before_live == 300)
        // A later getDifference in the same second names the supergroup again (changes are found by date, to the
        // second, so none is missed), and Telethon's one more request finds it up to date.
        let pages = report.difference_requests
        let first = try #require(pages.first)
        #expect(
            Array(pages.prefix(3)) == [first, first + 100, first + 200], "\(pages) \(report.other_difference_requests)")
        #expect(pages.dropFirst(3).allSatisfy { $0 == first + 300 }, "\(pages)")
    }

    struct PinReport: Decodable {
        let service: [JSONValue]
        let bob_channel_pin: [Bool]
        let bob_pinned_msg_id: Bool
        let bob_sees_flag: Bool
        let bob_pinned_list: [String]
        let private_service: String
        let bob_private_pin: [Bool]
        let bob_user_pinned: Bool
        let bob_one_sided_unpin: [String]
        let alice_still_pinned: Bool
        let bob_channel_unpin: Bool
        let restricted: String?
    }

    /// Telethon pins (Tests/Fixtures/telethon/server_pins.py): `pin_message` answers the service message, the other
    /// client gets `updatePinnedChannelMessages` / `updatePinnedMessages` live and sees the flag and `pinned_msg_id`;
    /// a one-sided unpin leaves the other side's pin; `unpin_message()` unpins all; a restricted member is refused.
    @Test func telethonPinsAndTheOtherClientSeesIt() async throws {
        let python = ProcessSupport.python
        try #require(FileManager.default.fileExists(atPath: python.path), "no .venv with Telethon: run `make deps`")
        let server = try await ProcessSupport.Server()
        defer { server.stopLater() }
        let script = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/telethon/server_pins.py")
        let result = try await ProcessRunner.runOffPool(
            python, [script.path, "--port", String(try #require(server.ports[2]))] + (try await server.telethonArguments()),
            timeout: 120)
        try #require(result.succeeded, "\(result.output) \(result.errorOutput.suffix(3000))")
        let report = try JSONDecoder().decode(PinReport.self, from: result.stdout)
        #expect(
            report.service == [.text("MessageService"), .text("MessageActionPinMessage"), .flag(true), .flag(true)])
        #expect(report.bob_channel_pin == [true, true, true])
        #expect(report.bob_pinned_msg_id && report.bob_sees_flag)
        #expect(report.bob_pinned_list == ["the rules"])
        #expect(report.private_service == "MessageActionPinMessage")
        #expect(report.bob_private_pin == [true, true] && report.bob_user_pinned)
        #expect(report.bob_one_sided_unpin == ["UpdatePinnedMessages"])
        #expect(report.alice_still_pinned)
        #expect(report.bob_channel_unpin)
        #expect(report.restricted == "ChatAdminRequiredError")
    }

    struct InviteReport: Decodable {
        let link: [JSONValue]
        let checked: [JSONValue]
        let bob_joined: [String]
        let alice_saw: [JSONValue]
        let bob_again: String
        let carol_request: String?
        let pending: [Bool]
        let members: Int
        let revoked: String?
        let made_up: String?
    }

    /// Telethon joins by invite link (Tests/Fixtures/telethon/server_invites.py): a link exported, checked and
    /// imported, the admin's client sees `messageActionChatJoinedByLink` live; a link that asks first answers
    /// `INVITE_REQUEST_SENT` and the admin approves; a revoked link is `INVITE_HASH_EXPIRED`, a made-up one
    /// `INVITE_HASH_INVALID`.
    @Test func telethonJoinsByInviteLink() async throws {
        let python = ProcessSupport.python
        try #require(FileManager.default.fileExists(atPath: python.path), "no .venv with Telethon: run `make deps`")
        let server = try await ProcessSupport.Server()
        defer { server.stopLater() }
        let script = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/telethon/server_invites.py")
        let result = try await ProcessRunner.runOffPool(
            python, [script.path, "--port", String(try #require(server.ports[2]))] + (try await server.telethonArguments()),
            timeout: 120)
        try #require(result.succeeded, "\(result.output) \(result.errorOutput.suffix(3000))")
        let report = try JSONDecoder().decode(InviteReport.self, from: result.stdout)
        #expect(report.link == [.flag(true), .number(22), .text("open door")])
        #expect(report.checked == [.text("ChatInvite"), .text("Club"), .flag(true), .number(1)])
        #expect(report.bob_joined == ["Channel"])
        #expect(report.alice_saw == [.text("MessageActionChatJoinedByLink"), .flag(true)])
        #expect(report.bob_again == "ChatInviteAlready")
        #expect(report.carol_request == "InviteRequestSentError")
        #expect(report.pending == [true])
        #expect(report.members == 3)
        #expect(report.revoked == "InviteHashExpiredError")
        #expect(report.made_up == "InviteHashInvalidError")
    }

    struct SettingsReport: Decodable {
        let slowmode_enabled: Bool
        let bob_waits: [JSONValue]?
        let alice_not_held: Bool
        let slowmode_seconds: Int?
        let signatures: Bool
        let post_author: String?
        let bob_refused: String?
        let default_send_messages: Bool
        let bob_saw_photo: String
        let bob_downloaded: Bool
        let bob_saw_group_photo: String
        let bob_downloaded_group_photo: Bool
        let bob_caught_up_rights: [[Bool]]
        let bob_refused_in_group: String?
    }

    /// Telethon meets slow mode, signatures and default rights (Tests/Fixtures/telethon/server_settings.py): a
    /// second post within 60 seconds is `SlowModeWaitError` with the seconds left, the admin is not held back; a
    /// signed post reaches the other client with `post_author`; sending taken by default is `ChatWriteForbiddenError`;
    /// a channel photo set with `channels.editPhoto` is seen live and downloaded, and a basic group's set with
    /// `messages.editChatPhoto`; the group's default rights changed while Bob was away reach his `catch_up()`
    /// (`updateChatDefaultBannedRights` in `updates.getDifference`'s other updates) and bind him.
    @Test func telethonMeetsSlowModeSignaturesAndDefaultRights() async throws {
        let python = ProcessSupport.python
        try #require(FileManager.default.fileExists(atPath: python.path), "no .venv with Telethon: run `make deps`")
        let server = try await ProcessSupport.Server()
        defer { server.stopLater() }
        let script = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/telethon/server_settings.py")
        let result = try await ProcessRunner.runOffPool(
            python, [script.path, "--port", String(try #require(server.ports[2]))] + (try await server.telethonArguments()),
            timeout: 120)
        try #require(result.succeeded, "\(result.output) \(result.errorOutput.suffix(3000))")
        let report = try JSONDecoder().decode(SettingsReport.self, from: result.stdout)
        #expect(report.slowmode_enabled && report.slowmode_seconds == 60)
        // The seconds left: 60, or 59 when the second post crossed a second boundary.
        #expect(report.bob_waits?.first == .text("SlowModeWaitError"))
        if case .number(let seconds)? = report.bob_waits?.last {
            #expect((59...60).contains(seconds))
        } else {
            Issue.record("\(String(describing: report.bob_waits))")
        }
        #expect(report.alice_not_held)
        #expect(report.signatures && report.post_author == "Alice")
        #expect(report.bob_refused == "ChatWriteForbiddenError" && report.default_send_messages)
        #expect(report.bob_saw_photo == "MessageActionChatEditPhoto" && report.bob_downloaded)
        // A basic group's photo, and its default rights changed while Bob was away, heard by catch_up().
        #expect(report.bob_saw_group_photo == "MessageActionChatEditPhoto" && report.bob_downloaded_group_photo)
        // Telethon asks the difference at connect and again in catch_up(), here within the second the change was
        // made: a date is a second, so both answers carry it (the same change twice, to the same effect).
        #expect(
            !report.bob_caught_up_rights.isEmpty
                && report.bob_caught_up_rights.allSatisfy { $0 == [true, true] }, "\(report.bob_caught_up_rights)")
        #expect(report.bob_refused_in_group == "ChatWriteForbiddenError")
    }

    struct MigrateReport: Decodable {
        let migrated: [JSONValue]
        let actions: [String]
        let bob_sees: [JSONValue]
        let bob_migrated_from: Bool
        let alice_got: Bool
        let old_group: String?
    }

    /// Telethon migrates a basic group (Tests/Fixtures/telethon/server_migrate.py): the supergroup keeps the title
    /// and the creator, the answer carries both service messages, the member finds it among his dialogs with
    /// `migrated_from_chat_id`, writes there live, and the old group refuses him.
    @Test func telethonMigratesABasicGroup() async throws {
        let python = ProcessSupport.python
        try #require(FileManager.default.fileExists(atPath: python.path), "no .venv with Telethon: run `make deps`")
        let server = try await ProcessSupport.Server()
        defer { server.stopLater() }
        let script = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/telethon/server_migrate.py")
        let result = try await ProcessRunner.runOffPool(
            python, [script.path, "--port", String(try #require(server.ports[2]))] + (try await server.telethonArguments()),
            timeout: 120)
        try #require(result.succeeded, "\(result.output) \(result.errorOutput.suffix(3000))")
        let report = try JSONDecoder().decode(MigrateReport.self, from: result.stdout)
        #expect(report.migrated == [.flag(true), .flag(true), .text("Club"), .flag(true), .flag(true)])
        #expect(report.actions == ["MessageActionChannelMigrateFrom", "MessageActionChatMigrateTo"])
        #expect(report.bob_sees == [.text("Club"), .flag(true), .flag(false)])
        #expect(report.bob_migrated_from && report.alice_got)
        #expect(report.old_group == "ChatIdInvalidError")
    }
}
