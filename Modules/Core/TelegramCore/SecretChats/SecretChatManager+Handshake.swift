// Starting, accepting and ending secret chats: the DH group, request/accept/discardEncryption, updateEncryption.

import AccountNetworking
import CryptoUtils
import Foundation
import Network
import Postbox
import SecretApi
import SecretChats
import TLRuntime
import TelegramApi

extension SecretChatManager {
    // MARK: Starting

    /// `messages.getDhConfig`: the group (cached in Postbox with its version, checked once per process) and 256
    /// fresh random bytes from the server.
    func dhConfig() async throws(SecretChatManagerError) -> (config: SecretChatDHConfig, random: [UInt8]) {
        let cached = try read { tx in
            try tx.keychainEntryForKey(SecretChatStorage.dhConfig).flatMap {
                try JSONDecoder().decode(SecretChatDHConfig.self, from: Data($0))
            }
        }
        let answer: Api.messages.DhConfig
        do {
            answer = try await network.request(
                Api.functions.messages.getDhConfig(version: cached?.version ?? 0, randomLength: 256))
        } catch { throw .network("\(error)") }
        switch answer {
        case .dhConfigNotModified(let value):
            guard let cached else { throw .network("dhConfigNotModified without a cached group") }
            return (cached, value.random)
        case .dhConfig(let value):
            let config = SecretChatDHConfig(g: value.g, prime: value.p, version: value.version)
            do { try config.check() } catch { throw .keyExchange(error) }
            try write { tx in
                try tx.setKeychainEntry(Array(try JSONEncoder().encode(config)), forKey: SecretChatStorage.dhConfig)
            }
            return (config, value.random)
        }
    }

    /// Asks user `userId` for a secret chat; returns its id. The chat becomes active when the other side accepts
    /// (an `updateEncryption` this account applies).
    public func request(userId: Int64, accessHash: Int64) async throws(SecretChatManagerError) -> Int32 {
        let (config, random) = try await dhConfig()
        let request: SecretChatRequest
        do { request = try SecretChatRequest.make(config: config, serverRandom: random) } catch {
            throw .keyExchange(error)
        }
        let answer: Api.EncryptedChat
        do {
            answer = try await network.request(
                Api.functions.messages.requestEncryption(
                    userId: .inputUser(.init(userId: userId, accessHash: accessHash)),
                    randomId: Int32(bitPattern: UInt32(truncatingIfNeeded: SecureRandom.uint64())), gA: request.gA))
        } catch { throw .network("\(error)") }
        guard case .encryptedChatWaiting(let waiting) = answer else { throw .network("unexpected \(answer)") }
        let appliedKept = try write { tx -> Bool in
            if try SecretChatStorage.record(waiting.id, tx: tx) != nil { return false }
            try storeRecord(
                SecretChatRecord(
                    chatId: waiting.id, accessHash: waiting.accessHash, peerUserId: userId, phase: .requested(request)),
                tx: tx)
            // The acceptance, and what the other side wrote after it, may have come before this answer was stored.
            return try applyKeptUpdates(chatId: waiting.id, tx: tx)
        }
        if appliedKept { await flush(chatId: waiting.id) }
        return waiting.id
    }

    /// Accepts a chat the other side asked for (`incoming`), making it active.
    public func accept(chatId: Int32) async throws(SecretChatManagerError) {
        guard let record = try read({ tx in try SecretChatStorage.record(chatId, tx: tx) }) else {
            throw .unknownChat(chatId)
        }
        guard case .incoming(let gA) = record.phase else { throw .notActive(chatId) }
        let (config, random) = try await dhConfig()
        let acceptance: SecretChatAcceptance
        do { acceptance = try SecretChatAcceptance.make(gA: gA, config: config, serverRandom: random) } catch {
            throw .keyExchange(error)
        }
        do {
            _ = try await network.request(
                Api.functions.messages.acceptEncryption(
                    peer: .inputEncryptedChat(.init(chatId: chatId, accessHash: record.accessHash)), gB: acceptance.gB,
                    keyFingerprint: acceptance.fingerprint))
        } catch { throw .network("\(error)") }
        let now = clock()
        let openedEarly = try write { tx -> Bool in
            guard var stored = try SecretChatStorage.record(chatId, tx: tx) else { return false }
            stored.phase = .active(SecretChatSession(established: acceptance.established, now: now))
            let early = stored.early ?? []
            stored.early = nil
            try storeRecord(stored, tx: tx)
            try openEarly(early, tx: tx)
            return !early.isEmpty
        }
        // What opening them led to (a resend request, our layer notice) goes now.
        if openedEarly { await flush(chatId: chatId) }
    }

    /// Opens, in the order they came, the messages that arrived before this side knew the key
    /// (`SecretChatRecord.early`); the chat is stored active first.
    func openEarly(_ early: [[UInt8]], tx: Transaction) throws {
        for bytes in early {
            guard let message = try? Api.EncryptedMessage(tlBytes: bytes) else { continue }
            _ = try receive(message, tx: tx)
        }
    }

    /// Ends a chat on both sides (`messages.discardEncryption`).
    public func discard(chatId: Int32, reason: String = "discarded here") async throws(SecretChatManagerError) {
        do { _ = try await network.request(Api.functions.messages.discardEncryption(chatId: chatId)) } catch {
            throw .network("\(error)")
        }
        try write { tx in
            guard var stored = try SecretChatStorage.record(chatId, tx: tx) else { return }
            stored.phase = .ended(reason)
            try storeRecord(stored, tx: tx)
        }
    }

    /// Applies an `updateEncryption`: a chat asked for, accepted (the key exchange completes) or discarded.
    func applyEncryption(_ chat: Api.EncryptedChat, tx: Transaction) throws -> Int32? {
        switch chat {
        case .encryptedChatRequested(let requested):
            guard try SecretChatStorage.record(requested.id, tx: tx) == nil else { return nil }
            try storeRecord(
                SecretChatRecord(
                    chatId: requested.id, accessHash: requested.accessHash, peerUserId: requested.adminId,
                    phase: .incoming(gA: requested.gA)),
                tx: tx)
            return nil
        case .encryptedChat(let accepted):
            guard var record = try SecretChatStorage.record(accepted.id, tx: tx) else {
                // Our request's answer is not stored yet: `request` applies this when it stores the chat.
                keepForUnknownChat(accepted.id, .acceptance(chat))
                return nil
            }
            guard case .requested(let request) = record.phase else { return nil }
            do {
                let established = try request.complete(gB: accepted.gAOrB, fingerprint: accepted.keyFingerprint)
                record.phase = .active(SecretChatSession(established: established, now: clock()))
            } catch {
                // A g_b out of range or a fingerprint that differs: someone in the middle. The chat is not used.
                record.phase = .ended("key exchange refused: \(error)")
            }
            let early = record.early ?? []
            record.early = nil
            try storeRecord(record, tx: tx)
            // What the other side sent before its acceptance reached us, opened now.
            if record.session != nil { try openEarly(early, tx: tx) }
            return accepted.id
        case .encryptedChatDiscarded(let discarded):
            guard var record = try SecretChatStorage.record(discarded.id, tx: tx) else { return nil }
            record.phase = .ended("discarded by the other side")
            record.outbox.removeAll()
            try storeRecord(record, tx: tx)
            return nil
        case .encryptedChatWaiting, .encryptedChatEmpty:
            return nil
        }
    }
}
