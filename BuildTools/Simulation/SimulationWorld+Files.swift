import CryptoUtils
import Foundation
import MediaBox
import Postbox
import SwiftSignalKit
import SyncCore
import Synchronization
import TelegramCore

/// Documents in the workload: their bytes, drawn from the seed, and the end check that each arrived whole.
extension SimulationWorld {
    /// `size` bytes drawn from `salt` (SplitMix64): the same file for the same seed and message.
    static func fileContent(size: Int, salt: UInt64) -> [UInt8] {
        var random = SimulationRandom(seed: salt &* 0x9E37_79B9_7F4A_7C15)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size + 8)
        while bytes.count < size { withUnsafeBytes(of: random.next()) { bytes += $0 } }
        return Array(bytes.prefix(size))
    }

    /// Every document sent and not deleted is at its sender and at each recipient, with its size, and each
    /// recipient fetches exactly the bytes sent (`upload.getFile` through its own network, in 512 KB parts into its
    /// MediaBox, core.telegram.org "Uploading and Downloading Files").
    func filesArrived() async -> [String] {
        var failures: [String] = []
        for message in sent where !message.deleted {
            guard let (size, digest) = message.file else { continue }
            for holder in [message.from] + recipients(of: message) {
                let copy = messages(of: holder, in: chat(of: message, at: holder)).first {
                    Self.tag(of: $0.text) == message.tag
                }
                guard let file = copy?.media.compactMap({ $0 as? TelegramMediaFile }).first else {
                    failures.append("a\(holder) holds \(message.tag) without its document")
                    continue
                }
                guard file.size == Int64(size) else {
                    failures.append("a\(holder)'s document of \(message.tag) has \(file.size ?? -1) bytes, not \(size)")
                    continue
                }
                guard holder != message.from else { continue }
                switch await fetch(file, by: accounts[holder]) {
                case .success(let bytes) where Digest.sha256(bytes) == digest:
                    break
                case .success(let bytes):
                    failures.append("a\(holder) fetched \(bytes.count) other bytes for \(message.tag)")
                case .failure(let reason):
                    failures.append("a\(holder) could not fetch \(message.tag): \(reason)")
                }
            }
        }
        return failures
    }

    private enum Fetched {
        case success([UInt8])
        case failure(String)
    }

    /// The document's bytes, fetched by `account` while the world runs (`drive`: a retried part waits on the
    /// world's clock).
    private func fetch(_ file: TelegramMediaFile, by account: Account) async -> Fetched {
        let fetcher = MediaFetcher(account: account)
        let events = AsyncStream.makeStream(of: FetchEvent.self)
        let disposable = fetcher.fetch(file.resource, size: file.size).start(
            next: { events.continuation.yield($0) }, completed: { events.continuation.finish() })
        let finished = FetchFinished()
        let driver = Task { () -> String? in
            let stuck = await self.drive { finished.value ? nil : "the fetch is running" }
            events.continuation.finish()
            return stuck
        }
        var outcome = Fetched.failure("no data")
        loop: for await event in events.stream {
            switch event {
            case .status(.local(path: let path)):
                guard let data = FileManager.default.contents(atPath: path) else {
                    outcome = .failure("unreadable")
                    break loop
                }
                outcome = .success(Array(data))
                break loop
            case .failed(let error):
                outcome = .failure("\(error)")
                break loop
            case .status:
                continue
            }
        }
        disposable.dispose()
        finished.set()
        if let stuck = await driver.value, case .failure = outcome { return .failure(stuck) }
        return outcome
    }
}

/// Set once a fetch has its outcome: the world stops running for it.
private final class FetchFinished: Sendable {
    private let flag = Mutex(false)
    var value: Bool { flag.withLock { $0 } }
    func set() { flag.withLock { $0 = true } }
}
