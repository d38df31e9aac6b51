import CryptoUtils
import Foundation
import SecretApi
import SecretChats
import Synchronization
import TestVectors

/// A seeded random source for reproducible sessions.
func seededRandom(_ seed: UInt64) -> SecretChatRandom {
    let generator = Mutex(SeededGenerator(seed: seed))
    return SecretChatRandom { count in generator.withLock { $0.bytes(count) } }
}

/// Telegram's group, as `messages.getDhConfig` gives it.
let telegramConfig = SecretChatDHConfig(g: DiffieHellman.telegramGenerator, prime: DiffieHellman.telegramPrime, version: 1)

/// Both halves of a first exchange.
func establishedPair(seed: UInt64 = 1) throws -> (alice: SecretChatEstablished, bob: SecretChatEstablished) {
    let random = seededRandom(seed)
    let request = try SecretChatRequest.make(config: telegramConfig, serverRandom: random.bytes(256), random: random)
    let acceptance = try SecretChatAcceptance.make(
        gA: request.gA, config: telegramConfig, serverRandom: random.bytes(256), random: random)
    let alice = try request.complete(gB: acceptance.gB, fingerprint: acceptance.fingerprint)
    return (alice, acceptance.established)
}

/// A plain text message.
func text(_ string: String, randomId: Int64, ttl: Int32 = 0) -> SecretApi.DecryptedMessage {
    .decryptedMessage(.init(randomId: randomId, ttl: ttl, message: string))
}

/// One side of a conversation with the relay in between kept as a queue: what it sent (raw → payload, as the shell
/// stores it for resends) and what it showed.
final class Peer {
    var session: SecretChatSession
    let random: SecretChatRandom
    var sentPayloads: [Int32: [UInt8]] = [:]
    var shown: [String] = []
    var drops: [SecretChatDrop] = []
    var terminated: String?
    var now: Int32 = 1_000_000
    var policy = SecretChatRekeyPolicy.standard

    init(_ established: SecretChatEstablished, seed: UInt64) {
        session = SecretChatSession(established: established, now: 1_000_000)
        random = seededRandom(seed)
    }

    /// Sends a text; returns the sealed messages in order (a layer notice or a re-key request may come along).
    func send(_ string: String) -> [[UInt8]] {
        let outgoing = session.send(text(string, randomId: random.int64ForTests()), now: now, policy: policy, random: random)
        return record(outgoing)
    }

    func record(_ outgoing: [SecretChatOutgoing]) -> [[UInt8]] {
        for item in outgoing { sentPayloads[item.raw] = item.payload }
        return outgoing.map(\.sealed)
    }

    /// Receives one sealed message; returns what this side sends in answer.
    func receive(_ bytes: [UInt8]) -> [[UInt8]] {
        var replies: [[UInt8]] = []
        for event in session.receive(bytes, now: now, policy: policy, random: random) {
            switch event {
            case .message(let message, _):
                if case .decryptedMessage(let value) = message { shown.append(value.message) }
            case .send(let outgoing):
                replies += record([outgoing])
            case .resend(let range):
                for raw in range { if let payload = sentPayloads[raw] { replies.append(session.reseal(payload, random: random)) } }
            case .dropped(let drop):
                drops.append(drop)
            case .keyChanged:
                break
            case .terminated(let reason):
                terminated = reason
            }
        }
        return replies
    }
}

extension SecretChatRandom {
    func int64ForTests() -> Int64 { bytes(8).reduce(Int64(0)) { $0 << 8 | Int64($1) } }
}

/// Delivers everything in flight between two peers until both are quiet (each answer goes to the other side).
func deliver(_ initial: [[UInt8]], from sender: Peer, to receiver: Peer, limit: Int = 10_000) {
    var queue: [(bytes: [UInt8], to: Peer, from: Peer)] = initial.map { ($0, receiver, sender) }
    var steps = 0
    while !queue.isEmpty, steps < limit {
        steps += 1
        let next = queue.removeFirst()
        for reply in next.to.receive(next.bytes) { queue.append((reply, next.from, next.to)) }
    }
}
