import Foundation
import MTProtoServer
import ServerAPI
import TLRuntime
import TelegramApi
import Testing

/// The secret-chat relay through `ServerAPIHandler`: the chat's life as `updateEncryption`, encrypted messages and
/// files in the recipient's qts sequence (pushed and through `updates.getDifference`), and the bounds.
extension ServerBackendTests {
    struct SecretPair {
        let harness: Harness
        let ann: (id: Int64, accessHash: Int64)
        let ben: (id: Int64, accessHash: Int64)
        let chat: Api.InputEncryptedChat
        let chatId: Int32
    }

    static func gValue(_ byte: UInt8) -> [UInt8] { [UInt8](repeating: byte, count: 256) }

    /// Ann asks Ben for a secret chat and Ben accepts: what each sees on the way.
    func openSecretChat() async throws -> SecretPair {
        let harness = try Harness()
        let ann = try await harness.signUp("9996621001", name: "Ann", key: 101, dc: 2)
        let ben = try await harness.signUp("9996621002", name: "Ben", key: 102, dc: 2)
        let config = try await harness.result(
            Api.functions.messages.getDhConfig(version: 0, randomLength: 256), as: Api.messages.DhConfig.self, key: 101, dc: 2)
        guard case .dhConfig(let dh) = config else { throw Failure(response: .notImplemented) }
        #expect(dh.g == 3 && dh.p.count == 256 && dh.random.count == 256)
        let again = try await harness.result(
            Api.functions.messages.getDhConfig(version: dh.version, randomLength: 16), as: Api.messages.DhConfig.self, key: 101, dc: 2)
        guard case .dhConfigNotModified(let notModified) = again else { throw Failure(response: .notImplemented) }
        #expect(notModified.random.count == 16)

        let requested = try await harness.result(
            Api.functions.messages.requestEncryption(userId: .inputUser(.init(userId: ben.id, accessHash: ben.accessHash)), randomId: 7, gA: Self.gValue(0xa1)),
            as: Api.EncryptedChat.self, key: 101, dc: 2)
        guard case .encryptedChatWaiting(let waiting) = requested else { throw Failure(response: .notImplemented) }
        // Ben hears of it through the difference (the push may have found no session).
        let benDifference = try await harness.result(
            Api.functions.updates.getDifference(pts: 0, date: 0, qts: 0), as: Api.updates.Difference.self, key: 102, dc: 2)
        guard case .difference(let difference) = benDifference,
            case .updateEncryption(let update)? = difference.otherUpdates.first,
            case .encryptedChatRequested(let request) = update.chat
        else { throw Failure(response: .notImplemented) }
        #expect(request.gA == Self.gValue(0xa1) && request.adminId == ann.id && request.id == waiting.id)
        let chat = Api.InputEncryptedChat.inputEncryptedChat(.init(chatId: request.id, accessHash: request.accessHash))
        let accepted = try await harness.result(
            Api.functions.messages.acceptEncryption(peer: chat, gB: Self.gValue(0xb2), keyFingerprint: 0x1234),
            as: Api.EncryptedChat.self, key: 102, dc: 2)
        guard case .encryptedChat(let forBen) = accepted else { throw Failure(response: .notImplemented) }
        #expect(forBen.gAOrB == Self.gValue(0xa1) && forBen.keyFingerprint == 0x1234)
        let annDifference = try await harness.result(
            Api.functions.updates.getDifference(pts: 0, date: 0, qts: 0), as: Api.updates.Difference.self, key: 101, dc: 2)
        guard case .difference(let forAnnDifference) = annDifference,
            case .updateEncryption(let annUpdate)? = forAnnDifference.otherUpdates.first,
            case .encryptedChat(let forAnn) = annUpdate.chat
        else { throw Failure(response: .notImplemented) }
        #expect(forAnn.gAOrB == Self.gValue(0xb2) && forAnn.keyFingerprint == 0x1234)
        #expect(Self.error(await harness.call(Api.functions.messages.acceptEncryption(peer: chat, gB: Self.gValue(0xb2), keyFingerprint: 1), key: 102, dc: 2))
            == "ENCRYPTION_ALREADY_ACCEPTED")
        return SecretPair(harness: harness, ann: ann, ben: ben, chat: chat, chatId: request.id)
    }

    @Test func aSecretChatIsRequestedAcceptedAndCarriesBytesInTheQtsSequence() async throws {
        let pair = try await openSecretChat()
        let harness = pair.harness
        for index in 0..<3 {
            let data = [UInt8](repeating: UInt8(index), count: 64)
            let sent = try await harness.result(
                Api.functions.messages.sendEncrypted(peer: pair.chat, randomId: Int64(100 + index), data: data),
                as: Api.messages.SentEncryptedMessage.self, key: 101, dc: 2)
            guard case .sentEncryptedMessage = sent else { throw Failure(response: .notImplemented) }
        }
        // The same random_id again is not delivered twice.
        _ = try await harness.result(
            Api.functions.messages.sendEncrypted(peer: pair.chat, randomId: 100, data: [UInt8](repeating: 9, count: 64)),
            as: Api.messages.SentEncryptedMessage.self, key: 101, dc: 2)
        _ = try await harness.result(
            Api.functions.messages.sendEncryptedService(peer: pair.chat, randomId: 200, data: [UInt8](repeating: 7, count: 32)),
            as: Api.messages.SentEncryptedMessage.self, key: 101, dc: 2)
        let state = try await harness.result(Api.functions.updates.getState(), as: Api.updates.State.self, key: 102, dc: 2)
        guard case .state(let benState) = state else { throw Failure(response: .notImplemented) }
        #expect(benState.qts == 4)
        let difference = try await harness.result(
            Api.functions.updates.getDifference(pts: benState.pts, date: benState.date, qts: 1), as: Api.updates.Difference.self, key: 102, dc: 2)
        guard case .difference(let value) = difference else { throw Failure(response: .notImplemented) }
        let bytes: [[UInt8]] = value.newEncryptedMessages.map {
            switch $0 {
            case .encryptedMessage(let m): return m.bytes
            case .encryptedMessageService(let m): return m.bytes
            }
        }
        #expect(bytes == [[UInt8](repeating: 1, count: 64), [UInt8](repeating: 2, count: 64), [UInt8](repeating: 7, count: 32)])
        // Acknowledged messages are forgotten.
        _ = await harness.call(Api.functions.messages.receivedQueue(maxQts: 4), key: 102, dc: 2)
        let later = try await harness.result(
            Api.functions.updates.getDifference(pts: benState.pts, date: benState.date, qts: 0), as: Api.updates.Difference.self, key: 102, dc: 2)
        if case .difference(let value) = later { #expect(value.newEncryptedMessages.isEmpty) }
        // Reads and typing go to the other side only; both are fine to call.
        #expect(await harness.call(Api.functions.messages.readEncryptedHistory(peer: pair.chat, maxDate: 10), key: 102, dc: 2) == .result([0xb5, 0x75, 0x72, 0x99]))
        #expect(await harness.call(Api.functions.messages.setEncryptedTyping(peer: pair.chat, typing: true), key: 101, dc: 2) == .result([0xb5, 0x75, 0x72, 0x99]))
    }

    @Test func theRelayRefusesWhatItShouldNotCarry() async throws {
        let pair = try await openSecretChat()
        let harness = pair.harness
        let carol = try await harness.signUp("9996621003", name: "Carol", key: 103, dc: 2)
        _ = carol
        // Not a member, a wrong access hash, bad sizes.
        #expect(Self.error(await harness.call(Api.functions.messages.sendEncrypted(peer: pair.chat, randomId: 1, data: [UInt8](repeating: 1, count: 32)), key: 103, dc: 2)) == "CHAT_ID_INVALID")
        let wrongHash = Api.InputEncryptedChat.inputEncryptedChat(.init(chatId: pair.chatId, accessHash: 1))
        #expect(Self.error(await harness.call(Api.functions.messages.sendEncrypted(peer: wrongHash, randomId: 1, data: [UInt8](repeating: 1, count: 32)), key: 101, dc: 2)) == "CHAT_ID_INVALID")
        #expect(Self.error(await harness.call(Api.functions.messages.sendEncrypted(peer: pair.chat, randomId: 1, data: []), key: 101, dc: 2)) == "DATA_INVALID")
        #expect(Self.error(await harness.call(Api.functions.messages.sendEncrypted(peer: pair.chat, randomId: 1, data: [UInt8](repeating: 1, count: 64 * 1024 + 4)), key: 101, dc: 2)) == "DATA_INVALID")
        #expect(Self.error(await harness.call(Api.functions.messages.requestEncryption(userId: .inputUser(.init(userId: pair.ben.id, accessHash: pair.ben.accessHash)), randomId: 1, gA: [1, 2]), key: 101, dc: 2)) == "DH_G_A_INVALID")
        #expect(Self.error(await harness.call(Api.functions.messages.getDhConfig(version: 0, randomLength: 257), key: 101, dc: 2)) == "RANDOM_LENGTH_INVALID")
        // Discarded: nothing more goes through, and the other side hears of it.
        #expect(await harness.call(Api.functions.messages.discardEncryption(deleteHistory: true, chatId: pair.chatId), key: 102, dc: 2) == .result([0xb5, 0x75, 0x72, 0x99]))
        #expect(Self.error(await harness.call(Api.functions.messages.sendEncrypted(peer: pair.chat, randomId: 2, data: [UInt8](repeating: 1, count: 32)), key: 101, dc: 2)) == "ENCRYPTION_DECLINED")
        let difference = try await harness.result(
            Api.functions.updates.getDifference(pts: 0, date: 0, qts: 0), as: Api.updates.Difference.self, key: 101, dc: 2)
        guard case .difference(let value) = difference, case .updateEncryption(let update)? = value.otherUpdates.first,
            case .encryptedChatDiscarded(let discarded) = update.chat
        else { throw Failure(response: .notImplemented) }
        #expect(discarded.historyDeleted)
    }

    @Test func anEncryptedFileIsStoredAsGivenAndDownloadedByTheOtherSide() async throws {
        let pair = try await openSecretChat()
        let harness = pair.harness
        let content = (0..<(3 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        #expect(await harness.call(Api.functions.upload.saveFilePart(fileId: 55, filePart: 0, bytes: Array(content[0..<1024])), key: 101, dc: 2) == .result([0xb5, 0x75, 0x72, 0x99]))
        _ = await harness.call(Api.functions.upload.saveFilePart(fileId: 55, filePart: 1, bytes: Array(content[1024..<2048])), key: 101, dc: 2)
        _ = await harness.call(Api.functions.upload.saveFilePart(fileId: 55, filePart: 2, bytes: Array(content[2048...])), key: 101, dc: 2)
        let sent = try await harness.result(
            Api.functions.messages.sendEncryptedFile(
                peer: pair.chat, randomId: 300, data: [UInt8](repeating: 3, count: 48),
                file: .inputEncryptedFileUploaded(.init(id: 55, parts: 3, md5Checksum: "", keyFingerprint: 0x0abc))),
            as: Api.messages.SentEncryptedMessage.self, key: 101, dc: 2)
        guard case .sentEncryptedFile(let result) = sent, case .encryptedFile(let file) = result.file else {
            throw Failure(response: .notImplemented)
        }
        #expect(file.size == 3 * 1024 && file.keyFingerprint == 0x0abc)
        let difference = try await harness.result(
            Api.functions.updates.getDifference(pts: 0, date: 0, qts: 0), as: Api.updates.Difference.self, key: 102, dc: 2)
        guard case .difference(let value) = difference, case .encryptedMessage(let message)? = value.newEncryptedMessages.first,
            case .encryptedFile(let received) = message.file
        else { throw Failure(response: .notImplemented) }
        #expect(received.id == file.id)
        let downloaded = try await harness.result(
            Api.functions.upload.getFile(location: .inputEncryptedFileLocation(.init(id: received.id, accessHash: received.accessHash)), offset: 0, limit: 4096),
            as: Api.upload.File.self, key: 102, dc: 2)
        guard case .file(let body) = downloaded else { throw Failure(response: .notImplemented) }
        #expect(body.bytes == content)
    }

    /// A secret chat lives on one device of each side: Ben signed in on a second device (key 103) saw the request
    /// like his first, but once the first accepted, the second gets none of the chat's messages (pushed or through the
    /// difference) and may not send, read, type or discard in it.
    @Test func aSecretChatBelongsToTheDevicesThatRequestedAndAcceptedIt() async throws {
        let harness = try Harness()
        _ = try await harness.signUp("9996621011", name: "Ann", key: 101, dc: 2)
        let ben = try await harness.signUp("9996621012", name: "Ben", key: 102, dc: 2)
        let sent = try await harness.result(
            Api.functions.auth.sendCode(phoneNumber: "9996621012", apiId: 1, apiHash: "", settings: .codeSettings(.init())),
            as: Api.auth.SentCode.self, key: 103, dc: 2)
        guard case .sentCode(let code) = sent else { throw Failure(response: .notImplemented) }
        let second = try await harness.result(
            Api.functions.auth.signIn(phoneNumber: "9996621012", phoneCodeHash: code.phoneCodeHash, phoneCode: "22222"),
            as: Api.auth.Authorization.self, key: 103, dc: 2)
        guard case .authorization = second else { throw Failure(response: .notImplemented) }

        let requested = try await harness.result(
            Api.functions.messages.requestEncryption(
                userId: .inputUser(.init(userId: ben.id, accessHash: ben.accessHash)), randomId: 8, gA: Self.gValue(0xa1)),
            as: Api.EncryptedChat.self, key: 101, dc: 2)
        guard case .encryptedChatWaiting(let waiting) = requested else { throw Failure(response: .notImplemented) }
        let chat = Api.InputEncryptedChat.inputEncryptedChat(.init(chatId: waiting.id, accessHash: waiting.accessHash))
        func encryption(key: Int64) async throws -> [Api.EncryptedChat] {
            let difference = try await harness.result(
                Api.functions.updates.getDifference(pts: 0, date: 0, qts: 0), as: Api.updates.Difference.self, key: key, dc: 2)
            guard case .difference(let value) = difference else { return [] }
            return value.otherUpdates.compactMap { if case .updateEncryption(let update) = $0 { update.chat } else { nil } }
        }
        // Both of Ben's devices are asked.
        for key: Int64 in [102, 103] {
            guard case .encryptedChatRequested? = try await encryption(key: key).first else {
                Issue.record("device \(key) was not asked")
                return
            }
        }
        _ = try await harness.result(
            Api.functions.messages.acceptEncryption(peer: chat, gB: Self.gValue(0xb2), keyFingerprint: 0x42),
            as: Api.EncryptedChat.self, key: 102, dc: 2)
        #expect(try await encryption(key: 103).isEmpty, "the chat is the first device's now")
        guard case .encryptedChat? = try await encryption(key: 102).first else {
            Issue.record("the accepting device lost the chat")
            return
        }
        // The second device can neither take it nor use it.
        for function in [
            Api.functions.messages.acceptEncryption(peer: chat, gB: Self.gValue(0xb3), keyFingerprint: 1) as any TLFunction,
            Api.functions.messages.sendEncrypted(peer: chat, randomId: 1, data: [UInt8](repeating: 1, count: 32)),
            Api.functions.messages.readEncryptedHistory(peer: chat, maxDate: 1),
            Api.functions.messages.setEncryptedTyping(peer: chat, typing: true),
            Api.functions.messages.discardEncryption(chatId: waiting.id),
        ] {
            #expect(Self.error(await harness.call(function, key: 103, dc: 2)) == "CHAT_ID_INVALID", "\(function)")
        }
        // Ann's message reaches the accepting device only; a device of Ann's that did not ask cannot send either.
        _ = try await harness.result(
            Api.functions.messages.sendEncrypted(peer: chat, randomId: 2, data: [UInt8](repeating: 2, count: 32)),
            as: Api.messages.SentEncryptedMessage.self, key: 101, dc: 2)
        func encrypted(key: Int64) async throws -> Int {
            let difference = try await harness.result(
                Api.functions.updates.getDifference(pts: 0, date: 0, qts: 0), as: Api.updates.Difference.self, key: key, dc: 2)
            guard case .difference(let value) = difference else { return 0 }
            return value.newEncryptedMessages.count
        }
        #expect(try await encrypted(key: 102) == 1)
        #expect(try await encrypted(key: 103) == 0)
        _ = try await harness.result(
            Api.functions.messages.sendEncrypted(peer: chat, randomId: 3, data: [UInt8](repeating: 3, count: 32)),
            as: Api.messages.SentEncryptedMessage.self, key: 102, dc: 2)
    }
}
