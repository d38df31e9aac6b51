// Secret-chat media: encrypting and uploading photos, voice notes and documents, and downloading received files.

import AccountNetworking
import CryptoUtils
import Foundation
import MediaBox
import Network
public import Postbox
import SecretApi
import SecretChats
public import SyncCore
import TLRuntime
import TelegramApi

extension SecretChatManager {
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
}
