import AccountNetworking
import Foundation
public import Postbox
import SyncCore
import TelegramApi

extension Account {
    /// Sets the photo of the channel, supergroup or basic group `peerId` to a prepared JPEG, or removes it (`nil`):
    /// the JPEG is uploaded in parts, then `channels.editPhoto` (admins with `change_info`) or
    /// `messages.editChatPhoto` names it as `inputChatUploadedPhoto` (Telegram-iOS
    /// `TelegramCore/Sources/TelegramEngine/Peers/UpdatePeerPhoto.swift`); the server makes the photo's sizes, the
    /// members see a service message, and the chat with its new photo is stored from the answer.
    public func setPhoto(_ peerId: PeerId, jpeg: [UInt8]?) async throws(PeerActionError) {
        guard
            peerId.namespace == Namespaces.Peer.cloudChannel || peerId.namespace == Namespaces.Peer.cloudGroup
        else { throw .unsupported("\(peerId) is not a group or channel") }
        let photo: Api.InputChatPhoto
        if let jpeg {
            photo = .inputChatUploadedPhoto(.init(file: try await uploadChatPhoto(jpeg)))
        } else {
            photo = .inputChatPhotoEmpty
        }
        if peerId.namespace == Namespaces.Peer.cloudChannel {
            let (_, input) = try storedChannel(peerId)
            try applyActionUpdates(
                try await peerActionRequest(Api.functions.channels.editPhoto(channel: input, photo: photo)))
        } else {
            try applyActionUpdates(
                try await peerActionRequest(
                    Api.functions.messages.editChatPhoto(chatId: peerId.id.rawValue, photo: photo)))
        }
    }

    /// Makes a prepared JPEG the account's own profile photo (`photos.uploadProfilePhoto`, Telegram-iOS
    /// `TelegramCore/Sources/TelegramEngine/AccountData/UpdateAccountPhoto.swift`): the server makes its sizes and
    /// tells the account's other sessions and everyone who follows it (`updateUser`); the account itself is stored
    /// with the new photo from the answer.
    public func setProfilePhoto(jpeg: [UInt8]) async throws(PeerActionError) {
        let file = try await uploadChatPhoto(jpeg)
        let answer = try await peerActionRequest(Api.functions.photos.uploadProfilePhoto(file: file))
        guard case .photo(let photo) = answer else { return }
        do {
            try postbox.transactionSync { tx in
                _ = try UpdateBatchApplier(accountPeerId: peerId).storePeers(
                    users: photo.users, chats: [], transaction: tx)
            }
        } catch {
            throw .storage("storing the account with its new photo: \(error)")
        }
    }

    /// Uploads `jpeg` from a file of its own in the account's folder (removed afterwards, with its resume record).
    private func uploadChatPhoto(_ jpeg: [UInt8]) async throws(PeerActionError) -> Api.InputFile {
        let path = basePath + "/chat-photo-\(UInt64.random(in: 1...UInt64.max)).jpg"
        guard FileManager.default.createFile(atPath: path, contents: Data(jpeg)) else {
            throw .storage("cannot write the photo to upload at \(path)")
        }
        defer {
            try? FileManager.default.removeItem(atPath: path)
            MultipartUpload.forget(path: path)
        }
        do {
            return try await MultipartUpload.upload(network: network, path: path, name: "photo.jpg")
        } catch {
            switch error {
            case .network(.rpc(_, let message)): throw .server(message)
            case .network: throw .network
            case .unreadable(_, let reason): throw .storage("reading the photo to upload: \(reason)")
            case .unsupportedSize(let size): throw .unsupported("a photo of \(size) bytes")
            }
        }
    }
}
