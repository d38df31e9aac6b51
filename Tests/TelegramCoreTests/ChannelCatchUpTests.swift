import Foundation
import Network
import Postbox
import PostboxTesting
import ServerTestSupport
import SyncCore
import TelegramApi
import TelegramCore
import TestVectors
import Testing

/// A supergroup member away while 5,000 posts are made catches up through `updates.getChannelDifference`, each post
/// once and in the server's order, on two clients at once: our account into Postbox, and Telethon 1.45 with its own
/// `catch_up()` (Tests/Fixtures/telethon/server_channel_catch_up.py). Both hear of the supergroup from
/// `updates.getDifference` (`updateChannelTooLong`) and page its difference 100 at a time. The posts are made in
/// batches of 100 (`messages.forwardMessages` of 100 notes), so the test takes seconds. The server's channel gap
/// is raised past 5,000 (tg-server `--channel-difference-gap`): at its default, 1,000, an absence this long answers
/// `channelDifferenceTooLong` (the newest messages only), as Telegram does for user accounts.
@Suite(.serialized) struct ChannelCatchUpTests {
    typealias Support = AccountIntegrationTests

    struct JoinReport: Decodable {
        let user_id: Int64
        let channel_id: Int64
    }

    struct CatchUpReport: Decodable {
        let ids: [Int32]
        let texts: [String]
        let difference_requests: Int
        let seconds: Double
    }

    @Test func fiveThousandPostsWhileAwayCaughtUpByUsAndByTelethon() async throws {
        let started = Date()
        let posts = 5_000
        let world = try await Support.World(transport: .sockets, channelDifferenceGap: 10_000)
        let ben = try await Support.signUp(world, phone: "9996623061", name: "Ben")
        ben.start()
        try await Support.wait("Ben's first state") { ben.stateManager.hasCaughtUp }

        // Ann (a raw client) makes a public supergroup and adds Ben; Telethon's Bob joins it by its username.
        let (ann, _) = try await Support.rawUser(world, phone: "9996623060", name: "Ann")
        let created = try await ann.invoke(
            Api.functions.channels.createChannel(megagroup: true, title: "Away", about: ""))
        guard case .updates(let body) = created, case .channel(let channel)? = body.chats.first,
            let hash = channel.accessHash
        else { throw CatchUpTestError.unexpected("\(created)") }
        let input = Api.InputChannel.inputChannel(.init(channelId: channel.id, accessHash: hash))
        let peer = Api.InputPeer.inputPeerChannel(.init(channelId: channel.id, accessHash: hash))
        _ = try await ann.invoke(Api.functions.channels.updateUsername(channel: input, username: "away_5000"))
        guard
            case .inputPeerUser(let benUser) = try await Support.find(
                phone: "9996623061", with: { try await ann.invoke($0) })
        else { throw CatchUpTestError.unexpected("Ben not found") }
        _ = try await ann.invoke(
            Api.functions.channels.inviteToChannel(
                channel: input, users: [.inputUser(.init(userId: benUser.userId, accessHash: benUser.accessHash))]))
        let joined = try await runTelethon(world, phase: "join", JoinReport.self)
        #expect(joined.channel_id == channel.id)

        // Both see a first post live; then both are away.
        let channelPeer = PeerId.channel(channel.id)
        _ = try await ann.invoke(Api.functions.messages.sendMessage(peer: peer, message: "hello", randomId: 1))
        try await Support.wait("Ben's hello") {
            try Support.storedMessages(ben, with: channelPeer).contains { $0.text == "hello" }
        }
        await ben.shutdown()

        // 5,000 posts in 50 batches: 100 notes Ann wrote to herself, forwarded into the supergroup 100 at a time
        // (`messages.forwardMessages`, one call and one transaction per batch). The answers say which id each post
        // got, so their order is the ids'.
        let postingStarted = Date()
        for index in 0..<100 {
            _ = try await ann.invoke(
                Api.functions.messages.sendMessage(
                    peer: .inputPeerSelf, message: "post \(index)", randomId: Int64(100_000 + index)))
        }
        let notes = try await ann.invoke(
            Api.functions.messages.getHistory(
                peer: .inputPeerSelf, offsetId: 0, offsetDate: 0, addOffset: 0, limit: 100, maxId: 0, minId: 0,
                hash: 0))
        guard case .messages(let saved) = notes else { throw CatchUpTestError.unexpected("\(notes)") }
        let noteIds = saved.messages.compactMap { message -> Int32? in
            if case .message(let m) = message, m.message.hasPrefix("post ") { return m.id }
            return nil
        }.sorted()
        #expect(noteIds.count == 100)
        var posted: [(Int32, String)] = []
        for batch in 0..<(posts / 100) {
            let answer = try await ann.invoke(
                Api.functions.messages.forwardMessages(
                    fromPeer: .inputPeerSelf, id: noteIds,
                    randomId: noteIds.indices.map { Int64(batch * 1_000 + $0 + 10) },
                    toPeer: peer))
            guard case .updates(let body) = answer else { throw CatchUpTestError.unexpected("\(answer)") }
            for case .updateNewChannelMessage(let new) in body.updates {
                if case .message(let m) = new.message { posted.append((m.id, m.message)) }
            }
        }
        let postingSeconds = Date().timeIntervalSince(postingStarted)
        let expected = posted.sorted { $0.0 < $1.0 }
        #expect(expected.count == posts && Set(expected.map(\.0)).count == posts)

        // Ours: Ben comes back; every post once, in id order, under the channel's own ids.
        let ourStart = Date()
        let differences = ben.stateManager.statistics.channelDifferences
        let askedAhead = ben.stateManager.statistics.channelSlicesAskedAhead
        ben.start()
        func benPosts() throws -> [Message] {
            try Support.storedMessages(ben, with: channelPeer).filter { $0.text.hasPrefix("post ") }
        }
        // Counted as the state manager stores them (reading 5,000 messages back on every poll would slow it down).
        let storedBefore = ben.stateManager.statistics.storedMessages
        try await Support.wait(
            "Ben catches up on 5,000 posts", timeout: 120,
            explain: { "Ben has \((try? benPosts().count) ?? -1), \(ben.stateManager.statistics)" }
        ) { ben.stateManager.statistics.storedMessages - storedBefore >= posts }
        let ourSeconds = Date().timeIntervalSince(ourStart)
        let stored = try benPosts().sorted { $0.index < $1.index }
        #expect(stored.count == posts, "each post stored once")
        #expect(stored.map(\.id.id) == expected.map(\.0) && stored.map(\.text) == expected.map(\.1))
        // 5,000 in pages of 100: at least 50 channel differences.
        #expect(ben.stateManager.statistics.channelDifferences - differences >= 50, "\(ben.stateManager.statistics)")
        // Every slice after the first is asked for on the network's thread as the one before it arrives, and the
        // machine takes each such request: none is asked twice.
        let statistics = ben.stateManager.statistics
        #expect(statistics.channelSlicesAskedAhead - askedAhead >= 49, "\(statistics)")
        #expect(
            statistics.channelDifferences - differences == statistics.channelSlicesAskedAhead - askedAhead + 1,
            "\(statistics)")
        // Each was asked from a task on the session's loop (`AccountNetworking.callExecutor`): queued and answered
        // there, without hops to the global pool and back.
        let session = try await #require(ben.network as? AccountNetwork).connection(dc: 2)
        #expect(await session.callsQueuedOnLoopCount() >= 50)

        // Telethon: its own catch_up hands Bob every post once, in order.
        let telethon = try await runTelethon(world, phase: "catch-up", CatchUpReport.self, ["--count", String(posts)])
        #expect(telethon.ids.count == posts, "Telethon handed over \(telethon.ids.count)")
        #expect(telethon.ids == expected.map(\.0), "head \(telethon.ids.prefix(3)), tail \(telethon.ids.suffix(3))")
        #expect(telethon.texts == expected.map(\.1))
        #expect(telethon.difference_requests >= 50)
        print(
            String(
                format:
                    "5,000 channel posts: made in %.1f s; caught up by our account in %.1f s (%d channel differences), by Telethon in %.1f s (%d); %.1f s in all",
                postingSeconds, ourSeconds, ben.stateManager.statistics.channelDifferences - differences,
                telethon.seconds, telethon.difference_requests, Date().timeIntervalSince(started)))
        try await world.close([ben])
    }

    /// Runs one phase of the Telethon script against the world's server, its session kept in the world's folder.
    func runTelethon<Report: Decodable>(
        _ world: AccountIntegrationTests.World, phase: String, _ type: Report.Type, _ arguments: [String] = []
    ) async throws -> Report {
        let python = ProcessRunner.venvPython
        try #require(FileManager.default.fileExists(atPath: python.path), "no .venv with Telethon: run `make deps`")
        let server = try world.server
        let pem = world.root.path + "/server.pem"
        try server.writePublicKeyPEM(to: pem)
        let workdir = world.root.path + "/telethon"
        try FileManager.default.createDirectory(atPath: workdir, withIntermediateDirectories: true)
        let script = Fixtures.repositoryRoot.appendingPathComponent(
            "Tests/Fixtures/telethon/server_channel_catch_up.py")
        let result = try await ProcessRunner.runOffPool(
            python,
            [
                script.path, "--host", "127.0.0.1", "--port", String(try #require(server.endpoints[2]?.port)),
                "--pem-file", pem, "--workdir", workdir, "--tag", "61", "--phase", phase, "--username", "away_5000",
            ] + arguments,
            timeout: 120)
        try #require(result.succeeded, "\(result.output) \(result.errorOutput.suffix(3000))")
        return try JSONDecoder().decode(Report.self, from: result.stdout)
    }

    enum CatchUpTestError: Error {
        case unexpected(String)
    }
}
