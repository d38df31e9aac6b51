public import AnimatedSticker
public import Dispatch
import Foundation
public import ImageCore
public import MediaBox
import Postbox
public import SwiftSignalKit
public import SyncCore
public import TelegramCore

/// An animated sticker's frames at one size, as a frame cache (`AnimatedStickerFrameCache`'s bytes; open them with
/// `AnimatedStickerFrameCache(data:)`, one reader per thread).
public struct StickerFrames: Sendable, Equatable {
    public let data: [UInt8]
    /// Whether they came from MediaBox's cached representation (nothing fetched, nothing rendered).
    public let fromCache: Bool
}

/// Why a sticker Signal failed.
public enum StickerResourceError: Error, Equatable, Sendable {
    /// The fetch stopped (MediaFetcher's error).
    case fetch(FetchError)
    /// The fetched file could not be read, or is larger than a sticker may be.
    case unreadable(String)
    /// The bytes are not a sticker that opens (what the decoder said).
    case sticker(AnimatedStickerError)
}

/// Stickers as Signals (Telegram-iOS `chatMessageAnimatedSticker`, `fetchedAnimatedStickerRepresentation` and
/// `cachedAnimatedStickerRepresentation`): the file is fetched into MediaBox (`MediaFetcher`), opened whatever its
/// format (`.tgs` through rlottie, WebP, PNG: `StickerFile`), and what is made from it — the first frame a set's
/// grid shows, the compressed frame cache a player reads — is stored as a MediaBox cached representation keyed by
/// resource and size, so the next request opens it without fetching or rendering. Disposing stops the fetch.
public final class StickerResources: Sendable {
    public let mediaBox: MediaBox
    public let fetcher: MediaFetcher
    /// Where decoding and rendering run.
    public let workQueue: DispatchQueue

    /// The largest sticker file read (Telegram's limits: 64 KB for `.tgs`, 512 KB for WebP; this leaves room).
    public static let maxFileBytes = 2 << 20

    public init(mediaBox: MediaBox, fetcher: MediaFetcher, workQueue: DispatchQueue? = nil) {
        self.mediaBox = mediaBox
        self.fetcher = fetcher
        self.workQueue =
            workQueue ?? DispatchQueue(label: "StickerResources.work", qos: .utility, attributes: .concurrent)
    }

    /// Stickers of `account`: its MediaBox, fetched over its network. Keep one per account.
    public convenience init(account: Account) {
        self.init(
            mediaBox: account.postbox.mediaBox,
            fetcher: MediaFetcher(account: account))
    }

    /// The sticker's first frame in a `side`×`side` square (the set's grid, the chat before the animation plays).
    public func firstFrame(_ file: TelegramMediaFile, side: Int) -> Signal<Bitmap, StickerResourceError> {
        let representation = "sticker-first-frame-\(side)"
        return made(file, representation: representation) { bytes in
            let sticker = try StickerFile(data: bytes, side: side)
            return PNGCodec.encode(try sticker.frame(at: 0))
        }
            |> mapToSignal { stored -> Signal<Bitmap, StickerResourceError> in
                do throws(PNGError) {
                    return .single(try PNGCodec.decode(stored.bytes))
                } catch {
                    return .fail(.unreadable("the cached first frame does not decode: \(error)"))
                }
            }
    }

    /// Every frame of the sticker in a `side`×`side` square, as a frame cache (built once, then kept in MediaBox's
    /// short cache).
    public func frames(_ file: TelegramMediaFile, side: Int) -> Signal<StickerFrames, StickerResourceError> {
        made(file, representation: "sticker-frames-\(side)") { bytes in
            try AnimatedStickerFrameCache.build(from: try StickerFile(data: bytes, side: side)).data
        }
            |> map { StickerFrames(data: $0.bytes, fromCache: $0.fromCache) }
    }

    /// The cached representation `representation` of the file, or — fetched and made by `make` on the work queue —
    /// stored as one.
    private func made(
        _ file: TelegramMediaFile, representation: String, make: @escaping @Sendable ([UInt8]) throws -> [UInt8]
    ) -> Signal<(bytes: [UInt8], fromCache: Bool), StickerResourceError> {
        let resourceId = file.resource.id
        return Signal { [self] subscriber in
            let fetch = MetaDisposable()
            let cancelled = LockedValue(false)
            workQueue.async { [self] in
                if cancelled.withLock({ $0 }) { return }
                if let stored = mediaBox.cachedRepresentationData(resourceId, representation: representation) {
                    subscriber.putNext((stored, true))
                    subscriber.putCompletion()
                    return
                }
                fetch.set(
                    fetcher.wholeFile(file.resource, size: file.size, maxBytes: Self.maxFileBytes, queue: workQueue)
                        .start(
                            next: { [self] bytes in
                                if cancelled.withLock({ $0 }) { return }
                                let result: [UInt8]
                                do {
                                    result = try make(bytes)
                                } catch let error as AnimatedStickerError {
                                    subscriber.putError(.sticker(error))
                                    return
                                } catch {
                                    subscriber.putError(.unreadable("\(resourceId): \(error)"))
                                    return
                                }
                                try? mediaBox.storeCachedRepresentation(
                                    resourceId, representation: representation, keep: false, data: result)
                                subscriber.putNext((result, false))
                                subscriber.putCompletion()
                            },
                            error: { error in
                                switch error {
                                case .fetch(let error): subscriber.putError(.fetch(error))
                                case .unreadable(let failure):
                                    subscriber.putError(.unreadable("\(resourceId): \(failure)"))
                                }
                            }))
            }
            return ActionDisposable {
                cancelled.withLock { $0 = true }
                fetch.dispose()
            }
        }
    }
}
