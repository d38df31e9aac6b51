import CryptoUtils
import ServerStore
import TLRuntime
import TelegramApi

/// The secret-chat relay (core.telegram.org "End-to-End Encryption, Secret Chats"): the DH group, the chat's
/// request, acceptance and discarding as `updateEncryption`, encrypted messages and files passed on as given in the
/// other person's qts sequence (`updateNewEncryptedMessage`, also through `updates.getDifference`), reads and typing.
/// The server stores g_a, g_b and the fingerprint the clients announce; it never sees a key. As in Telegram, a chat
/// belongs to one device of each side — the authorization that requested it and the one that accepted it: only those
/// get its updates and may send in it (a request goes to every device of the asked account until one accepts).
extension ServerBackend {
    /// Bounds on what one client can make the server hold.
    enum SecretChatLimits {
        /// Open (not discarded) secret chats per account.
        static let chatsPerAccount: Int64 = 500
        /// Bytes of one encrypted message (a `decryptedMessageLayer` with a 4,096-character text and padding
        /// fits many times over).
        static let messageBytes = 64 * 1024
        /// qts updates waiting for one account that has not acknowledged them (`messages.receivedQueue`);
        /// past it, sending to that account answers `ENCRYPTION_QUEUE_FULL`.
        static let pendingQts: Int64 = 100_000
        /// g_a / g_b are 256 bytes.
        static let publicValueBytes = 256
    }

    /// `messages.getDhConfig`: Telegram's group; `random_length` (≤ 256) bytes of fresh randomness every time, the
    /// group itself only when the client's version is not the current one.
    func getDhConfig(_ call: Api.functions.messages.getDhConfig) throws -> Api.messages.DhConfig {
        guard call.randomLength >= 0, call.randomLength <= 256 else {
            throw APIError.badRequest("RANDOM_LENGTH_INVALID")
        }
        let random = SecureRandom.bytes(Int(call.randomLength))
        if call.version == Self.dhConfigVersion { return .dhConfigNotModified(.init(random: random)) }
        return .dhConfig(
            .init(
                g: DiffieHellman.telegramGenerator, p: DiffieHellman.telegramPrime, version: Self.dhConfigVersion,
                random: random))
    }

    static let dhConfigVersion: Int32 = 1

    func requestEncryption(_ call: Api.functions.messages.requestEncryption, caller: Caller) throws -> Api.EncryptedChat
    {
        guard call.gA.count == SecretChatLimits.publicValueBytes else { throw APIError.badRequest("DH_G_A_INVALID") }
        let date = now
        var pushes: [Push] = []
        let chat = try store.write(
            { [self] tx throws -> EncryptedChatRecord in
                guard let user = try resolve(call.userId, caller: caller, tx: tx), user.id != caller.userId else {
                    throw APIError.userIdInvalid
                }
                guard try tx.openEncryptedChatCount(userId: caller.userId) < SecretChatLimits.chatsPerAccount else {
                    throw APIError.badRequest("ENCRYPTION_DECLINED")
                }
                let chat = EncryptedChatRecord(
                    id: Int64(Int32.max & Int32(truncatingIfNeeded: try tx.nextValue(of: "encrypted_chat") + 1000)),
                    accessHash: Self.randomId(), adminId: caller.userId, participantId: user.id, date: date,
                    gA: call.gA,
                    adminAuthKey: caller.authKeyId)
                try tx.insert(chat)
                pushes.append(try encryptionPush(chat, to: user.id, tx: tx))
                return chat
            }, then: { [self] _ in send(pushes, caller: caller) })
        return apiEncryptedChat(chat, viewer: caller.userId)
    }

    func acceptEncryption(_ call: Api.functions.messages.acceptEncryption, caller: Caller) throws -> Api.EncryptedChat {
        guard call.gB.count == SecretChatLimits.publicValueBytes else { throw APIError.badRequest("DH_G_B_INVALID") }
        var pushes: [Push] = []
        let chat = try store.write(
            { [self] tx throws -> EncryptedChatRecord in
                var chat = try encryptedChat(call.peer, caller: caller, tx: tx, state: nil)
                guard chat.participantId == caller.userId else { throw APIError.chatIdInvalid }
                switch chat.state {
                case .accepted: throw APIError.badRequest("ENCRYPTION_ALREADY_ACCEPTED")
                case .discarded: throw APIError.badRequest("ENCRYPTION_ALREADY_DECLINED")
                case .requested: break
                }
                chat.gB = call.gB
                chat.keyFingerprint = call.keyFingerprint
                chat.participantAuthKey = caller.authKeyId
                chat.state = .accepted
                chat.changed = now
                try tx.update(chat)
                pushes.append(try encryptionPush(chat, to: chat.adminId, tx: tx))
                return chat
            }, then: { [self] _ in send(pushes, caller: caller) })
        return apiEncryptedChat(chat, viewer: caller.userId)
    }

    func discardEncryption(_ call: Api.functions.messages.discardEncryption, caller: Caller) throws -> [UInt8] {
        var pushes: [Push] = []
        try store.write(
            { [self] tx throws in
                guard var chat = try tx.encryptedChat(id: Int64(call.chatId)),
                    chat.isHeld(by: caller.userId, authKeyId: caller.authKeyId)
                else { throw APIError.badRequest("CHAT_ID_INVALID") }
                guard chat.state != .discarded else { throw APIError.badRequest("ENCRYPTION_ALREADY_DECLINED") }
                chat.state = .discarded
                chat.historyDeleted = call.deleteHistory
                chat.changed = now
                try tx.update(chat)
                pushes.append(try encryptionPush(chat, to: chat.peer(of: caller.userId), tx: tx))
            }, then: { [self] _ in send(pushes, caller: caller) })
        return Reply.bool(true)
    }

    /// `sendEncrypted`, `sendEncryptedService` and `sendEncryptedFile`: the bytes go into the other person's qts
    /// sequence as they are; a `random_id` used before in the chat is not delivered twice.
    func sendEncrypted(
        peer: Api.InputEncryptedChat, randomId: Int64, data: [UInt8], service: Bool, file: Api.InputEncryptedFile?,
        caller: Caller
    ) throws -> Api.messages.SentEncryptedMessage {
        guard !data.isEmpty, data.count <= SecretChatLimits.messageBytes, data.count % 4 == 0 else {
            throw APIError.badRequest("DATA_INVALID")
        }
        try flood.chargeSending(1, userId: caller.userId, now: clock())
        let stored = try file.flatMap { try storeEncryptedFile($0, caller: caller) }
        let date = now
        var pushes: [Push] = []
        try store.write(
            { [self] tx throws in
                let chat = try encryptedChat(peer, caller: caller, tx: tx, state: .accepted)
                let recipient = chat.peer(of: caller.userId)
                guard try tx.pendingQtsCount(owner: recipient) < SecretChatLimits.pendingQts else {
                    throw APIError.badRequest("ENCRYPTION_QUEUE_FULL")
                }
                guard try tx.rememberEncrypted(randomId: randomId, chatId: chat.id) else { return }
                if let stored { try tx.insert(stored) }
                let apiFile = stored.map(apiEncryptedFile) ?? .encryptedFileEmpty
                let message: Api.EncryptedMessage =
                    service
                    ? .encryptedMessageService(
                        .init(randomId: randomId, chatId: Int32(chat.id), date: date, bytes: data))
                    : .encryptedMessage(
                        .init(randomId: randomId, chatId: Int32(chat.id), date: date, bytes: data, file: apiFile))
                var update: Api.Update = .updateEncryptedChatTyping(.init(chatId: 0))
                _ = try tx.appendQtsUpdate(owner: recipient, authKey: chat.device(of: recipient), date: date) { qts in
                    update = .updateNewEncryptedMessage(.init(message: message, qts: Int32(truncatingIfNeeded: qts)))
                    return update.serialized()
                }
                pushes.append(
                    Push(
                        authKeyIds: try devices(of: recipient, in: chat, tx: tx),
                        updates: .updates(.init(updates: [update], users: [], chats: [], date: date, seq: 0))))
            }, then: { [self] _ in send(pushes, caller: caller) })
        if let stored { return .sentEncryptedFile(.init(date: date, file: apiEncryptedFile(stored))) }
        return .sentEncryptedMessage(.init(date: date))
    }

    /// An uploaded encrypted file assembled into the vault as given (`inputEncryptedFileUploaded` /
    /// `…BigUploaded`), or one already stored (`inputEncryptedFile`, forwarded by id).
    func storeEncryptedFile(_ input: Api.InputEncryptedFile, caller: Caller) throws -> EncryptedFileRecord? {
        let (uploaded, fingerprint): (Api.InputFile, Int32)
        switch input {
        case .inputEncryptedFileEmpty: return nil
        case .inputEncryptedFile(let file):
            guard let record = try store.read({ tx in try tx.encryptedFile(id: file.id) }),
                record.accessHash == file.accessHash
            else {
                throw APIError.badRequest("FILE_ID_INVALID")
            }
            var copy = record
            copy.id = Self.randomId()
            return copy
        case .inputEncryptedFileUploaded(let file):
            uploaded = .inputFile(.init(id: file.id, parts: file.parts, name: "", md5Checksum: file.md5Checksum))
            fingerprint = file.keyFingerprint
        case .inputEncryptedFileBigUploaded(let file):
            uploaded = .inputFileBig(.init(id: file.id, parts: file.parts, name: ""))
            fingerprint = file.keyFingerprint
        }
        let (blob, _) = try assemble(uploaded, caller: caller)
        guard blob.size % 16 == 0 else { throw APIError.badRequest("FILE_PART_SIZE_INVALID") }
        return EncryptedFileRecord(
            id: Self.randomId(), accessHash: Self.randomId(), owner: caller.userId, dc: caller.dc, size: blob.size,
            sha256: blob.sha256, keyFingerprint: fingerprint, date: now)
    }

    func readEncryptedHistory(_ call: Api.functions.messages.readEncryptedHistory, caller: Caller) throws -> [UInt8] {
        let date = now
        var pushes: [Push] = []
        try store.write(
            { [self] tx throws in
                let chat = try encryptedChat(call.peer, caller: caller, tx: tx, state: .accepted)
                let update = Api.Update.updateEncryptedMessagesRead(
                    .init(chatId: Int32(chat.id), maxDate: call.maxDate, date: date))
                let other = chat.peer(of: caller.userId)
                pushes.append(
                    Push(
                        authKeyIds: try devices(of: other, in: chat, tx: tx),
                        updates: .updateShort(.init(update: update, date: date))))
            }, then: { [self] _ in send(pushes, caller: caller) })
        return Reply.bool(true)
    }

    func setEncryptedTyping(_ call: Api.functions.messages.setEncryptedTyping, caller: Caller) throws -> [UInt8] {
        let date = now
        var pushes: [Push] = []
        try store.write(
            { [self] tx throws in
                let chat = try encryptedChat(call.peer, caller: caller, tx: tx, state: .accepted)
                guard call.typing else { return }
                let update = Api.Update.updateEncryptedChatTyping(.init(chatId: Int32(chat.id)))
                pushes.append(
                    Push(
                        authKeyIds: try devices(of: chat.peer(of: caller.userId), in: chat, tx: tx),
                        updates: .updateShort(.init(update: update, date: date))))
            }, then: { [self] _ in send(pushes, caller: caller) })
        return Reply.bool(true)
    }

    /// `messages.receivedQueue`: what the client has up to `max_qts` is forgotten; answers the random_ids of
    /// nothing (the server keeps no per-device delivery state beyond the queue).
    func receivedQueue(_ call: Api.functions.messages.receivedQueue, caller: Caller) throws -> [UInt8] {
        try store.write { tx throws in _ = try tx.dropQtsUpdates(owner: caller.userId, through: Int64(call.maxQts)) }
        var writer = TLWriter()
        writer.writeUInt32(0x1cb5c415)  // vector, empty
        writer.writeInt32(0)
        return writer.takeBytes()
    }

    // MARK: Helpers

    func encryptedChat(
        _ input: Api.InputEncryptedChat, caller: Caller, tx: StoreTransaction, state: EncryptedChatRecord.State?
    )
        throws -> EncryptedChatRecord
    {
        guard case .inputEncryptedChat(let value) = input, let chat = try tx.encryptedChat(id: Int64(value.chatId)),
            chat.accessHash == value.accessHash, chat.isHeld(by: caller.userId, authKeyId: caller.authKeyId)
        else { throw APIError.chatIdInvalid }
        if let state, chat.state != state {
            throw APIError.badRequest(chat.state == .discarded ? "ENCRYPTION_DECLINED" : "CHAT_ID_INVALID")
        }
        return chat
    }

    /// The chat as `viewer` sees it (core.telegram.org constructor pages): the requester waits, the other is asked
    /// with g_a; once accepted each sees the other's value (g_b for the admin, g_a for the participant).
    func apiEncryptedChat(_ chat: EncryptedChatRecord, viewer: Int64) -> Api.EncryptedChat {
        let id = Int32(truncatingIfNeeded: chat.id)
        switch chat.state {
        case .discarded:
            return .encryptedChatDiscarded(.init(historyDeleted: chat.historyDeleted, id: id))
        case .requested:
            if viewer == chat.adminId {
                return .encryptedChatWaiting(
                    .init(
                        id: id, accessHash: chat.accessHash, date: chat.date, adminId: chat.adminId,
                        participantId: chat.participantId))
            }
            return .encryptedChatRequested(
                .init(
                    id: id, accessHash: chat.accessHash, date: chat.date, adminId: chat.adminId,
                    participantId: chat.participantId, gA: chat.gA))
        case .accepted:
            let value = viewer == chat.adminId ? (chat.gB ?? []) : chat.gA
            return .encryptedChat(
                .init(
                    id: id, accessHash: chat.accessHash, date: chat.date, adminId: chat.adminId,
                    participantId: chat.participantId,
                    gAOrB: value, keyFingerprint: chat.keyFingerprint ?? 0))
        }
    }

    func apiEncryptedFile(_ file: EncryptedFileRecord) -> Api.EncryptedFile {
        .encryptedFile(
            .init(
                id: file.id, accessHash: file.accessHash, size: file.size, dcId: file.dc,
                keyFingerprint: file.keyFingerprint))
    }

    /// `updateEncryption` for `owner`, in `updates` with the chat's people (the requester's user comes along so the
    /// other side can show who asks).
    func encryptionPush(_ chat: EncryptedChatRecord, to owner: Int64, tx: StoreTransaction) throws -> Push {
        let users = try tx.users(ids: [chat.adminId, chat.participantId]).sorted { $0.id < $1.id }.map {
            try apiUser($0, viewer: owner, tx: tx)
        }
        let update = Api.Update.updateEncryption(.init(chat: apiEncryptedChat(chat, viewer: owner), date: now))
        return Push(
            authKeyIds: try devices(of: owner, in: chat, tx: tx),
            updates: .updates(.init(updates: [update], users: users, chats: [], date: now, seq: 0)))
    }

    /// The devices of `userId` that hold `chat`: the one it is bound to, or every one while none is.
    func devices(of userId: Int64, in chat: EncryptedChatRecord, tx: StoreTransaction) throws -> [Int64] {
        if let device = chat.device(of: userId) { return [device] }
        return try authKeys(of: userId, tx: tx)
    }
}
