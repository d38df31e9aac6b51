public import MediaBox

/// Where a piece of media's bytes live and how to ask for them (Telegram-iOS `CloudFileMediaResource`,
/// `CloudPhotoSizeMediaResource`, `CloudDocumentMediaResource`, `CloudDocumentSizeMediaResource`,
/// `CloudPeerPhotoSizeMediaResource`, `LocalFileMediaResource`).
public enum TelegramMediaResource: Hashable, Sendable, Codable {
    /// One size of a photo: `inputPhotoFileLocation` with the size's type letter.
    case cloudPhotoSize(
        datacenterId: Int32, photoId: Int64, accessHash: Int64, fileReference: [UInt8], sizeSpec: String)
    /// A document's file: `inputDocumentFileLocation` with an empty thumb size.
    case cloudDocument(datacenterId: Int32, fileId: Int64, accessHash: Int64, fileReference: [UInt8], size: Int64?)
    /// A document's thumbnail: `inputDocumentFileLocation` with the thumbnail's type letter.
    case cloudDocumentSize(
        datacenterId: Int32, documentId: Int64, accessHash: Int64, fileReference: [UInt8], sizeSpec: String)
    /// A profile or chat photo: `inputPeerPhotoFileLocation`, small or big.
    case cloudPeerPhoto(datacenterId: Int32, peerId: Int64, photoId: Int64, big: Bool)
    /// A file made on this device that has not been uploaded (yet).
    case localFile(fileId: Int64, size: Int64?)
    /// A file received in a secret chat: encrypted on the server, with its location and key kept by the account's
    /// secret chats under the chat and the message's random_id (Telegram-iOS `SecretFileMediaResource`, fetched by
    /// `TelegramCore/Sources/State/FetchSecretFileResource.swift`).
    case secretChatFile(chatId: Int32, randomId: Int64, size: Int64)

    /// The MediaBox identity, stable across file-reference refreshes (Telegram-iOS's resource id strings).
    public var id: MediaResourceId {
        switch self {
        case .cloudPhotoSize(let dc, let photoId, _, _, let spec):
            return MediaResourceId("telegram-cloud-photo-size-\(dc)-\(photoId)-\(spec)")
        case .cloudDocument(let dc, let fileId, _, _, _):
            return MediaResourceId("telegram-cloud-document-\(dc)-\(fileId)")
        case .cloudDocumentSize(let dc, let documentId, _, _, let spec):
            return MediaResourceId("telegram-cloud-document-size-\(dc)-\(documentId)-\(spec)")
        case .cloudPeerPhoto(let dc, let peerId, let photoId, let big):
            return MediaResourceId("telegram-peer-photo-size-\(dc)-\(peerId)-\(photoId)-\(big ? "big" : "small")")
        case .localFile(let fileId, _):
            return MediaResourceId("telegram-local-file-\(fileId)")
        case .secretChatFile(let chatId, let randomId, _):
            return MediaResourceId("telegram-secret-file-\(chatId)-\(randomId)")
        }
    }

    /// The size in bytes, when known.
    public var size: Int64? {
        switch self {
        case .cloudDocument(_, _, _, _, let size), .localFile(_, let size): return size
        case .secretChatFile(_, _, let size): return size
        default: return nil
        }
    }
}
