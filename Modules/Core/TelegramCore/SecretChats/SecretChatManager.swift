import CryptoUtils
import Foundation
import MediaBox
public import Network
public import Postbox
public import SecretApi
public import SecretChats
public import SyncCore
import Synchronization
import TLRuntime
public import TelegramApi

/// Errors of the secret-chat calls an app makes.
public enum SecretChatManagerError: Error, Equatable, Sendable {
    case unknownChat(Int32)
    case notActive(Int32)
    case keyExchange(SecretChatError)
    case network(String)
    case storage(String)
    /// A message this chat does not hold (a reply to it, or deleting it).
    case unknownMessage(Int32)
}

/// The account's secret chats (Telegram-iOS `TelegramCore/Sources/SecretChats/`): starting and accepting them
/// (`messages.getDhConfig` with the group's checks cached, `requestEncryption`, `acceptEncryption`), applying
/// `updateEncryption` and `updateNewEncryptedMessage` inside the update batch's Postbox transaction (the session
/// and the message it produced change together), sending through an outbox that survives restarts, and discarding.
/// The protocol itself is the `SecretChats` module's `SecretChatSession`.
public final class SecretChatManager: @unchecked Sendable {
    public let accountPeerId: PeerId
    private let postbox: Postbox
    private let network: AccountNetwork
    /// Chats being flushed, each with whether another flush was asked for meanwhile.
    private let flushing = Mutex<[Int32: Bool]>([:])
    /// Tests drop chosen transmissions on the way out (the n-th sealed message of a chat, counted from 0): the
    /// message leaves the outbox as if sent and the relay never sees it — the other side finds the gap.
    private let dropTransmission = Mutex<(@Sendable (Int32, Int) -> Bool)?>(nil)
    private let transmitted = Mutex<[Int32: Int]>([:])
    private let resent = Mutex(0)
    private let drops = Mutex<[SecretChatDrop]>([])

    /// The last 100 received messages that were not shown, and why (tests and diagnostics; never shown to a user).
    public var recentDrops: [SecretChatDrop] { drops.withLock { $0 } }

    /// Messages sealed again for the other side's resend requests, since this manager started.
    public var resentCount: Int { resent.withLock { $0 } }
    /// Re-keying policy (tests shorten it).
    public let rekeyPolicy: SecretChatRekeyPolicy
    /// What the clock says now (tests pass virtual time).
    private let clock: @Sendable () -> Int32

    init(
        accountPeerId: PeerId, postbox: Postbox, network: AccountNetwork,
        rekeyPolicy: SecretChatRekeyPolicy = .standard,
        clock: @escaping @Sendable () -> Int32 = { Int32(Date().timeIntervalSince1970) }
    ) {
        self.accountPeerId = accountPeerId
        self.postbox = postbox
        self.network = network
        self.rekeyPolicy = rekeyPolicy
        self.clock = clock
    }

    /// Sets (or with nil clears) the test filter that drops chosen transmissions.
    public func dropTransmissions(_ filter: (@Sendable (_ chatId: Int32, _ index: Int) -> Bool)?) {
        dropTransmission.withLock { $0 = filter }
    }

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
        try write { tx in
            // The acceptance may already have been applied if it raced the answer.
            if try SecretChatStorage.record(waiting.id, tx: tx) != nil { return }
            try SecretChatStorage.store(
                SecretChatRecord(
                    chatId: waiting.id, accessHash: waiting.accessHash, peerUserId: userId, phase: .requested(request)),
                tx: tx)
        }
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
        try write { tx in
            guard var stored = try SecretChatStorage.record(chatId, tx: tx) else { return }
            stored.phase = .active(SecretChatSession(established: acceptance.established, now: now))
            try SecretChatStorage.store(stored, tx: tx)
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
            try SecretChatStorage.store(stored, tx: tx)
        }
    }

    // MARK: Reading

    /// A chat's record as stored.
    public func record(chatId: Int32) throws(SecretChatManagerError) -> SecretChatRecord? {
        try read { tx in try SecretChatStorage.record(chatId, tx: tx) }
    }

    /// Every chat this account holds.
    public func records() throws(SecretChatManagerError) -> [SecretChatRecord] {
        try read { tx in try SecretChatStorage.chatIds(tx: tx).compactMap { try SecretChatStorage.record($0, tx: tx) } }
    }

    /// The key visualization both users compare (picture, hex, emoji).
    public func visualization(chatId: Int32) throws(SecretChatManagerError) -> SecretChatKeyVisualization? {
        try record(chatId: chatId)?.session?.visualization
    }

    // MARK: Sending

    /// Stores `text` (with its `entities`, and as a reply to `replyTo` when given) as an outgoing message of the
    /// chat and seals it in the same transaction (with the layer notice or a re-key request that may come along),
    /// then sends the outbox. The entities travel as `decryptedMessage.entities`, the reply as
    /// `reply_to_random_id` (the replied message's random_id). Returns the message's local id.
    @discardableResult
    public func send(
        text: String, entities: [MessageTextEntity] = [], replyTo: MessageId? = nil, chatId: Int32, ttl: Int32? = nil
    ) async throws(SecretChatManagerError) -> MessageId {
        let secretEntities = SecretChatEntities.secretEntities(entities)
        return try await sendSealed(
            chatId: chatId, storedText: text, entities: entities, replyTo: replyTo, ttl: { ttl ?? $0.messageTTL ?? 0 }
        ) { randomId, ttl, replyRandomId in
            .decryptedMessage(
                .init(
                    randomId: randomId, ttl: ttl, message: text, entities: secretEntities,
                    replyToRandomId: replyRandomId))
        }
    }

    /// One outgoing message of the chat: sealed (with the layer notice or a re-key request that may come along),
    /// queued with `file` when it carries one, and stored as an outgoing message with `storedText`, its entities,
    /// reply and media — with its self-destruct timer when its TTL is above 0 — all in one transaction; then the
    /// outbox is sent.
    private func sendSealed(
        chatId: Int32, storedText: String, entities: [MessageTextEntity] = [], replyTo: MessageId? = nil,
        media: [Media] = [], ttl: (SecretChatRecord) -> Int32, file: [UInt8]? = nil,
        _ message: (_ randomId: Int64, _ ttl: Int32, _ replyToRandomId: Int64?) -> SecretApi.DecryptedMessage
    ) async throws(SecretChatManagerError) -> MessageId {
        let now = clock()
        let accountPeerId = self.accountPeerId
        let policy = rekeyPolicy
        let id = try write { tx -> MessageId in
            guard var record = try SecretChatStorage.record(chatId, tx: tx) else {
                throw SecretChatManagerError.unknownChat(chatId)
            }
            guard var session = record.session else { throw SecretChatManagerError.notActive(chatId) }
            var replyRandomId: Int64?
            if let replyTo {
                guard replyTo.peerId == record.peerId, let replied = try tx.getMessage(replyTo)?.globallyUniqueId else {
                    throw SecretChatManagerError.unknownMessage(replyTo.id)
                }
                replyRandomId = replied
            }
            let randomId = Int64(bitPattern: SecureRandom.uint64())
            let ttl = ttl(record)
            let outgoing = session.send(message(randomId, ttl, replyRandomId), now: now, policy: policy)
            try Self.queue(outgoing, chatId: chatId, record: &record, tx: tx, file: file)
            record.phase = .active(session)
            var attributes: [MessageAttribute] = []
            if !entities.isEmpty { attributes.append(TextEntitiesMessageAttribute(entities: entities)) }
            if let replyTo { attributes.append(ReplyMessageAttribute(messageId: replyTo)) }
            let ids = try tx.addMessages([
                StoreMessage(
                    id: .partial(record.peerId, Namespaces.Message.local), globallyUniqueId: randomId, timestamp: now,
                    authorId: accountPeerId, text: storedText, attributes: attributes, media: media)
            ])
            if ttl > 0 {
                var timers = record.timers ?? SecretChatTimers()
                timers.add(namespace: ids[0].namespace, id: ids[0].id, incoming: false, date: now, ttl: ttl)
                record.timers = timers
            }
            try SecretChatStorage.store(record, tx: tx)
            return ids[0]
        }
        await flush(chatId: chatId)
        return id
    }

    /// Keeps each outgoing payload (for resend requests) and queues its sealed form.
    static func queue(
        _ outgoing: [SecretChatOutgoing], chatId: Int32, record: inout SecretChatRecord, tx: Transaction,
        file: [UInt8]? = nil
    ) throws {
        for item in outgoing {
            try tx.setKeychainEntry(item.payload, forKey: SecretChatStorage.payload(chatId, raw: item.raw))
            record.outbox.append(
                SecretChatOutbound(
                    transportRandomId: Int64(bitPattern: SecureRandom.uint64()), bytes: item.sealed,
                    isService: item.isService,
                    file: item.isService ? nil : file))
        }
    }

    /// Sends the chat's outbox in order, each removed once the server has it; one flush per chat at a time (a
    /// flush asked for meanwhile runs again after it).
    public func flush(chatId: Int32) async {
        let mine = flushing.withLock { state -> Bool in
            if state[chatId] != nil {
                state[chatId] = true
                return false
            }
            state[chatId] = false
            return true
        }
        guard mine else { return }
        while true {
            while let next = try? read({ tx in
                try SecretChatStorage.record(chatId, tx: tx).flatMap { record in
                    record.outbox.first.map { (record, $0) }
                }
            }) {
                let (record, first) = next
                let index = transmitted.withLock { counts -> Int in
                    let value = counts[chatId, default: 0]
                    counts[chatId] = value + 1
                    return value
                }
                let dropped = dropTransmission.withLock { $0?(chatId, index) ?? false }
                if !dropped {
                    let peer = Api.InputEncryptedChat.inputEncryptedChat(
                        .init(chatId: chatId, accessHash: record.accessHash))
                    do {
                        if let file = first.file {
                            _ = try await network.request(
                                Api.functions.messages.sendEncryptedFile(
                                    peer: peer, randomId: first.transportRandomId, data: first.bytes,
                                    file: try Api.InputEncryptedFile(tlBytes: file)))
                        } else if first.isService {
                            _ = try await network.request(
                                Api.functions.messages.sendEncryptedService(
                                    peer: peer, randomId: first.transportRandomId, data: first.bytes))
                        } else {
                            _ = try await network.request(
                                Api.functions.messages.sendEncrypted(
                                    peer: peer, randomId: first.transportRandomId, data: first.bytes))
                        }
                    } catch {
                        break  // left in the outbox: the next flush (a restart, the next message) sends it
                    }
                }
                _ = try? write { tx in
                    guard var stored = try SecretChatStorage.record(chatId, tx: tx), stored.outbox.first == first else {
                        return
                    }
                    stored.outbox.removeFirst()
                    try SecretChatStorage.store(stored, tx: tx)
                }
            }
            let done = flushing.withLock { state -> Bool in
                if state[chatId] == true {
                    state[chatId] = false
                    return false
                }
                state[chatId] = nil
                return true
            }
            if done { break }
        }
    }

    /// Sends every chat's outbox (on start: what a restart left).
    public func flushAll() async {
        for id in (try? read({ tx in try SecretChatStorage.chatIds(tx: tx) })) ?? [] { await flush(chatId: id) }
    }

    /// What a received message shows as text: its text, or a file's name when it carries a file without a caption.
    static func text(of message: SecretApi.DecryptedMessage.Cons_decryptedMessage) -> String {
        guard message.message.isEmpty, case .decryptedMessageMediaDocument(let document)? = message.media else {
            return message.message
        }
        return document.attributes.compactMap { attribute -> String? in
            if case .documentAttributeFilename(let value) = attribute { return value.fileName }
            return nil
        }.first ?? ""
    }

    // MARK: Files

    /// Encrypts the file at `path` with a new key and IV, uploads it in parts as any file, and sends it as a
    /// `decryptedMessageMediaDocument` (the key and IV inside the encrypted message) with `sendEncryptedFile`.
    @discardableResult
    public func sendFile(
        path: String, name: String, mimeType: String, chatId: Int32
    ) async throws(SecretChatManagerError)
        -> MessageId
    {
        let content: [UInt8]
        do { content = Array(try Data(contentsOf: URL(fileURLWithPath: path))) } catch { throw .storage("\(error)") }
        return try await sendMedia(.document(content: content, name: name, mimeType: mimeType), chatId: chatId)
    }

    /// Sends media with an optional caption (its `entities` in `decryptedMessage.entities`) and reply: a photo,
    /// voice note or document is encrypted with a new key and IV, uploaded in parts as any file and announced with
    /// `sendEncryptedFile` (the key, IV, size, thumbnail and attributes inside the encrypted message); a file the
    /// server already has (a sticker) goes as `decryptedMessageMediaExternalDocument` without an upload. The stored
    /// outgoing message carries the same media as a cloud chat's would.
    @discardableResult
    public func sendMedia(
        _ media: SecretChatOutgoingMedia, caption: String = "", entities: [MessageTextEntity] = [],
        replyTo: MessageId? = nil, chatId: Int32
    ) async throws(SecretChatManagerError) -> MessageId {
        let secretEntities = SecretChatEntities.secretEntities(entities)
        let localId = Int64(bitPattern: SecureRandom.uint64())
        if case .external(let file) = media {
            guard case .cloudDocument(let dc, let id, let accessHash, _, let size) = file.resource else {
                throw .storage("only a file the server holds can be sent without an upload")
            }
            let external = SecretApi.DecryptedMessageMedia.decryptedMessageMediaExternalDocument(
                .init(
                    id: id, accessHash: accessHash, date: clock(), mimeType: file.mimeType,
                    size: Int32(clamping: size ?? file.size ?? 0), thumb: .photoSizeEmpty(.init(type: "")), dcId: dc,
                    attributes: file.attributes.compactMap(SecretChatMediaMapping.secretAttribute)))
            return try await sendSealed(
                chatId: chatId, storedText: caption, entities: entities, replyTo: replyTo, media: [file],
                ttl: { $0.messageTTL ?? 0 }
            ) { randomId, ttl, reply in
                .decryptedMessage(
                    .init(
                        randomId: randomId, ttl: ttl, message: caption, media: external, entities: secretEntities,
                        replyToRandomId: reply))
            }
        }
        let content: [UInt8]
        switch media {
        case .document(let bytes, _, _), .photo(let bytes, _, _, _), .voice(let bytes, _, _): content = bytes
        case .external: content = []
        }
        let fileKey = SecretChatFileKey()
        let encryptedInput = try await uploadEncrypted(content, key: fileKey)
        let size = Int64(content.count)
        let decrypted: SecretApi.DecryptedMessageMedia
        let stored: Media
        var storedText = caption
        switch media {
        case .photo(_, let width, let height, let thumbnail):
            decrypted = .decryptedMessageMediaPhoto(
                .init(
                    thumb: thumbnail?.jpeg ?? [], thumbW: thumbnail?.width ?? 0, thumbH: thumbnail?.height ?? 0,
                    w: width,
                    h: height, size: Int32(clamping: size), key: fileKey.key, iv: fileKey.iv, caption: ""))
            stored = TelegramMediaImage(
                imageId: MediaId(namespace: Namespaces.Media.localImage, id: localId),
                representations: [
                    TelegramMediaImageRepresentation(
                        dimensions: PixelDimensions(width: width, height: height),
                        resource: .localFile(fileId: localId, size: size), type: "y", byteSize: size)
                ])
        case .voice(_, let duration, let waveform):
            let attributes: [TelegramMediaFileAttribute] = [
                .audio(isVoice: true, duration: duration, title: nil, performer: nil, waveform: waveform)
            ]
            decrypted = Self.document(mimeType: "audio/ogg", size: size, key: fileKey, attributes: attributes)
            stored = TelegramMediaFile(
                fileId: MediaId(namespace: Namespaces.Media.localFile, id: localId),
                resource: .localFile(fileId: localId, size: size), mimeType: "audio/ogg", size: size,
                attributes: attributes)
        case .document(_, let name, let mimeType):
            let attributes: [TelegramMediaFileAttribute] = [.fileName(name)]
            decrypted = Self.document(mimeType: mimeType, size: size, key: fileKey, attributes: attributes)
            stored = TelegramMediaFile(
                fileId: MediaId(namespace: Namespaces.Media.localFile, id: localId),
                resource: .localFile(fileId: localId, size: size), mimeType: mimeType, size: size,
                attributes: attributes)
            if storedText.isEmpty { storedText = name }
        case .external:
            throw .storage("a file the server holds is sent without an upload")  // handled above
        }
        // This side's copy stays readable: the plain bytes in MediaBox under the stored media's local resource.
        let copy = postbox.mediaBox.completedPath(TelegramMediaResource.localFile(fileId: localId, size: size).id)
        do { try Data(content).write(to: URL(fileURLWithPath: copy)) } catch { throw .storage("\(error)") }
        return try await sendSealed(
            chatId: chatId, storedText: storedText, entities: entities, replyTo: replyTo, media: [stored],
            ttl: { $0.messageTTL ?? 0 }, file: encryptedInput.serialized()
        ) { randomId, ttl, reply in
            .decryptedMessage(
                .init(
                    randomId: randomId, ttl: ttl, message: caption, media: decrypted, entities: secretEntities,
                    replyToRandomId: reply))
        }
    }

    static func document(
        mimeType: String, size: Int64, key: SecretChatFileKey, attributes: [TelegramMediaFileAttribute]
    ) -> SecretApi.DecryptedMessageMedia {
        .decryptedMessageMediaDocument(
            .init(
                thumb: [], thumbW: 0, thumbH: 0, mimeType: mimeType, size: size, key: key.key, iv: key.iv,
                attributes: attributes.compactMap(SecretChatMediaMapping.secretAttribute), caption: ""))
    }

    /// Encrypts `content` with `key` (AES-256-IGE, padded to whole blocks), uploads it in parts like any file, and
    /// returns what `sendEncryptedFile` names it by, with the key's fingerprint.
    func uploadEncrypted(
        _ content: [UInt8], key fileKey: SecretChatFileKey
    ) async throws(SecretChatManagerError)
        -> Api.InputEncryptedFile
    {
        let upload = NSTemporaryDirectory() + "secret-upload-\(SecureRandom.uint64())"
        defer {
            try? FileManager.default.removeItem(atPath: upload)
            MultipartUpload.forget(path: upload)
        }
        let input: Api.InputFile
        do {
            try Data(fileKey.encrypt(content)).write(to: URL(fileURLWithPath: upload))
            input = try await MultipartUpload.upload(network: network, path: upload, name: "")
        } catch { throw .network("\(error)") }
        switch input {
        case .inputFile(let file):
            return .inputEncryptedFileUploaded(
                .init(
                    id: file.id, parts: file.parts, md5Checksum: file.md5Checksum, keyFingerprint: fileKey.fingerprint))
        case .inputFileBig(let file):
            return .inputEncryptedFileBigUploaded(
                .init(id: file.id, parts: file.parts, keyFingerprint: fileKey.fingerprint))
        case .inputFileStoryDocument:
            throw .network("unexpected upload result")
        }
    }

    /// A received file's details, by its message's `globallyUniqueId` (the decrypted message's random_id).
    public func receivedFile(chatId: Int32, randomId: Int64) throws(SecretChatManagerError) -> SecretChatReceivedFile? {
        try read { tx in
            try tx.keychainEntryForKey(SecretChatStorage.file(chatId, randomId: randomId)).map {
                try JSONDecoder().decode(SecretChatReceivedFile.self, from: Data($0))
            }
        }
    }

    /// Downloads a received file (`upload.getFile` with `inputEncryptedFileLocation`, 512 KB windows on its DC) and
    /// decrypts it, refusing it when the server's fingerprint is not the key's.
    public func download(_ file: SecretChatReceivedFile) async throws(SecretChatManagerError) -> [UInt8] {
        let window: Int32 = 512 * 1024
        let encryptedSize = (file.size + 15) / 16 * 16
        var data: [UInt8] = []
        var offset: Int64 = 0
        while offset < encryptedSize {
            let part: Api.upload.File
            do {
                part = try await network.request(
                    Api.functions.upload.getFile(
                        location: .inputEncryptedFileLocation(.init(id: file.id, accessHash: file.accessHash)),
                        offset: offset,
                        limit: window),
                    dc: file.dc)
            } catch { throw .network("\(error)") }
            guard case .file(let body) = part else { throw .network("unexpected \(part)") }
            data += body.bytes
            if body.bytes.count < Int(window) { break }
            offset += Int64(window)
        }
        do { return try file.key.decrypt(data, size: Int(file.size), serverFingerprint: file.serverFingerprint) } catch
        {
            throw .storage("the file was refused: \(error)")
        }
    }

    /// Sets the chat's TTL for new messages on both sides (`decryptedMessageActionSetMessageTTL`; 0 turns it off).
    /// Messages sent after it carry it unless `send` names another.
    public func setMessageTTL(_ seconds: Int32, chatId: Int32) async throws(SecretChatManagerError) {
        let now = clock()
        let policy = rekeyPolicy
        try write { tx in
            guard var record = try SecretChatStorage.record(chatId, tx: tx) else {
                throw SecretChatManagerError.unknownChat(chatId)
            }
            guard var session = record.session else { throw SecretChatManagerError.notActive(chatId) }
            let action = SecretApi.DecryptedMessage.decryptedMessageService(
                .init(
                    randomId: Int64(bitPattern: SecureRandom.uint64()),
                    action: .decryptedMessageActionSetMessageTTL(.init(ttlSeconds: max(0, seconds)))))
            let outgoing = session.send(action, now: now, policy: policy)
            try Self.queue(outgoing, chatId: chatId, record: &record, tx: tx)
            record.phase = .active(session)
            record.messageTTL = seconds > 0 ? seconds : nil
            try SecretChatStorage.store(record, tx: tx)
        }
        await flush(chatId: chatId)
    }

    // MARK: Deleting and screenshot notices

    /// Deletes messages of the chat here and on the other side (`decryptedMessageActionDeleteMessages` with their
    /// random_ids), the deletion and the sealed notice in one transaction.
    public func deleteMessages(_ ids: [MessageId], chatId: Int32) async throws(SecretChatManagerError) {
        try await sendAction(chatId: chatId) { tx, record in
            var randomIds: [Int64] = []
            for id in ids {
                guard id.peerId == record.peerId, let randomId = try tx.getMessage(id)?.globallyUniqueId else {
                    throw SecretChatManagerError.unknownMessage(id.id)
                }
                randomIds.append(randomId)
            }
            try Self.deleteMessages(randomIds: randomIds, record: &record, tx: tx)
            return .decryptedMessageActionDeleteMessages(.init(randomIds: randomIds))
        }
    }

    /// Clears the chat's history here and on the other side (`decryptedMessageActionFlushHistory`).
    public func clearHistory(chatId: Int32) async throws(SecretChatManagerError) {
        try await sendAction(chatId: chatId) { tx, record in
            try Self.deleteHistory(record: &record, tx: tx)
            return .decryptedMessageActionFlushHistory
        }
    }

    /// Tells the other side this user took a screenshot of these messages (`decryptedMessageActionScreenshotMessages`);
    /// both sides keep a service message saying so.
    public func notifyScreenshot(of ids: [MessageId], chatId: Int32) async throws(SecretChatManagerError) {
        let now = clock()
        let accountPeerId = self.accountPeerId
        try await sendAction(chatId: chatId) { tx, record in
            let randomIds = try ids.compactMap { try tx.getMessage($0)?.globallyUniqueId }
            _ = try tx.addMessages([
                StoreMessage(
                    id: .partial(record.peerId, Namespaces.Message.local),
                    globallyUniqueId: Int64(bitPattern: SecureRandom.uint64()),
                    timestamp: now, authorId: accountPeerId, text: "",
                    media: [TelegramMediaAction(action: .historyScreenshot)])
            ])
            return .decryptedMessageActionScreenshotMessages(.init(randomIds: randomIds))
        }
    }

    /// A user-level action as the chat's next message: `change` alters the stored chat and names the action, then it
    /// is sealed and queued, all in one transaction; then the outbox is sent.
    private func sendAction(
        chatId: Int32, _ change: (Transaction, inout SecretChatRecord) throws -> SecretApi.DecryptedMessageAction
    ) async throws(SecretChatManagerError) {
        let now = clock()
        let policy = rekeyPolicy
        try write { tx in
            guard var record = try SecretChatStorage.record(chatId, tx: tx) else {
                throw SecretChatManagerError.unknownChat(chatId)
            }
            guard var session = record.session else { throw SecretChatManagerError.notActive(chatId) }
            let action = try change(tx, &record)
            let outgoing = session.send(
                .decryptedMessageService(.init(randomId: Int64(bitPattern: SecureRandom.uint64()), action: action)),
                now: now,
                policy: policy)
            try Self.queue(outgoing, chatId: chatId, record: &record, tx: tx)
            record.phase = .active(session)
            try SecretChatStorage.store(record, tx: tx)
        }
        await flush(chatId: chatId)
    }

    // MARK: Typing and the queue

    /// Tells the other side this user is typing (`messages.setEncryptedTyping`; the relay passes it on, unstored).
    public func sendTyping(chatId: Int32) async throws(SecretChatManagerError) {
        guard let record = try record(chatId: chatId) else { throw .unknownChat(chatId) }
        do {
            _ = try await network.request(
                Api.functions.messages.setEncryptedTyping(
                    peer: .inputEncryptedChat(.init(chatId: chatId, accessHash: record.accessHash)), typing: true))
        } catch { throw .network("\(error)") }
    }

    /// How long a typing notice lasts without another (a typing client repeats it every few seconds;
    /// core.telegram.org `messages.setTyping`, `messages.setEncryptedTyping`).
    public static let typingDuration: Double = 6
    private let typingUntil = Mutex<[Int32: Double]>([:])

    /// Whether the other side of chat `chatId` is typing now: an `updateEncryptedChatTyping` (or a
    /// `decryptedMessageActionTyping`) came in the last `typingDuration` seconds and no message since.
    public func isOtherSideTyping(chatId: Int32) -> Bool {
        let now = Date().timeIntervalSince1970
        return typingUntil.withLock { ($0[chatId] ?? 0) > now }
    }

    /// The chats whose other side is typing now.
    public var typingChats: [Int32] {
        let now = Date().timeIntervalSince1970
        return typingUntil.withLock { state in state.filter { $0.value > now }.map(\.key).sorted() }
    }

    func noteTyping(chatId: Int32, active: Bool) {
        let until = Date().timeIntervalSince1970 + Self.typingDuration
        typingUntil.withLock { state in state[chatId] = active ? until : nil }
    }

    private let acknowledged = Mutex<(pending: Int32, sent: Int32, running: Bool)>((0, 0, false))

    /// `messages.receivedQueue(max_qts)` once the transaction that stored the messages up to `qts` has committed, so
    /// the server can forget them (it keeps them, bounded, until then). One call in flight; it repeats while more
    /// arrived meanwhile.
    func acknowledge(qts: Int32) {
        let start = acknowledged.withLock { state -> Bool in
            state.pending = max(state.pending, qts)
            guard !state.running else { return false }
            state.running = true
            return true
        }
        guard start else { return }
        Task.detached { [weak self] in
            guard let self else { return }
            while true {
                _ = try? self.read { _ in }  // waits for the applying transaction to commit
                let qts = self.acknowledged.withLock { $0.pending }
                _ = try? await self.network.request(Api.functions.messages.receivedQueue(maxQts: qts))
                let done = self.acknowledged.withLock { state -> Bool in
                    state.sent = max(state.sent, qts)
                    if state.pending > state.sent { return false }
                    state.running = false
                    return true
                }
                if done { break }
            }
        }
    }

    /// The highest qts acknowledged to the server (tests).
    public var acknowledgedQts: Int32 { acknowledged.withLock { $0.sent } }

    // MARK: Self-destruct

    /// This side has read the chat (it was shown): `messages.readEncryptedHistory` tells the other side, whose
    /// timers start, and the timers of the messages received here start now.
    public func markRead(chatId: Int32) async throws(SecretChatManagerError) {
        guard let record = try record(chatId: chatId) else { throw .unknownChat(chatId) }
        let now = clock()
        do {
            _ = try await network.request(
                Api.functions.messages.readEncryptedHistory(
                    peer: .inputEncryptedChat(.init(chatId: chatId, accessHash: record.accessHash)), maxDate: now))
        } catch { throw .network("\(error)") }
        try write { tx in
            guard var stored = try SecretChatStorage.record(chatId, tx: tx), var timers = stored.timers else { return }
            timers.readIncoming(now: timerStart())
            stored.timers = timers
            try SecretChatStorage.store(stored, tx: tx)
        }
        scheduleTimers()
    }

    private let timerTask = Mutex<Task<Void, Never>?>(nil)

    /// When a timer starting now starts, in whole seconds rounded up (the clock is whole seconds, rounded down), so
    /// that a message never goes before its time.
    private func timerStart() -> Int32 { clock() + 1 }

    /// Sleeps until the earliest self-destruct deadline of any chat, deletes what is due (the messages and their
    /// timers in one transaction) and sleeps again; called on start, on reads and after each expiry.
    public func scheduleTimers() {
        guard
            let deadline =
                (try? read({ tx in
                    try SecretChatStorage.chatIds(tx: tx).compactMap {
                        try SecretChatStorage.record($0, tx: tx)?.timers?.nextDeadline
                    }.min()
                })) ?? nil
        else { return }
        let task = Task.detached { [weak self] in
            let wait = Double(deadline) - Date().timeIntervalSince1970
            if wait > 0 { try? await Task.sleep(nanoseconds: UInt64(wait * 1e9)) }
            guard !Task.isCancelled, let self else { return }
            self.expire()
            self.scheduleTimers()
        }
        timerTask.withLock { previous in
            previous?.cancel()
            previous = task
        }
    }

    /// Deletes every message whose time has come, in every chat.
    func expire() {
        let now = clock()
        _ = try? write { tx in
            for id in try SecretChatStorage.chatIds(tx: tx) {
                guard var record = try SecretChatStorage.record(id, tx: tx), var timers = record.timers else {
                    continue
                }
                let due = timers.removeDue(now: now)
                guard !due.isEmpty else { continue }
                try tx.deleteMessages(due.map { MessageId(peerId: record.peerId, namespace: $0.namespace, id: $0.id) })
                record.timers = timers
                try SecretChatStorage.store(record, tx: tx)
            }
        }
    }

    /// Stops the timers (the account shuts down; they resume from Postbox on the next start).
    public func stop() {
        timerTask.withLock { task in
            task?.cancel()
            task = nil
        }
    }

    // MARK: Applying updates (inside the batch's transaction)

    /// Applies a secret-chat update inside the update batch's transaction; returns the chat to flush afterwards.
    func apply(_ update: Api.Update, transaction tx: Transaction) throws -> Int32? {
        switch update {
        case .updateEncryption(let value): return try applyEncryption(value.chat, tx: tx)
        case .updateNewEncryptedMessage(let value):
            acknowledge(qts: value.qts)
            return try receive(value.message, tx: tx)
        case .updateEncryptedChatTyping(let value):
            noteTyping(chatId: value.chatId, active: true)
            return nil
        case .updateEncryptedMessagesRead(let value):
            // The other side read up to max_date: timers of our messages sent until then start.
            guard var record = try SecretChatStorage.record(value.chatId, tx: tx), var timers = record.timers else {
                return nil
            }
            timers.readOutgoing(maxDate: value.maxDate, now: timerStart())
            record.timers = timers
            try SecretChatStorage.store(record, tx: tx)
            Task.detached { [weak self] in self?.scheduleTimers() }
            return nil
        default: return nil
        }
    }

    func applyEncryption(_ chat: Api.EncryptedChat, tx: Transaction) throws -> Int32? {
        switch chat {
        case .encryptedChatRequested(let requested):
            guard try SecretChatStorage.record(requested.id, tx: tx) == nil else { return nil }
            try SecretChatStorage.store(
                SecretChatRecord(
                    chatId: requested.id, accessHash: requested.accessHash, peerUserId: requested.adminId,
                    phase: .incoming(gA: requested.gA)),
                tx: tx)
            return nil
        case .encryptedChat(let accepted):
            guard var record = try SecretChatStorage.record(accepted.id, tx: tx),
                case .requested(let request) = record.phase
            else { return nil }
            do {
                let established = try request.complete(gB: accepted.gAOrB, fingerprint: accepted.keyFingerprint)
                record.phase = .active(SecretChatSession(established: established, now: clock()))
            } catch {
                // A g_b out of range or a fingerprint that differs: someone in the middle. The chat is not used.
                record.phase = .ended("key exchange refused: \(error)")
            }
            try SecretChatStorage.store(record, tx: tx)
            return accepted.id
        case .encryptedChatDiscarded(let discarded):
            guard var record = try SecretChatStorage.record(discarded.id, tx: tx) else { return nil }
            record.phase = .ended("discarded by the other side")
            record.outbox.removeAll()
            try SecretChatStorage.store(record, tx: tx)
            return nil
        case .encryptedChatWaiting, .encryptedChatEmpty:
            return nil
        }
    }

    /// Opens one encrypted message with the chat's session and applies what it led to: messages stored (with their
    /// entities, reply and media), deletions, screenshot notices, protocol answers and resends queued, the session
    /// written back — all in this transaction.
    func receive(_ message: Api.EncryptedMessage, tx: Transaction) throws -> Int32? {
        let (chatId, bytes, date): (Int32, [UInt8], Int32)
        switch message {
        case .encryptedMessage(let value): (chatId, bytes, date) = (value.chatId, value.bytes, value.date)
        case .encryptedMessageService(let value): (chatId, bytes, date) = (value.chatId, value.bytes, value.date)
        }
        guard var record = try SecretChatStorage.record(chatId, tx: tx), var session = record.session else {
            return nil
        }
        let now = max(date, clock())
        var stored: [(message: StoreMessage, ttl: Int32)] = []
        var queued: [SecretChatOutgoing] = []
        let heldBefore = Set(session.held.keys)
        let events = session.receive(bytes, now: now, policy: rekeyPolicy)
        // The encrypted file this transmission carries belongs to its own message: the first one shown when it was in
        // order, or the one it left held behind a gap — kept now, so the message finds it whenever it is released.
        if case .encryptedMessage(let value) = message, case .encryptedFile(let file) = value.file {
            var carrier: SecretApi.DecryptedMessage?
            if case .message(let first, _)? = events.first { carrier = first }
            if let raw = Set(session.held.keys).subtracting(heldBefore).first {
                carrier = session.heldMessage(raw: raw)
            }
            if case .decryptedMessage(let carried)? = carrier,
                let details = SecretChatMediaMapping.fileDetails(carried.media),
                try tx.keychainEntryForKey(SecretChatStorage.file(chatId, randomId: carried.randomId)) == nil
            {
                let received = SecretChatReceivedFile(
                    id: file.id, accessHash: file.accessHash, dc: file.dcId, size: details.size,
                    serverFingerprint: file.keyFingerprint, key: details.key, name: details.name,
                    mimeType: details.mimeType)
                try tx.setKeychainEntry(
                    Array(try JSONEncoder().encode(received)),
                    forKey: SecretChatStorage.file(chatId, randomId: carried.randomId))
            }
        }
        for event in events {
            switch event {
            case .message(.decryptedMessage(let value), _):
                var attributes: [MessageAttribute] = []
                let entities = SecretChatEntities.messageEntities(value.entities, text: value.message)
                if !entities.isEmpty { attributes.append(TextEntitiesMessageAttribute(entities: entities)) }
                if let reply = value.replyToRandomId,
                    let replied = try tx.messageId(peerId: record.peerId, globallyUniqueId: reply)
                {
                    attributes.append(ReplyMessageAttribute(messageId: replied))
                }
                stored.append(
                    (
                        StoreMessage(
                            id: .partial(record.peerId, Namespaces.Message.secretIncoming),
                            globallyUniqueId: value.randomId,
                            timestamp: date, flags: [.incoming], authorId: .user(record.peerUserId),
                            text: Self.text(of: value), attributes: attributes,
                            media: SecretChatMediaMapping.storedMedia(
                                value.media, chatId: chatId, randomId: value.randomId)),
                        value.ttl
                    ))
            case .message(let decrypted, _):
                guard let action = Self.action(of: decrypted) else { break }
                switch action {
                case .decryptedMessageActionSetMessageTTL(let value):
                    record.messageTTL = value.ttlSeconds > 0 ? value.ttlSeconds : nil
                case .decryptedMessageActionScreenshotMessages:
                    stored.append(
                        (
                            StoreMessage(
                                id: .partial(record.peerId, Namespaces.Message.secretIncoming),
                                globallyUniqueId: Self.randomId(of: decrypted), timestamp: date, flags: [.incoming],
                                authorId: .user(record.peerUserId), text: "",
                                media: [TelegramMediaAction(action: .historyScreenshot)]),
                            0
                        ))
                case .decryptedMessageActionDeleteMessages(let value):
                    let doomed = Set(value.randomIds)
                    stored.removeAll { doomed.contains($0.message.globallyUniqueId ?? 0) }
                    try Self.deleteMessages(randomIds: value.randomIds, record: &record, tx: tx)
                case .decryptedMessageActionFlushHistory:
                    stored.removeAll()
                    try Self.deleteHistory(record: &record, tx: tx)
                case .decryptedMessageActionTyping(let value):
                    if case .sendMessageCancelAction = value.action {
                        noteTyping(chatId: chatId, active: false)
                    } else {
                        noteTyping(chatId: chatId, active: true)
                    }
                default:
                    break  // read receipts travel as readEncryptedHistory
                }
            case .send(let outgoing):
                queued.append(outgoing)
            case .resend(let range):
                resent.withLock { $0 += range.count }
                for raw in range {
                    guard let payload = try tx.keychainEntryForKey(SecretChatStorage.payload(chatId, raw: raw)) else {
                        continue
                    }
                    record.outbox.append(
                        SecretChatOutbound(
                            transportRandomId: Int64(bitPattern: SecureRandom.uint64()), bytes: session.reseal(payload),
                            isService: true))
                }
            case .dropped(let drop):
                drops.withLock { list in
                    list.append(drop)
                    if list.count > 100 { list.removeFirst(list.count - 100) }
                }
            case .keyChanged:
                break
            case .terminated(let reason):
                record.phase = .ended(reason)
            }
        }
        if !stored.isEmpty { noteTyping(chatId: chatId, active: false) }  // a message ends the other side's typing
        try Self.queue(queued, chatId: chatId, record: &record, tx: tx)
        if case .active = record.phase { record.phase = .active(session) }
        try SecretChatStorage.store(record, tx: tx)
        if !stored.isEmpty {
            let fresh = try stored.filter { item in
                try tx.messageId(peerId: record.peerId, globallyUniqueId: item.message.globallyUniqueId ?? 0) == nil
            }
            let ids = try tx.addMessages(fresh.map(\.message))
            for (id, item) in zip(ids, fresh) where item.ttl > 0 {
                var timers = record.timers ?? SecretChatTimers()
                timers.add(
                    namespace: id.namespace, id: id.id, incoming: true, date: item.message.timestamp, ttl: item.ttl)
                record.timers = timers
            }
            try SecretChatStorage.store(record, tx: tx)
        }
        return record.outbox.isEmpty ? nil : chatId
    }

    /// The action of a user-level service message, whichever layer's constructor carries it.
    static func action(of message: SecretApi.DecryptedMessage) -> SecretApi.DecryptedMessageAction? {
        switch message {
        case .decryptedMessageService(let service): return service.action
        case .decryptedMessageService8(let service): return service.action
        default: return nil
        }
    }

    static func randomId(of message: SecretApi.DecryptedMessage) -> Int64 {
        switch message {
        case .decryptedMessageService(let value): return value.randomId
        case .decryptedMessageService8(let value): return value.randomId
        case .decryptedMessage(let value): return value.randomId
        case .decryptedMessage8(let value): return value.randomId
        case .decryptedMessage23(let value): return value.randomId
        case .decryptedMessage46(let value): return value.randomId
        }
    }

    /// Deletes the chat's messages with these random_ids, their timers and kept file locations.
    static func deleteMessages(randomIds: [Int64], record: inout SecretChatRecord, tx: Transaction) throws {
        var ids: [MessageId] = []
        for randomId in randomIds {
            if let id = try tx.messageId(peerId: record.peerId, globallyUniqueId: randomId) { ids.append(id) }
            try tx.removeKeychainEntry(forKey: SecretChatStorage.file(record.chatId, randomId: randomId))
        }
        try tx.deleteMessages(ids)
        if var timers = record.timers {
            timers.remove(ids.map { (namespace: $0.namespace, id: $0.id) })
            record.timers = timers
        }
    }

    /// Deletes every message of the chat (`decryptedMessageActionFlushHistory`), with their timers.
    static func deleteHistory(record: inout SecretChatRecord, tx: Transaction) throws {
        var randomIds: [Int64] = []
        while true {
            let batch = try tx.earlierMessages(peerId: record.peerId, before: nil, count: 256)
            guard !batch.isEmpty else { break }
            randomIds += batch.compactMap(\.globallyUniqueId)
            try tx.deleteMessages(batch.map(\.id))
        }
        for randomId in randomIds {
            try tx.removeKeychainEntry(forKey: SecretChatStorage.file(record.chatId, randomId: randomId))
        }
        record.timers = nil
    }

    // MARK: Helpers

    private func read<T>(_ body: (Transaction) throws -> T) throws(SecretChatManagerError) -> T {
        do { return try postbox.transactionSync(body) } catch let error as SecretChatManagerError { throw error } catch
        {
            throw .storage("\(error)")
        }
    }

    private func write<T>(_ body: (Transaction) throws -> T) throws(SecretChatManagerError) -> T {
        try read(body)
    }
}
