import BenchmarkSupport
import CryptoUtils
import Foundation
import MTProtoCore
import ServerStore

/// The work tg-server cannot avoid for one delivered message, without the server around it: the same SQLite writes
/// with the same schema (two message-box rows, two pts updates, the random id, in one transaction), and the same
/// bytes encrypted and decrypted (the request, its answer and the push, each sealed by one side and opened by the
/// other).
enum BareCost {
    /// Messages per second the store alone takes, written by `writers` threads at once: 1 is one transaction per
    /// message; 32 (tg-server's RPC workers, `ServerLimits.rpcWorkers`) lets `ServerStore`'s group commit batch
    /// them as it batches the server's writes. Also returns the writes per commit it reached.
    static func storeRate(messages: Int, writers: Int = 1) throws -> (rate: Double, writesPerCommit: Double) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "server-bench-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ServerStore(path: folder.appendingPathComponent("server.sqlite").path)
        try store.write { tx in
            for id in [Int64(1), 2] {
                try tx.insert(
                    UserRecord(
                        id: id, accessHash: id, phone: "99966200\(id)", firstName: "U\(id)", lastName: "", dc: 2,
                        created: 0))
            }
        }
        let before = store.writeStatistics
        let start = now()
        let failure = LockedFailure()
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            for n in stride(from: writer, to: messages, by: writers) {
                do { try writeMessage(n, to: store) } catch { failure.record(error) }
            }
        }
        if let error = failure.first { throw error }
        let seconds = now() - start
        let after = store.writeStatistics
        return (
            Double(messages) / seconds,
            Double(after.writes - before.writes) / Double(max(1, after.commits - before.commits))
        )
    }

    /// One delivered message's writes: its global id, a message-box row and a pts update for each side, the random id.
    static func writeMessage(_ n: Int, to store: ServerStore) throws {
        try store.write { tx in
            let global = try tx.nextValue(of: "message")
            for (owner, peer) in [(Int64(1), Int64(2)), (2, 1)] {
                let id = try tx.allocateMessageId(owner: owner)
                try tx.insert(
                    MessageRecord(
                        owner: owner, id: id, globalId: global, peer: .user(peer), fromId: 1, outgoing: owner == 1,
                        date: 0,
                        text: "message \(n) with some text"))
                _ = try tx.appendUpdate(owner: owner, ptsCount: 1, date: 0) { _ in [UInt8](repeating: 7, count: 96)
                }
                if owner == 1 { try tx.remember(randomId: Int64(n), owner: owner, id: id) }
            }
        }
    }

    /// The first error any writer thread met.
    final class LockedFailure: @unchecked Sendable {
        private let lock = NSLock()
        private var error: (any Error)?
        func record(_ error: any Error) { lock.withLock { if self.error == nil { self.error = error } } }
        var first: (any Error)? { lock.withLock { error } }
    }

    /// Messages per second the crypto alone takes: three packets (request ~112 B, answer ~60 B, push ~120 B),
    /// each encrypted and decrypted with AES-256-IGE and the SHA-256 msg_key.
    static func cryptoRate(messages: Int) throws -> Double {
        guard let key = AuthKey(bytes: SecureRandom.bytes(256)) else { return 0 }
        let bodies = [
            [UInt8](repeating: 1, count: 112), [UInt8](repeating: 2, count: 60), [UInt8](repeating: 3, count: 120),
        ]
        let start = now()
        var checksum = 0
        for n in 0..<messages {
            for (index, body) in bodies.enumerated() {
                let direction: MTProtoDirection = index == 0 ? .clientToServer : .serverToClient
                let packet = EncryptedMessage.encrypt(
                    authKey: key, direction: direction, salt: 1, sessionId: 2, messageId: Int64(n) << 2, seqNo: 1,
                    body: body)
                checksum &+= try EncryptedMessage.decrypt(packet, authKey: key, direction: direction).body.count
            }
        }
        blackHole(checksum)
        return Double(messages) / (now() - start)
    }
}
