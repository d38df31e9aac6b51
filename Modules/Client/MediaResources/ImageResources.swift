public import Dispatch
import Foundation
public import ImageCore
public import ImageTransform
public import MediaBox
import PhotoSizes
import Postbox
public import SwiftSignalKit
public import SyncCore
public import TelegramCore

/// One picture an image Signal delivers.
public struct ImageResult: Sendable, Equatable {
    /// Which picture this is.
    public enum Stage: Sendable, Equatable {
        /// The photo's stripped thumbnail, blurred, shown while the chosen size loads.
        case strippedThumbnail
        /// The chosen size, fetched, decoded and transformed.
        case full
    }

    public let stage: Stage
    /// The picture, transformed as the request says.
    public let bitmap: Bitmap
    /// Whether it came from the transform cache (nothing fetched, nothing decoded).
    public let fromCache: Bool

    /// A result of `stage` showing `bitmap`.
    public init(stage: Stage, bitmap: Bitmap, fromCache: Bool) {
        self.stage = stage
        self.bitmap = bitmap
        self.fromCache = fromCache
    }
}

/// Why an image Signal failed.
public enum ImageResourceError: Error, Equatable, Sendable {
    /// The media has no size to fetch.
    case noRepresentation
    /// The fetch stopped (MediaFetcher's error).
    case fetch(FetchError)
    /// The fetched bytes are not a picture that decodes (what the decoder said).
    case undecodable(String)
    /// A transform step failed.
    case transform(ImageTransformError)
}

/// Incoming images as Signals (Telegram-iOS `chatMessagePhoto`,
/// `submodules/PhotoResources/Sources/PhotoResources.swift`, without UIKit): the photo's stripped thumbnail first,
/// blurred, then the chosen size once it is fetched into MediaBox (`MediaFetcher`), decoded and transformed per the
/// request, stored in the `TransformCache` under (resource, arguments) — so the next request for the same picture
/// and transform is answered from the cache, with nothing fetched or decoded. Decoding and transforming run on
/// `workQueue`; disposing a subscription stops its fetch (the last subscriber's disposal stops the shared download)
/// and its work between stages.
public final class ImageResources: Sendable {
    public let mediaBox: MediaBox
    public let fetcher: MediaFetcher
    public let cache: TransformCache
    /// Where decoding and transforming run (values are delivered from it; add `|> deliverOn(queue)`).
    public let workQueue: DispatchQueue

    /// The largest file read for decoding (an image sent as a document may be large; the decoders' pixel caps follow
    /// the input's size, so this bounds the memory a picture may take).
    public static let maxFileBytes = 64 << 20

    /// Resources from `mediaBox`, fetched by `fetcher`, transforms cached in `cache`.
    public init(
        mediaBox: MediaBox, fetcher: MediaFetcher, cache: TransformCache = TransformCache(),
        workQueue: DispatchQueue? = nil
    ) {
        self.mediaBox = mediaBox
        self.fetcher = fetcher
        self.cache = cache
        self.workQueue =
            workQueue ?? DispatchQueue(label: "ImageResources.work", qos: .utility, attributes: .concurrent)
    }

    /// Resources of `account`: its MediaBox, fetched over its network. Keep one per account: fetches of one resource
    /// share a download only within one `MediaFetcher`.
    public convenience init(account: Account, cache: TransformCache = TransformCache()) {
        self.init(
            mediaBox: account.postbox.mediaBox,
            fetcher: MediaFetcher(account: account), cache: cache)
    }

    /// A photo shown as `request` says: `.strippedThumbnail` (when the photo has one and the chosen size is neither
    /// cached nor stored), then `.full`, then completion.
    public func image(_ image: TelegramMediaImage, request: ImageRequest) -> Signal<ImageResult, ImageResourceError> {
        signal(
            representations: image.representations, thumbnail: image.immediateThumbnailData,
            thumbnailKey: "\(image.imageId.namespace):\(image.imageId.id)", request: request)
    }

    /// A document that is a picture (an image sent as a file): its own bytes are the full size, its preview sizes
    /// the smaller ones (`imageSize` gives the dimensions; without it only the file itself is a candidate).
    public func image(file: TelegramMediaFile, request: ImageRequest) -> Signal<ImageResult, ImageResourceError> {
        var representations = file.previewRepresentations
        for case .imageSize(let dimensions) in file.attributes {
            representations.append(
                TelegramMediaImageRepresentation(
                    dimensions: dimensions, resource: file.resource, type: "file", byteSize: file.size))
        }
        if representations.isEmpty {
            representations = [
                TelegramMediaImageRepresentation(
                    dimensions: PixelDimensions(width: 1, height: 1), resource: file.resource, type: "file",
                    byteSize: file.size)
            ]
        }
        return signal(
            representations: representations, thumbnail: file.immediateThumbnailData,
            thumbnailKey: "\(file.fileId.namespace):\(file.fileId.id)", request: request)
    }

    private func signal(
        representations: [TelegramMediaImageRepresentation], thumbnail: [UInt8]?, thumbnailKey: String,
        request: ImageRequest
    ) -> Signal<ImageResult, ImageResourceError> {
        let chosen = request.representation(in: representations)
        return Signal { [self] subscriber in
            guard let representation = chosen else {
                subscriber.putError(.noRepresentation)
                return EmptyDisposable
            }
            let token = CancellationToken()
            let fetch = MetaDisposable()
            let key = TransformCacheKey(
                resourceId: representation.resource.id.description, arguments: request.arguments)
            workQueue.async { [self] in
                if token.isCancelled { return }
                if let cached = cache.get(key) {
                    subscriber.putNext(ImageResult(stage: .full, bitmap: cached, fromCache: true))
                    subscriber.putCompletion()
                    return
                }
                if let bytes = representation.cachedBytes {
                    deliverFull(bytes, key: key, request: request, token: token, subscriber: subscriber)
                    return
                }
                // The thumbnail only while the size must come from the server (a stored size shows at once).
                let stored = mediaBox.resourceStatus(representation.resource.id, size: representation.byteSize)
                if stored.isRemoteOrPartial, let thumbnail,
                    let (blurred, fromCache) = thumbnailImage(
                        thumbnail, key: thumbnailKey, request: request, token: token)
                {
                    subscriber.putNext(ImageResult(stage: .strippedThumbnail, bitmap: blurred, fromCache: fromCache))
                }
                if token.isCancelled { return }
                let resourceId = representation.resource.id
                fetch.set(
                    fetcher.wholeFile(
                        representation.resource, size: representation.byteSize, maxBytes: Self.maxFileBytes,
                        queue: workQueue
                    ).start(
                        next: { [self] bytes in
                            deliverFull(bytes, key: key, request: request, token: token, subscriber: subscriber)
                        },
                        error: { error in
                            switch error {
                            case .fetch(let error): subscriber.putError(.fetch(error))
                            case .unreadable(let failure):
                                subscriber.putError(.undecodable("\(resourceId) cannot be read: \(failure)"))
                            }
                        }))
            }
            return ActionDisposable {
                token.cancel()
                fetch.dispose()
            }
        }
    }

    /// Decodes, transforms and caches `bytes`, then delivers the full picture and completes.
    private func deliverFull(
        _ bytes: [UInt8], key: TransformCacheKey, request: ImageRequest, token: CancellationToken,
        subscriber: Subscriber<ImageResult, ImageResourceError>
    ) {
        if token.isCancelled { return }
        let decoded: Bitmap
        do throws(ImageResourceError) { decoded = try Self.decode(bytes) } catch {
            subscriber.putError(error)
            return
        }
        if token.isCancelled { return }
        let result: Bitmap
        do throws(ImageTransformError) {
            result = try ImageTransformer.apply(request.arguments, to: decoded, token: token)
        } catch {
            if error != .cancelled { subscriber.putError(.transform(error)) }
            return
        }
        if token.isCancelled { return }
        cache.set(key, result)
        subscriber.putNext(ImageResult(stage: .full, bitmap: result, fromCache: false))
        subscriber.putCompletion()
    }

    /// The stripped thumbnail decoded, blurred and transformed as `request` says (cached too, under the media's id),
    /// with whether it came from the cache; nil when it does not decode or the work was cancelled.
    private func thumbnailImage(
        _ bytes: [UInt8], key: String, request: ImageRequest, token: CancellationToken
    ) -> (Bitmap, Bool)? {
        let cacheKey = TransformCacheKey(resourceId: "stripped:\(key)", arguments: request.arguments)
        if let cached = cache.get(cacheKey) { return (cached, true) }
        guard let blurred = StrippedThumbnailImage.decode(bytes),
            let result = try? ImageTransformer.apply(request.arguments, to: blurred, token: token)
        else { return nil }
        cache.set(cacheKey, result)
        return (result, false)
    }

    /// JPEG (turned as its EXIF orientation says), PNG or WebP bytes decoded, with the decoders' input-relative caps.
    static func decode(_ bytes: [UInt8]) throws(ImageResourceError) -> Bitmap {
        guard let format = PictureFormat.sniff(bytes) else {
            throw .undecodable("not JPEG, PNG or WebP (\(bytes.count) bytes)")
        }
        do throws(PhotoError) { return try format.decode(bytes) } catch { throw .undecodable(error.description) }
    }
}

extension MediaResourceStatus {
    /// Whether the resource is not complete in MediaBox.
    fileprivate var isRemoteOrPartial: Bool {
        if case .local = self { return false }
        return true
    }
}
