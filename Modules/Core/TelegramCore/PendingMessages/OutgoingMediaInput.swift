public import AccountNetworking
import Foundation
import MediaBox
import Network
import Postbox
import SyncCore
import SyncCoreApi
import TelegramApi

/// An outgoing message's media as the API takes it (Telegram-iOS `PendingMessageUploadedContent`): a local file or
/// photo is uploaded in parts first (`inputMediaUploadedDocument` / `inputMediaUploadedPhoto`); media the server
/// already has — a sticker from a set, a forwarded photo — goes by reference (`inputMediaDocument` / `inputMediaPhoto`).
struct OutgoingMediaInput {
    /// What to send.
    var media: Api.InputMedia
    /// The local resource whose bytes went up, to become the server's resource once the message is sent.
    var uploadedResource: TelegramMediaResource?
    /// The local file's upload record, forgotten when the server no longer has its parts.
    var uploadPath: String?

    /// The input for `media`, uploading it when it is local; `progress` gets the acknowledged fraction. `nil` when the
    /// message has no media to send.
    static func make(
        for media: [any Media], network: any AccountNetworking, mediaBox: MediaBox,
        progress: @escaping @Sendable (Double) -> Void
    ) async throws -> OutgoingMediaInput? {
        if let file = media.compactMap({ $0 as? TelegramMediaFile }).first {
            if let document = file.apiInputDocument {
                return OutgoingMediaInput(media: .inputMediaDocument(.init(id: document)))
            }
            let path = mediaBox.completedPath(file.resource.id)
            let input = try await MultipartUpload.upload(
                network: network, path: path, name: file.fileName ?? "file", progress: progress)
            return OutgoingMediaInput(
                media: .inputMediaUploadedDocument(
                    .init(
                        forceFile: !file.isVoice && !file.isVideo && !file.isAnimated, file: input,
                        mimeType: file.mimeType,
                        attributes: file.attributes.compactMap(\.apiDocumentAttribute))),
                uploadedResource: file.resource, uploadPath: path)
        }
        if let image = media.compactMap({ $0 as? TelegramMediaImage }).first {
            if let photo = image.apiInputPhoto {
                return OutgoingMediaInput(media: .inputMediaPhoto(.init(id: photo)))
            }
            guard let local = image.largestRepresentation else { return nil }
            let path = mediaBox.completedPath(local.resource.id)
            let input = try await MultipartUpload.upload(
                network: network, path: path, name: "photo.jpg", progress: progress)
            return OutgoingMediaInput(
                media: .inputMediaUploadedPhoto(.init(file: input)), uploadedResource: local.resource, uploadPath: path)
        }
        if let other = media.lazy.compactMap(Self.inputWithoutUpload).first {
            return OutgoingMediaInput(media: other)
        }
        return nil
    }

    /// The input for media that needs no upload: a place, a contact, a die, a poll (Telegram-iOS
    /// `PendingMessageUploadedContent`'s `mediaContentToUpload` for `TelegramMediaMap`, `TelegramMediaContact`,
    /// `TelegramMediaDice`, `TelegramMediaPoll`).
    static func inputWithoutUpload(_ media: any Media) -> Api.InputMedia? {
        switch media {
        case let map as TelegramMediaMap:
            let point = Api.InputGeoPoint.inputGeoPoint(
                .init(lat: map.latitude, long: map.longitude, accuracyRadius: map.accuracyRadius))
            if let venue = map.venue {
                return .inputMediaVenue(
                    .init(
                        geoPoint: point, title: venue.title, address: venue.address, provider: venue.provider,
                        venueId: venue.venueId, venueType: venue.venueType))
            }
            if let period = map.liveBroadcastingTimeout {
                return .inputMediaGeoLive(
                    .init(
                        geoPoint: point, heading: map.heading, period: period,
                        proximityNotificationRadius: map.liveProximityNotificationRadius))
            }
            return .inputMediaGeoPoint(.init(geoPoint: point))
        case let contact as TelegramMediaContact:
            return .inputMediaContact(
                .init(
                    phoneNumber: contact.phoneNumber, firstName: contact.firstName, lastName: contact.lastName,
                    vcard: contact.vCardData ?? ""))
        case let dice as TelegramMediaDice:
            return .inputMediaDice(.init(emoticon: dice.emoji))
        case let poll as TelegramMediaPoll:
            return poll.apiInputMedia
        default:
            return nil
        }
    }

    /// Whether `media` holds a file or photo that must be uploaded first.
    static func isLocal(_ media: [any Media]) -> Bool {
        media.contains { item in
            if let file = item as? TelegramMediaFile { return file.apiInputDocument == nil }
            if let image = item as? TelegramMediaImage { return image.apiInputPhoto == nil }
            return false
        }
    }

    /// Where the server's copy of uploaded bytes lives in MediaBox: the document's file, or the photo size with the
    /// uploaded picture's dimensions (else the largest), so the sender never downloads what it sent.
    static func cloudResource(in media: [any Media], matching local: [any Media]) -> TelegramMediaResource? {
        if let file = media.compactMap({ $0 as? TelegramMediaFile }).first { return file.resource }
        guard let image = media.compactMap({ $0 as? TelegramMediaImage }).first else { return nil }
        let sent = local.compactMap { $0 as? TelegramMediaImage }.first?.largestRepresentation?.dimensions
        return (image.representations.first { $0.dimensions == sent } ?? image.largestRepresentation)?.resource
    }
}
