public import ChatHistory
import Foundation
import ImageCore
public import MediaResources
public import Postbox
import SwiftSignalKit
import SyncCore

/// Fetches the pictures a screen of entries shows through MediaResources: each photo (or picture sent as a file)
/// through `ImageResources` fitted into the widest bubble — its stripped thumbnail alone, or the fetched size — and
/// each sticker's first frame at the sticker's side through `StickerResources` (AnimatedSticker renders a `.tgs` with
/// rlottie, WebP through libwebp). A link preview's picture (`TelegramMediaWebpage.image`) is fetched as a photo.
public struct ChatMediaLoader: Sendable {
    /// Which stage of a photo to wait for.
    public enum Quality: Sendable {
        /// The first picture the photo's Signal gives: the stripped thumbnail while the size is still on the server
        /// (what a chat shows before the download), the size itself when it is already stored.
        case firstAvailable
        /// The fetched size.
        case full
    }

    public let images: ImageResources
    public let stickers: StickerResources
    public let style: ChatScreenStyle

    public init(images: ImageResources, stickers: StickerResources, style: ChatScreenStyle = .phone) {
        self.images = images
        self.stickers = stickers
        self.style = style
    }

    /// The pictures of `entries`' photos and stickers; each wait ends after `timeout` seconds (the message is then
    /// listed in `failures`).
    public func load(_ entries: [ChatHistoryEntry], quality: Quality = .full, timeout: Double = 30) async -> ChatMedia {
        let box = Int(style.maxBubbleWidth.rounded())
        let request = ImageRequest.bubble(fitting: PixelSize(width: box, height: box))
        let side = Int(style.px(style.stickerSide).rounded())
        var media = ChatMedia()
        for message in entries.flatMap(\.messages) {
            let outcome: Result<ChatPicture?, LoadFailure>
            if let image = message.media.compactMap({ $0 as? TelegramMediaImage }).first {
                outcome = await Self.picture(images.image(image, request: request), quality: quality, timeout: timeout)
            } else if let file = message.media.compactMap({ $0 as? TelegramMediaFile }).first {
                if file.isSticker {
                    let frame =
                        stickers.firstFrame(file, side: side)
                        |> map { ImageResult(stage: .full, bitmap: $0, fromCache: false) }
                    outcome = await Self.picture(frame, quality: .full, timeout: timeout)
                } else if file.mimeType.hasPrefix("image/")
                    || (VideoBadge(file) != nil && !file.previewRepresentations.isEmpty)
                {
                    // A picture sent as a file, or a video's thumbnail (its preview sizes, never the video).
                    outcome = await Self.picture(
                        images.image(file: file, request: request), quality: quality, timeout: timeout)
                } else {
                    continue
                }
            } else if let image = message.media.lazy.compactMap({ $0 as? TelegramMediaWebpage }).first?.image {
                // A link preview's picture, fetched as a photo is (`inputPhotoFileLocation`).
                outcome = await Self.picture(images.image(image, request: request), quality: quality, timeout: timeout)
            } else {
                continue
            }
            switch outcome {
            case .success(let picture?): media.pictures[message.id] = picture
            case .success(nil): media.failures[message.id] = "no picture"
            case .failure(let failure): media.failures[message.id] = failure.description
            }
        }
        return media
    }

    /// The header's round picture of `peer`: its profile or chat photo's small size (`inputPeerPhotoFileLocation`,
    /// through MediaResources' round avatar) at the header's size; `nil` when it has no photo or the picture did not
    /// come within `timeout` seconds.
    public func avatar(of peer: any Peer, timeout: Double = 30) async -> ChatPicture? {
        let (representations, photoId) = peerPhoto(of: peer)
        guard let small = representations.first, let photoId else { return nil }
        let image = TelegramMediaImage(
            imageId: MediaId(namespace: Namespaces.Media.cloudImage, id: photoId), representations: representations,
            immediateThumbnailData: small.immediateThumbnailData)
        let side = Int((2 * style.px(ChatScreenStyle.headerAvatarRadius)).rounded())
        guard
            case .success(let picture?) = await Self.picture(
                images.image(image, request: .roundAvatar(side: side)), quality: .full, timeout: timeout)
        else { return nil }
        return picture
    }

    struct LoadFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// What a picture's signal did, or that its time ran out.
    private enum PictureEvent: Sendable {
        case next(ImageResult)
        case failed(String)
        case completed
        case timedOut
    }

    /// The first (or the last, for `.full`) picture `signal` gives within `timeout` seconds: its events are awaited,
    /// not polled.
    private static func picture<E: Sendable>(
        _ signal: Signal<ImageResult, E>, quality: Quality, timeout: Double
    ) async -> Result<ChatPicture?, LoadFailure> {
        let (events, continuation) = AsyncStream<PictureEvent>.makeStream()
        let disposable = signal.start(
            next: { continuation.yield(.next($0)) }, error: { continuation.yield(.failed("\($0)")) },
            completed: { continuation.yield(.completed) })
        let timer = Task {
            try? await Task.sleep(for: .seconds(timeout))
            continuation.yield(.timedOut)
        }
        defer {
            disposable.dispose()
            timer.cancel()
            continuation.finish()
        }
        var last: ImageResult?
        for await event in events {
            switch event {
            case .next(let result):
                last = result
                if quality == .firstAvailable { return .success(Self.picture(last)) }
            case .failed(let error): return .failure(LoadFailure(description: error))
            case .completed: return .success(Self.picture(last))
            case .timedOut: return .failure(LoadFailure(description: "not within \(timeout) s"))
            }
        }
        return .success(Self.picture(last))
    }

    private static func picture(_ result: ImageResult?) -> ChatPicture? {
        result.flatMap { ChatPicture($0.bitmap, stage: $0.stage == .full ? .full : .strippedThumbnail) }
    }
}
