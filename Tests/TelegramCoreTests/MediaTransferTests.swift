import AccountNetworking
import CryptoUtils
import Foundation
import MediaBox
import Network
import Postbox
import PostboxTesting
import ServerTestSupport
import SwiftSignalKit
import SyncCore
import TelegramApi
import TelegramCore
import TestVectors
import Testing

/// Files through tg-server with Telethon 1.45 on the other side (Tests/Fixtures/telethon/media_peer.py): our account
/// sends a 12 MB file (big-file parts) as a document; Telethon receives it with its name and size and downloads it
/// byte-identical; our own fetch downloads it back into MediaBox in parts — two fetches sharing one download, a
/// download stopped half-way resuming from its range map, a disposed fetch stopping its requests; an upload stopped
/// half-way goes on from the parts the server acknowledged.
@Suite(.serialized) struct MediaTransferTests {
    static var script: URL { Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/telethon/media_peer.py") }

    /// One message as Telethon saw it; document fields are set for a document, `photo_sizes` for a photo.
    struct Received: Decodable {
        let text: String
        let grouped_id: Int64?
        let forwarded_from: Int64?
        let reply_to: Int32?
        let entities: [[PhotoSizeField]]
        let photo_sizes: [[PhotoSizeField]]?
        let name: String?
        let mime_type: String?
        let size: Int64?
        let downloaded: Int64?
        let sha256: String?
        let voice: Bool?
        let duration: Double?
        let waveform_bytes: Int?
        let sticker_set: Int64?
        let sticker_alt: String?
    }

    /// A photo size's type letter or one of its dimensions (also an entity's type, offset or length).
    enum PhotoSizeField: Decodable, Equatable {
        case type(String)
        case value(Int)
        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self = .type(text)
            } else {
                self = .value(try container.decode(Int.self))
            }
        }
    }

    /// Starts Telethon as `phone` waiting for `count` messages with media from `targetPhone`, and introduces its user
    /// to `account` once it has signed up; returns the running script and the user's peer id.
    static func startTelethonPeer(
        _ world: AccountIntegrationTests.World, account: Account, phone: String, targetPhone: String, count: Int
    ) async throws -> (Task<ProcessRunner.Result, Error>, PeerId) {
        let python = ProcessRunner.venvPython
        try #require(FileManager.default.fileExists(atPath: python.path), "no .venv with Telethon: run `make deps`")
        let pem = world.root.path + "/server.pem"
        let server = try world.server
        try server.writePublicKeyPEM(to: pem)
        let port = try #require(server.endpoints[2]?.port)
        let telethon = Task {
            try await ProcessRunner.runOffPool(
                python,
                [
                    script.path, "--host", "127.0.0.1", "--port", String(port), "--pem-file", pem, "--phone", phone,
                    "--target-phone", targetPhone, "--count", String(count), "--timeout", "150",
                ],
                timeout: 200)
        }
        // The user exists once Telethon has signed it up.
        let deadline = Date().addingTimeInterval(60)
        while true {
            if case .inputPeerUser(let user)? = try? await AccountIntegrationTests.introduce(
                phone: phone, name: "Tess", to: account)
            {
                return (telethon, PeerId.user(user.userId))
            }
            try #require(Date() < deadline, "Telethon's user did not sign up within 60 s")
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    /// Telethon's report, once its script has ended.
    static func report(_ telethon: Task<ProcessRunner.Result, Error>) async throws -> Report {
        let result = try await telethon.value
        try #require(result.succeeded, "\(result.output) \(result.errorOutput.suffix(3000))")
        return try JSONDecoder().decode(Report.self, from: result.stdout)
    }

    struct Report: Decodable {
        let user_id: Int64
        let received: [Received]
    }

    /// `count` bytes of a deterministic pattern, written to `path`; returns their SHA-256 in hex.
    static func writePattern(_ count: Int, seed: UInt64, to path: String) throws -> String {
        // SplitMix64: every byte differs from its neighbours, so a misplaced part shows in the digest.
        var state = seed
        var bytes = [UInt8](repeating: 0, count: count)
        for index in stride(from: 0, to: count, by: 8) {
            state &+= 0x9E37_79B9_7F4A_7C15
            var value = state
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            value ^= value >> 31
            for byte in 0..<min(8, count - index) {
                bytes[index + byte] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(byte)))
            }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return hex(Digest.sha256(bytes))
    }

    /// Waits for `signal`'s first `.local` or `.failed`.
    /// The fetch's last event. The bound catches a fetch that hangs, not a slow one: 12 MB through a debug-built
    /// server took over 60 s on two cores running five times their load.
    static func finalEvent(_ signal: Signal<FetchEvent, NoError>, timeout: Double = 180) async throws -> FetchEvent {
        let result = LockedValue<FetchEvent?>(nil)
        let disposable = signal.start(next: { event in
            switch event {
            case .status(.local), .failed: result.withLock { if $0 == nil { $0 = event } }
            default: break
            }
        })
        defer { disposable.dispose() }
        try await AccountIntegrationTests.wait("the fetch to end", timeout: timeout) { result.withLock { $0 } != nil }
        return try #require(result.withLock { $0 })
    }

    @Test func aTwelveMegabyteFileReachesTelethonAndComesBackThroughOurFetch() async throws {
        let world = try await AccountIntegrationTests.World(transport: .sockets)
        let ann = try await AccountIntegrationTests.signUp(world, phone: "9996622201", name: "Ann")
        ann.start()
        let (telethon, tessId) = try await Self.startTelethonPeer(
            world, account: ann, phone: "9996622202", targetPhone: "9996622201", count: 1)

        // 12 MB: over the 10 MB line, so big-file parts of 512 KB.
        let source = world.root.path + "/report.bin"
        let size = 12 * 1024 * 1024 + 12_345
        let digest = try Self.writePattern(size, seed: 12, to: source)
        let file = try ann.prepareFile(path: source, name: "report.bin", mimeType: "application/octet-stream")
        let local = try #require(try ann.enqueue([EnqueueMessage(text: "the report", file: file)], to: tessId).first)
        // The states a UI shows, sampled while it goes: uploading with growing progress, never after sending.
        let observed = LockedValue<[PendingMessageState]>([])
        let sampler = Task {
            while !Task.isCancelled {
                if let state = ann.pendingMessages.state(local), observed.withLock({ $0.last }) != state {
                    observed.withLock { $0.append(state) }
                }
                try? await Task.sleep(for: .milliseconds(2))
            }
        }
        defer { sampler.cancel() }
        try await AccountIntegrationTests.wait(
            "the file sent", timeout: 120,
            explain: {
                let message = try? ann.postbox.readTransactionSync { tx in try tx.getMessage(local) }
                return "local message \(message.map { "flags \($0.flags), attributes \($0.attributes)" } ?? "gone"), "
                    + "upload \(ann.pendingMessages.uploadProgress(local).map { "\($0)" } ?? "none"), stored "
                    + "\((try? AccountIntegrationTests.storedMessages(ann, with: tessId).map(\.id)) ?? [])"
            }
        ) {
            try ann.postbox.readTransactionSync { tx in try tx.getMessage(local) } == nil
                && (try AccountIntegrationTests.storedMessages(ann, with: tessId).first?.id.namespace
                    == Namespaces.Message.cloud)
        }
        sampler.cancel()
        let states = observed.withLock { $0 }
        let fractions = states.compactMap { if case .uploading(let fraction) = $0 { fraction } else { nil } }
        #expect(fractions.count >= 2 && fractions == fractions.sorted(), "\(states)")
        if let sending = states.firstIndex(of: .sending) {
            #expect(!states[sending...].contains { if case .uploading = $0 { true } else { false } }, "\(states)")
        }
        #expect(ann.pendingMessages.state(local) == nil)
        let sent = try #require(try AccountIntegrationTests.storedMessages(ann, with: tessId).first)
        let document = try #require(sent.media.first as? TelegramMediaFile)
        guard case .cloudDocument = document.resource else { throw CancellationError() }
        #expect(document.fileName == "report.bin" && document.size == Int64(size))
        // The uploaded bytes became the cloud document's in MediaBox.
        #expect(
            ann.postbox.mediaBox.resourceStatus(document.resource.id)
                == .local(path: ann.postbox.mediaBox.completedPath(document.resource.id)))
        #expect(MultipartUpload.stoppedUpload(path: ann.postbox.mediaBox.completedPath(file.resource.id)) == nil)

        let report = try await Self.report(telethon)
        let received = try #require(report.received.first)
        #expect(received.text == "the report" && received.name == "report.bin")
        #expect(received.size == Int64(size) && received.downloaded == Int64(size))
        #expect(received.sha256 == digest, "Telethon downloaded other bytes")

        // Our fetch: the same document from the server, into a fresh MediaBox resource (the cached copy removed).
        ann.postbox.mediaBox.removeResource(document.resource.id)
        let fetcher = MediaFetcher(network: ann.network, mediaBox: ann.postbox.mediaBox)
        // Two fetches of one resource share one download.
        async let first = Self.finalEvent(fetcher.fetch(document.resource))
        async let second = Self.finalEvent(fetcher.fetch(document.resource))
        let (one, two) = try await (first, second)
        #expect(one == two)
        guard case .status(.local(let path)) = one else { Issue.record("fetch ended with \(one)"); return }
        let windows = (size + 512 * 1024 - 1) / (512 * 1024)
        #expect(fetcher.requests == windows, "one getFile per 512 KB window, shared by both fetches")
        #expect(hex(Digest.sha256([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))) == digest)

        // Resuming: the first 5 windows (and a piece of the 6th) are stored; only the rest is asked for.
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        ann.postbox.mediaBox.removeResource(document.resource.id)
        let stored = 5 * 512 * 1024 + 1000
        try ann.postbox.mediaBox.writePartial(
            document.resource.id, offset: 0, data: Array(bytes[0..<stored]), size: Int64(size))
        let resumed = MediaFetcher(network: ann.network, mediaBox: ann.postbox.mediaBox)
        let event = try await Self.finalEvent(resumed.fetch(document.resource))
        guard case .status(.local(let again)) = event else { Issue.record("resumed fetch ended with \(event)"); return }
        #expect(resumed.requests == windows - 5)
        #expect(hex(Digest.sha256([UInt8](try Data(contentsOf: URL(fileURLWithPath: again))))) == digest)

        // Disposing the fetch stops the download (4 KB windows one at a time, so it is still going); what it stored
        // stays, and the next fetch goes on from there.
        ann.postbox.mediaBox.removeResource(document.resource.id)
        let slow = MediaFetcher(network: ann.network, mediaBox: ann.postbox.mediaBox, parallelParts: 1, partSize: 4096)
        let partials = LockedValue(0)
        let disposable = slow.fetch(document.resource).start(next: { event in
            if case .status(.partial) = event { partials.withLock { $0 += 1 } }
        })
        try await AccountIntegrationTests.wait("a few windows stored") { partials.withLock { $0 } >= 3 }
        disposable.dispose()
        try await Task.sleep(for: .milliseconds(500))
        let stopped = slow.requests
        try await Task.sleep(for: .seconds(1))
        #expect(slow.requests == stopped, "requests went on after the fetch was disposed")
        guard case .partial(let map, _) = ann.postbox.mediaBox.resourceStatus(document.resource.id, size: Int64(size))
        else {
            Issue.record("nothing kept of the stopped download")
            return
        }
        #expect(map.count >= 3 * 4096 && map.count < Int64(size))
        let goesOn = try await Self.finalEvent(fetcher.fetch(document.resource))
        guard case .status(.local(let finished)) = goesOn else {
            Issue.record("the fetch after the stop ended with \(goesOn)"); return
        }
        #expect(hex(Digest.sha256([UInt8](try Data(contentsOf: URL(fileURLWithPath: finished))))) == digest)
        await ann.shutdown()
        try await world.close([])
    }

    /// The app stops (the account shut down, its connections closed) a third into a 30 MB document; a new account
    /// manager over the same folder opens it again, the unsent message is still there, its upload goes on with only
    /// the parts the server lacks, and the message arrives once.
    @Test func aThirtyMegabyteUploadStoppedByARestartGoesOnAndArrivesOnce() async throws {
        let world = try await AccountIntegrationTests.World(transport: .sockets)
        let ann = try await AccountIntegrationTests.signUp(world, phone: "9996622204", name: "Ann")
        let ben = try await AccountIntegrationTests.signUp(world, phone: "9996622205", name: "Ben")
        _ = try await AccountIntegrationTests.introduce(phone: "9996622205", name: "Ben", to: ann)
        ann.start()
        ben.start()
        try await AccountIntegrationTests.wait("both first states", timeout: 60) {
            ann.stateManager.hasCaughtUp && ben.stateManager.hasCaughtUp
        }
        let source = world.root.path + "/thirty.bin"
        let size = 30 * 1024 * 1024 + 777
        let digest = try Self.writePattern(size, seed: 30, to: source)
        let plan = try #require(UploadPlan(size: Int64(size)))
        let file = try ann.prepareFile(path: source, name: "thirty.bin", mimeType: "application/octet-stream")
        let local = try #require(try ann.enqueue([EnqueueMessage(text: "thirty", file: file)], to: ben.peerId).first)
        let stored = ann.postbox.mediaBox.completedPath(file.resource.id)
        try await AccountIntegrationTests.wait("a third acknowledged", timeout: 60) {
            (MultipartUpload.stoppedUpload(path: stored)?.acknowledgedParts ?? 0) >= plan.partCount / 3
        }
        await ann.shutdown()
        // A part answered just before the close is recorded by the upload task as it winds down.
        try await Task.sleep(for: .milliseconds(300))
        let left = try #require(MultipartUpload.stoppedUpload(path: stored))
        #expect(left.acknowledgedParts < plan.partCount)
        #expect(try ann.postbox.readTransactionSync { tx in try tx.getMessage(local)?.flags.contains(.unsent) } == true)

        let restarted = try AccountManager(rootPath: world.root.path, environment: world.manager.environment)
        let again = try restarted.account(ann.id)
        again.start()
        try await AccountIntegrationTests.wait("the document sent after the restart", timeout: 120) {
            try again.postbox.readTransactionSync { tx in try tx.getMessage(local) } == nil
        }
        #expect(
            again.pendingMessages.uploadedPartCount == plan.partCount - left.acknowledgedParts,
            "only the missing parts went up")
        #expect(MultipartUpload.stoppedUpload(path: stored) == nil)

        try await AccountIntegrationTests.wait("Ben has it", timeout: 30) {
            try AccountIntegrationTests.storedMessages(ben, with: ann.peerId).contains { $0.text == "thirty" }
        }
        try await Task.sleep(for: .milliseconds(300))
        let received = try AccountIntegrationTests.storedMessages(ben, with: ann.peerId).filter { $0.text == "thirty" }
        #expect(received.count == 1, "the message arrived \(received.count) times")
        let document = try #require(received.first?.media.first as? TelegramMediaFile)
        #expect(document.size == Int64(size))
        let fetched = try await Self.finalEvent(
            MediaFetcher(network: ben.network, mediaBox: ben.postbox.mediaBox).fetch(document.resource))
        guard case .status(.local(let path)) = fetched else {
            Issue.record("Ben's fetch ended with \(fetched)"); return
        }
        #expect(hex(Digest.sha256([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))) == digest)
        await again.shutdown()
        try await world.close([ben])
    }

    @Test func aStoppedUploadGoesOnFromTheAcknowledgedParts() async throws {
        let world = try await AccountIntegrationTests.World(transport: .sockets)
        let ann = try await AccountIntegrationTests.signUp(world, phone: "9996622203", name: "Ann")
        let source = world.root.path + "/big.bin"
        let size = 11 * 1024 * 1024
        _ = try Self.writePattern(size, seed: 13, to: source)
        let plan = try #require(UploadPlan(size: Int64(size)))

        // The Signal form, disposed once a third of it is acknowledged (as a killed app would stop): its progress follows
        // the record, and no part is acknowledged after the disposal has settled.
        let progress = LockedValue<[Double]>([])
        let stopped = MultipartUpload.uploadSignal(
            network: ann.network, path: source, name: "big.bin", parallelParts: 2
        )
        .start(next: { event in if case .progress(let fraction) = event { progress.withLock { $0.append(fraction) } } })
        try await AccountIntegrationTests.wait("a third acknowledged", timeout: 60) {
            (MultipartUpload.stoppedUpload(path: source)?.acknowledgedParts ?? 0) >= plan.partCount / 3
        }
        stopped.dispose()
        try await Task.sleep(for: .milliseconds(500))
        let record = try #require(MultipartUpload.stoppedUpload(path: source))
        try await Task.sleep(for: .milliseconds(500))
        #expect(MultipartUpload.stoppedUpload(path: source) == record, "parts went on after the upload was disposed")
        #expect(record.acknowledgedParts < plan.partCount)
        // A part answered while the disposal settles is still recorded (the server has it) but no longer reported, so the
        // last progress seen is at most the record's and at least the part before the one the wait saw.
        let partFraction = Double(plan.partSize) / Double(plan.size)
        let lastProgress = try #require(progress.withLock { $0 }.last)
        #expect(lastProgress <= Double(record.acknowledgedParts) * partFraction)
        #expect(lastProgress >= Double(plan.partCount / 3 - 1) * partFraction)
        #expect(
            progress.withLock { $0 }.allSatisfy { abs(($0 / partFraction).rounded() - $0 / partFraction) < 1e-9 },
            "progress counts whole parts")

        // Again: the same file id, and the first progress already counts what the server has.
        let fractions = LockedValue<[Double]>([])
        let input = try await MultipartUpload.upload(network: ann.network, path: source, name: "big.bin") { fraction in
            fractions.withLock { $0.append(fraction) }
        }
        guard case .inputFileBig(let big) = input else { Issue.record("not a big file: \(input)"); return }
        #expect(big.id == record.fileId && big.parts == Int32(plan.partCount))
        let firstFraction = try #require(fractions.withLock { $0.first })
        #expect(firstFraction >= Double(record.acknowledgedParts - 1) / Double(plan.partCount))
        #expect(
            fractions.withLock { $0.count } == plan.partCount - record.acknowledgedParts + 1,
            "only the missing parts were sent")
        #expect(MultipartUpload.stoppedUpload(path: source) == nil)

        // The server assembles the file from both attempts' parts.
        let sent = try await ann.network.request(
            Api.functions.messages.sendMedia(
                peer: .inputPeerSelf,
                media: .inputMediaUploadedDocument(
                    .init(forceFile: true, file: input, mimeType: "application/octet-stream", attributes: [])),
                message: "", randomId: 77))
        guard case .updates(let container) = sent else { Issue.record("unexpected answer \(sent)"); return }
        let sizes = container.updates.compactMap { update -> Int64? in
            guard case .updateNewMessage(let new) = update, case .message(let message) = new.message,
                case .messageMediaDocument(let media)? = message.media, case .document(let document)? = media.document
            else { return nil }
            return document.size
        }
        #expect(sizes == [Int64(size)])
        await ann.shutdown()
        try await world.close([])
    }
}
