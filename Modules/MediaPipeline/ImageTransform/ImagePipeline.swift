public import Dispatch
public import ImageCore
import WebPBinding

/// Resource bytes → decoded bitmap → transformed bitmap, cached by (resource, arguments) (seed §6.5, §10.2).
///
/// The synchronous core (`image(for:…)`) is what the Signal layer wraps; `request(…)` runs it on a background queue
/// and delivers on the caller's queue, so decoding and transforming never run on the delivering queue, and a
/// cancelled token stops the work between stages and suppresses delivery.
public final class ImagePipeline: Sendable {
    public let cache: TransformCache
    /// Where work runs (concurrent, utility QoS, unless a test passes its own).
    public let workQueue: DispatchQueue

    /// A pipeline over `cache`.
    public init(cache: TransformCache, workQueue: DispatchQueue? = nil) {
        self.cache = cache
        self.workQueue = workQueue ?? DispatchQueue(label: "ImagePipeline.work", qos: .utility, attributes: .concurrent)
    }

    /// Decodes PNG or WebP bytes, told apart by their signatures.
    public static func decode(_ bytes: [UInt8]) throws(ImageTransformError) -> Bitmap {
        if PNGCodec.isPNG(bytes) {
            do { return try PNGCodec.decode(bytes) } catch { throw .undecodable(error.description) }
        }
        if WebPDecoder.isWebP(bytes) {
            do { return try WebPDecoder.decode(bytes) } catch { throw .undecodable(error.description) }
        }
        throw .undecodable("neither PNG nor WebP")
    }

    /// The transformed image: from the cache, else loaded with `data`, decoded, transformed and stored.
    public func image(
        for resourceId: String, arguments: TransformArguments, token: CancellationToken = CancellationToken(),
        data: () throws -> [UInt8]
    ) throws -> Bitmap {
        let key = TransformCacheKey(resourceId: resourceId, arguments: arguments)
        if let cached = cache.get(key) { return cached }
        if token.isCancelled { throw ImageTransformError.cancelled }
        let bytes = try data()
        if token.isCancelled { throw ImageTransformError.cancelled }
        let decoded = try Self.decode(bytes)
        let result = try ImageTransformer.apply(arguments, to: decoded, token: token)
        if token.isCancelled { throw ImageTransformError.cancelled }
        cache.set(key, result)
        return result
    }

    /// Runs `image(for:…)` on `workQueue` and calls `completion` on `deliverOn` unless the returned token was
    /// cancelled first.
    @discardableResult
    public func request(
        _ resourceId: String, arguments: TransformArguments, deliverOn: DispatchQueue,
        data: @escaping @Sendable () throws -> [UInt8],
        completion: @escaping @Sendable (Result<Bitmap, any Error>) -> Void
    ) -> CancellationToken {
        let token = CancellationToken()
        workQueue.async {
            let result = Result { try self.image(for: resourceId, arguments: arguments, token: token, data: data) }
            if token.isCancelled { return }
            deliverOn.async {
                if !token.isCancelled { completion(result) }
            }
        }
        return token
    }
}
