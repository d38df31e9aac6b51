import AccountNetworking
import Foundation
import Network
import Postbox
import PostboxTesting
import ServerTestSupport
import SwiftSignalKit
import SyncCore
import SyncCoreApi
import TelegramApi
import TelegramCore
import TestVectors
import Testing

/// Telethon 1.45 as a third user (Tests/Fixtures/telethon/core_peer.py) writing to our account on tg-server: 5,000
/// messages across 50 basic groups while our account is offline, then caught up through difference slices — every
/// message stored once, the chat list's unread counts the server's — and live messages landing in an open view, while
/// a second account in the same process is untouched.
@Suite(.serialized) struct TelethonCatchUpTests {
    static var script: URL { Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/telethon/core_peer.py") }

    struct PeerReport: Decodable {
        let user_id: Int64
        let target_id: Int64
        let chat_ids: [Int64]?
        let sent: Int
        let seconds: Double
    }

    static func runTelethon(
        _ world: AccountIntegrationTests.World, _ arguments: [String], timeout: Double = 240
    ) async throws -> PeerReport {
        let python = ProcessRunner.venvPython
        try #require(FileManager.default.fileExists(atPath: python.path), "no .venv with Telethon: run `make deps`")
        let pem = world.root.path + "/server.pem"
        let server = try world.server
        try server.writePublicKeyPEM(to: pem)
        let port = try #require(server.endpoints[2]?.port)
        let result = try await ProcessRunner.runOffPool(
            python, [script.path, "--host", "127.0.0.1", "--port", String(port), "--pem-file", pem] + arguments,
            timeout: timeout)
        try #require(result.succeeded, "\(result.output) \(result.errorOutput.suffix(3000))")
        return try JSONDecoder().decode(PeerReport.self, from: result.stdout)
    }

    /// Starts the Telethon peer `script` (in Tests/Fixtures/telethon) against `world`'s server as a process the test
    /// talks to: the server's host, port and key first, then `arguments`; returns once it printed its first line
    /// (within 60 s), with that line.
    static func startTelethonPeer(
        _ world: AccountIntegrationTests.World, script: String, _ arguments: [String]
    ) async throws -> (process: RunningProcess, firstLine: String) {
        let python = ProcessRunner.venvPython
        try #require(FileManager.default.fileExists(atPath: python.path), "no .venv with Telethon: run `make deps`")
        let pem = world.root.path + "/server.pem"
        let server = try world.server
        try server.writePublicKeyPEM(to: pem)
        let port = try #require(server.endpoints[2]?.port)
        let path = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/telethon/\(script)").path
        let peer = try ProcessRunner.start(
            python, [path, "--host", "127.0.0.1", "--port", String(port), "--pem-file", pem] + arguments)
        _ = await peer.waitForOutputOffPool(timeout: 60) { $0.contains(UInt8(ascii: "\n")) }
        guard let firstLine = String(decoding: peer.output, as: UTF8.self).split(separator: "\n").first else {
            let result = await peer.waitOffPool(timeout: 5)
            throw TelethonPeerSilent(errorOutput: String(result.errorOutput.suffix(3000)))
        }
        return (peer, String(firstLine))
    }

    /// A Telethon peer that printed nothing.
    struct TelethonPeerSilent: Error, CustomStringConvertible {
        let errorOutput: String
        var description: String { "Telethon said nothing: \(errorOutput)" }
    }

    @Test func fiveThousandMessagesAcrossFiftyChatsWhileOffline() async throws {
        let world = try await AccountIntegrationTests.World(transport: .sockets)
        let ann = try await AccountIntegrationTests.signUp(world, phone: "9996622101", name: "Ann")
        let bystander = try await AccountIntegrationTests.signUp(world, phone: "9996622102", name: "Bea")
        ann.start()
        bystander.start()
        try await AccountIntegrationTests.wait("Ann's initial state") {
            try ann.postbox.readTransactionSync { tx in (try tx.getState() as? AuthorizedAccountState)?.state } != nil
        }
        await ann.shutdown()

        let report = try await Self.runTelethon(
            world,
            [
                "--phone", "9996622103", "--target-phone", "9996622101", "--mode", "groups", "--chats", "50",
                "--per-chat", "100",
            ])
        #expect(report.sent == 5_000)
        let chatIds = try #require(report.chat_ids)
        #expect(chatIds.count == 50)

        let started = Date()
        ann.start()
        let groups = chatIds.map(PeerId.group)
        func storedTexts() throws -> [String] {
            try ann.postbox.readTransactionSync { tx in
                try groups.flatMap { try tx.earlierMessages(peerId: $0, before: nil, count: 1_000).map(\.text) }
            }
        }
        try await AccountIntegrationTests.wait("5,000 messages caught up", timeout: 120) {
            try storedTexts().filter { !$0.isEmpty }.count == 5_000
        }
        let seconds = Date().timeIntervalSince(started)
        let texts = try storedTexts().filter { !$0.isEmpty }
        #expect(Set(texts).count == 5_000, "every message stored once")
        // Difference slices of at most 1,000 updates: at least five to cover 5,000 messages and 50 group creations.
        #expect(ann.stateManager.statistics.differences >= 5)
        let stored = try ann.postbox.readTransactionSync { tx in
            try groups.compactMap { try tx.getPeer($0) as? TelegramGroup }
        }
        #expect(stored.count == 50 && stored.allSatisfy { $0.title.hasPrefix("chat ") })

        // The chat list's unread counts are the server's (messages.getDialogs asked over our own network).
        let dialogs = try await ann.network.request(
            Api.functions.messages.getDialogs(
                offsetDate: 0, offsetId: 0, offsetPeer: .inputPeerEmpty, limit: 100, hash: 0))
        var serverUnread: [PeerId: Int32] = [:]
        if case .dialogsSlice(let page) = dialogs {
            for case .dialog(let d) in page.dialogs { serverUnread[PeerId(d.peer)] = d.unreadCount }
        }
        if case .dialogs(let page) = dialogs {
            for case .dialog(let d) in page.dialogs { serverUnread[PeerId(d.peer)] = d.unreadCount }
        }
        let localUnread = try ann.postbox.readTransactionSync { tx in
            try Dictionary(uniqueKeysWithValues: groups.map { ($0, try tx.getCombinedPeerReadState($0)?.count ?? 0) })
        }
        #expect(
            groups.allSatisfy { serverUnread[$0] != nil && localUnread[$0] == serverUnread[$0] },
            "\(localUnread.values.sorted().prefix(3)) vs \(serverUnread.values.sorted().prefix(3))")
        // The second account in the same process saw none of it.
        #expect(
            try bystander.postbox.readTransactionSync { tx in
                try groups.compactMap { try tx.topMessageIndex(peerId: $0) }
            }.isEmpty)
        print(
            "catch-up of 5,000 messages in 50 chats: \(String(format: "%.2f", seconds)) s, \(ann.stateManager.statistics.differences) difference calls"
        )

        // Live: Telethon writes directly; each message reaches Ann's open history view.
        let live = LockedValue<[String]>([])
        let view = ann.historyView(peerId: .user(report.user_id), count: 20).start(next: { view in
            live.withLock { $0 = view.entries.map(\.message.text) }
        })
        defer { view.dispose() }
        let direct = try await Self.runTelethon(
            world, ["--phone", "9996622104", "--target-phone", "9996622101", "--mode", "direct", "--count", "5"])
        try await AccountIntegrationTests.wait("five live messages from Telethon") {
            try AccountIntegrationTests.storedMessages(ann, with: .user(direct.user_id)).count == 5
        }
        #expect(
            try AccountIntegrationTests.storedMessages(ann, with: .user(direct.user_id)).map(\.text).sorted()
                == (0..<5).map { "live \($0)" })
        try await world.close([ann, bystander])
    }
}
