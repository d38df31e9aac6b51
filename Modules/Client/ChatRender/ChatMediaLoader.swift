public import ChatHistory
import Foundation
import ImageCore
public import MediaResources
import Postbox
import SwiftSignalKit
import SyncCore

/// Fetches the pictures a screen of entries shows through MediaResources: each photo (or picture sent as a file)
/// through `ImageResources` fitted into the widest bubble — its stripped thumbnail alone, or the fetched size — and
/// each sticker's first frame at the sticker's side through `StickerResources` (AnimatedSticker renders a `.tgs` with
/// rlottie, WebP through libwebp).
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
                    let frame = stickers.firstFrame(file, side: side) |> map { ImageResult(stage: .full, bitmap: $0, fromCache: false) }
                    outcome = await Self.picture(frame, quality: .full, timeout: timeout)
                } else if file.mimeType.hasPrefix("image/") {
                    outcome = await Self.picture(images.image(file: file, request: request), quality: quality, timeout: timeout)
                } else {
                    continue
                }
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

    struct LoadFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// The first (or the last, for `.full`) picture `signal` gives within `timeout` seconds.
    private static func picture<E: Sendable>(
        _ signal: Signal<ImageResult, E>, quality: Quality, timeout: Double
    ) async -> Result<ChatPicture?, LoadFailure> {
        let state = LockedValue<(last: ImageResult?, done: Bool, error: String?)>((nil, false, nil))
        let disposable = signal.start(
            next: { result in state.withLock { $0.last = result; if quality == .firstAvailable { $0.done = true } } },
            error: { error in state.withLock { $0.error = "\(error)"; $0.done = true } },
            completed: { state.withLock { $0.done = true } })
        defer { disposable.dispose() }
        let deadline = Date().addingTimeInterval(timeout)
        while !state.withLock({ $0.done }) {
            if Date() >= deadline { return .failure(LoadFailure(description: "not within \(timeout) s")) }
            try? await Task.sleep(for: .milliseconds(10))
        }
        let final = state.withLock { $0 }
        if let error = final.error { return .failure(LoadFailure(description: error)) }
        guard let last = final.last else { return .success(nil) }
        return .success(ChatPicture(last.bitmap, stage: last.stage == .full ? .full : .strippedThumbnail))
    }
}
