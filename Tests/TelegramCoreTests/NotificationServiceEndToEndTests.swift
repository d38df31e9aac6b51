import CryptoUtils
import Dispatch
import Foundation
import MTProtoCore
import Network
import Postbox
import PostboxTesting
import PushNotifications
import ServerTestSupport
import SyncCore
import TelegramApi
import TelegramCore
import TestVectors
import Testing

/// The notification extension end to end on tg-server (`--push-dir`): Bob signs up (his account makes its
/// notification key and registers it), catches up once and quits; Alice sends; a push file per message appears; the
/// `notification-service` binary stores each in Bob's Postbox and prints its preview while another process
/// (`postbox-tool watch-chat-list`: Postbox's bare view, no client in the way) has Bob's chat list open; Bob's account
/// then starts, catches up through getDifference and has each message once. Bad pushes change nothing. The same with
/// the `tg` client on every side is `TelegramClientTests.NotificationServiceWithTGTests`.
@Suite(.serialized) struct NotificationServiceEndToEndTests {
    typealias World = AccountIntegrationTests.World

    static func files(in folder: URL) -> [URL] {
        ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "json" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// SHA-256 of every file under `path` but SQLite's shared-memory index (readers may touch it).
    static func fingerprint(_ path: String) throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        let enumerator = FileManager.default.enumerator(atPath: path)
        while let name = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let file = path + "/" + name
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue,
                !name.hasSuffix("-shm")
            else { continue }
            result[name] = Digest.sha256(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
        }
        return result
    }

    static func service(_ arguments: [String]) async throws -> ProcessRunner.Result {
        try await ProcessRunner.runOffPool(
            ProcessRunner.builtExecutable("notification-service"), arguments, timeout: 30)
    }

    /// The monotonic times of the watcher's lines whose chat shows `unread`.
    static func watcherTime(_ output: Data, unread: Int) -> UInt64? {
        String(decoding: output, as: UTF8.self).split(separator: "\n").first { $0.hasSuffix(" unread=\(unread)") }
            .flatMap { $0.split(separator: " ").dropFirst().first.flatMap { UInt64($0) } }
    }

    @Test func pushesAreStoredOnceAndSeenByAnotherProcessAndBadOnesChangeNothing() async throws {
        let pushes = TemporaryDirectory(prefix: "pushes")
        let world = try await World(pushDirectory: URL(fileURLWithPath: pushes.path), transport: .sockets)
        // Bob signs up (his key is made and registered), catches up once so the server's later messages are updates
        // to him, and quits.
        let bob = try await AccountIntegrationTests.signUp(world, phone: "9996620102", name: "Bob")
        let keys = world.manager.notificationKeys
        let bobKey = try #require(try keys.entry(accountId: bob.id.rawValue))
        bob.start()
        try await AccountIntegrationTests.wait("Bob's first state") { bob.stateManager.hasCaughtUp }
        await bob.shutdown()

        // Alice, a client of her own, sends four messages while Bob is away: four push files.
        let (alice, aliceId) = try await AccountIntegrationTests.rawUser(world, phone: "9996620101", name: "alice")
        let toBob = try await AccountIntegrationTests.find(phone: "9996620102") { try await alice.invoke($0) }
        let texts = ["Tối nay ăn phở không?", "Quán cũ nhé", "7 giờ", "Trả lời đi!"]
        for (index, text) in texts.enumerated() {
            _ = try await alice.invoke(
                Api.functions.messages.sendMessage(peer: toBob, message: text, randomId: Int64(100 + index)))
        }
        let folder = URL(fileURLWithPath: pushes.path).appendingPathComponent(world.manager.pushToken())
        try await AccountIntegrationTests.wait("four push files") { Self.files(in: folder).count == 4 }
        let files = Self.files(in: folder)

        // Another process (postbox-tool) has Bob's chat list open.
        let accountPath = world.manager.accountPath(bob.id)
        let keyFile = AccountsLayout(rootPath: world.root.path).postboxKeyPath(bob.id.rawValue)
        let watcher = try ProcessRunner.start(
            ProcessRunner.builtExecutable("postbox-tool"),
            ["watch-chat-list", "--path", accountPath, "--key-file", keyFile, "--seconds", "60"],
            environment: ["POSTBOX_KEY": nil])
        #expect(
            await watcher.waitForOutputOffPool(timeout: 20) {
                String(decoding: $0, as: UTF8.self).hasPrefix("chat-list ")
            })

        // The service stores the first three and prints their previews; the watcher's view follows each write. Two
        // spans per write: from just before the service's transaction began to the watcher's line (bounded loosely:
        // the transaction is a fresh debug process's first, slow when the machine is loaded), and from its commit to
        // the watcher's line — the cross-process wake-up, which must be quick whatever the load.
        var latencies: [Double] = []
        var wakeUps: [Double] = []
        for (index, file) in files.prefix(3).enumerated() {
            let result = try await Self.service(["--root", world.root.path, "--trace", file.path])
            #expect(result.status == 0, "\(result.errorOutput)")
            #expect(result.output == "alice: \(texts[index])\n")
            let trace = result.errorOutput.split(separator: "\n").first { $0.hasPrefix("write-started ") }?
                .split(separator: " ")
            let started = trace.flatMap { $0.count > 1 ? UInt64($0[1]) : nil }
            let committed = trace.flatMap { $0.count > 3 ? UInt64($0[3]) : nil }
            let unread = index + 1
            #expect(await watcher.waitForOutputOffPool(timeout: 10) { Self.watcherTime($0, unread: unread) != nil })
            if let started, let committed, let seen = Self.watcherTime(watcher.output, unread: unread) {
                latencies.append(Double(Int64(seen) - Int64(started)) / 1e6)
                // The service notes its commit after the transaction returns: the watcher may show it first.
                wakeUps.append(max(0, Double(Int64(seen) - Int64(committed)) / 1e6))
            }
        }
        watcher.send(SIGKILL)
        _ = await watcher.waitOffPool(timeout: 10)
        let shown = { (values: [Double]) in values.map { String(format: "%.1f", $0) } }
        print(
            "notification-service write → other process's chat list (ms):", shown(latencies), "commit → view:",
            shown(wakeUps))
        #expect(latencies.count == 3 && wakeUps.count == 3)
        #expect(wakeUps.sorted()[1] <= 100, "median commit → view \(wakeUps.sorted()[1]) ms")
        #expect(latencies.allSatisfy { $0 < 1000 }, "\(latencies)")

        // Before the app runs: the chat list shows Alice's chat with three unread.
        let alicePeer = PeerId.user(aliceId)
        let (top, unread) = try bob.postbox.readTransactionSync { tx in
            (
                try tx.chatListEntries(before: nil, count: 10).first?.messageIndex.id,
                try tx.getCombinedPeerReadState(alicePeer)?.count
            )
        }
        #expect(top == MessageId(peerId: alicePeer, namespace: Namespaces.Message.cloud, id: 3))
        #expect(unread == 3)

        // Bad input changes nothing: a tampered payload, an unknown key, a truncated file.
        let before = try Self.fingerprint(world.root.path)
        let good = Array(try Data(contentsOf: files[3]))
        var tampered = good
        tampered[good.count / 2] = tampered[good.count / 2] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let stranger = NotificationKey.generate()
        let unknownKey = Array(
            "{\"p\":\"\(Data(PushPayloadCrypto.encrypt(Array("{}".utf8), key: stranger)).base64EncodedString())\"}".utf8
        )
        for (name, bytes) in [
            ("tampered", tampered), ("unknown key", unknownKey), ("truncated", Array(good.prefix(good.count - 20))),
        ] {
            let path = pushes.path + "/bad-\(name.replacingOccurrences(of: " ", with: "-")).json"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let result = try await Self.service(["--root", world.root.path, path])
            #expect(result.status == 2, "\(name): \(result.status) \(result.errorOutput)")
            #expect(result.output.isEmpty)
            #expect(
                result.errorOutput.hasPrefix("notification-service: error: ")
                    && result.errorOutput.filter { $0 == "\n" }.count == 1, "\(name): \(result.errorOutput)")
        }
        #expect(try Self.fingerprint(world.root.path) == before)

        // Bob's app starts (a new account manager over his folder), catches up, and has each message once: the
        // difference replaced the three minimal copies and brought the fourth.
        let restarted = try AccountManager(rootPath: world.root.path, environment: world.manager.environment)
        let again = try restarted.account(bob.id)
        again.start()
        try await AccountIntegrationTests.wait("Bob catches up") {
            try again.stateManager.hasCaughtUp
                && AccountIntegrationTests.storedMessages(again, with: alicePeer).count == 4
        }
        let messages = try AccountIntegrationTests.storedMessages(again, with: alicePeer).sorted { $0.id.id < $1.id.id }
        #expect(messages.map(\.id.id) == [1, 2, 3, 4])
        #expect(messages.map(\.text) == texts)
        #expect(messages.allSatisfy { !$0.isFromNotification })
        #expect(Set(messages.map(\.stableId)).count == 4)
        let (unreadAfter, aliceUser) = try again.postbox.readTransactionSync { tx in
            (try tx.getCombinedPeerReadState(alicePeer)?.count, try tx.getPeer(alicePeer) as? TelegramUser)
        }
        #expect(unreadAfter == 4)
        #expect(aliceUser?.accessHash != nil, "the server's user replaced the push's name")

        // Log-out unregisters the device and removes the key: the fourth push now names a key nobody has.
        try await restarted.logOut(again)
        #expect(try keys.entry(keyId: bobKey.key.id) == nil)
        let afterLogOut = try Self.fingerprint(world.root.path)
        let result = try await Self.service(["--root", world.root.path, files[3].path])
        #expect(result.status == 2 && result.errorOutput.contains("logged out"), "\(result.errorOutput)")
        #expect(try Self.fingerprint(world.root.path) == afterLogOut)
        // …and the server forgot the device: Alice's next message makes no push file.
        _ = try await alice.invoke(Api.functions.messages.sendMessage(peer: toBob, message: "alo?", randomId: 200))
        try await Task.sleep(for: .milliseconds(200))
        #expect(Self.files(in: folder).count == 4)
        await alice.close()
        try await world.close([])
        pushes.remove()
    }
}
