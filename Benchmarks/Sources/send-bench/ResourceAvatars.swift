import BenchmarkSupport
import CoreBenchSupport
import Foundation
import ImageCore
import JPEGBinding
import MediaBox
import MediaResources
import Postbox
import SwiftSignalKit
import SyncCore
import TelegramCore

/// 1,000 round chat-list avatars (60×60) through MediaResources from photos already downloaded into an account's
/// MediaBox (640×640 JPEGs, ten distinct pictures under 1,000 resources): cold (read, JPEG decode, fill, circle, cache
/// store) and again from the representation cache, every request a Signal as a chat list makes it.
enum ResourceAvatars {
    static let count = 1_000

    static func run(
        account: Account
    ) async throws -> (cold: BenchmarkSupport.Measurement, cached: BenchmarkSupport.Measurement) {
        let pictures = try (0..<10).map { k -> [UInt8] in
            var straight = [UInt8]()
            straight.reserveCapacity(640 * 640 * 4)
            for y in 0..<640 {
                for x in 0..<640 { straight += [UInt8((x + k * 20) & 0xFF), UInt8(y & 0xFF), UInt8(k * 25), 255] }
            }
            guard let bitmap = Bitmap(width: 640, height: 640, straightRGBA: straight) else {
                throw BenchFailure("no bitmap")
            }
            return try JPEGEncoder.encode(bitmap, quality: 87)
        }
        let mediaBox = account.postbox.mediaBox
        let photos = try (0..<count).map { index -> TelegramMediaImage in
            let resource = TelegramMediaResource.cloudPhotoSize(
                datacenterId: 2, photoId: 7_000_000 + Int64(index), accessHash: 1, fileReference: [], sizeSpec: "x")
            let bytes = pictures[index % pictures.count]
            try Data(bytes).write(to: URL(fileURLWithPath: mediaBox.completedPath(resource.id)))
            return TelegramMediaImage(
                imageId: MediaId(namespace: Namespaces.Media.cloudImage, id: 7_000_000 + Int64(index)),
                representations: [
                    TelegramMediaImageRepresentation(
                        dimensions: PixelDimensions(width: 640, height: 640), resource: resource, type: "x",
                        byteSize: Int64(bytes.count))
                ])
        }
        let resources = ImageResources(account: account)
        let cold = try await all(photos, resources, name: "cold")
        let cached = try await all(photos, resources, name: "cached")
        guard cached.fromCache == count, cold.fromCache == 0 else {
            throw BenchFailure("cold run had \(cold.fromCache) cache hits, cached run \(cached.fromCache)")
        }
        return (cold.measurement, cached.measurement)
    }

    /// Every photo's avatar requested at once; the time until the last arrives.
    static func all(
        _ photos: [TelegramMediaImage], _ resources: ImageResources, name: String
    ) async throws -> (measurement: BenchmarkSupport.Measurement, fromCache: Int) {
        let state = LockedValue((done: 0, fromCache: 0, failed: 0))
        let started = now()
        let disposables = photos.map { photo in
            resources.image(photo, request: .roundAvatar(side: 60)).start(
                next: { result in
                    if result.stage == .full, result.fromCache { state.withLock { $0.fromCache += 1 } }
                },
                error: { _ in state.withLock { $0.failed += 1 } },
                completed: { state.withLock { $0.done += 1 } })
        }
        defer { for disposable in disposables { disposable.dispose() } }
        try await BenchAccounts.waitFor("\(name) avatars", timeout: 120) {
            state.withLock { $0.done + $0.failed } == photos.count
        }
        let seconds = now() - started
        let final = state.withLock { $0 }
        guard final.failed == 0 else { throw BenchFailure("\(final.failed) avatars failed") }
        return (
            BenchmarkSupport.Measurement(name: name, seconds: seconds, items: Double(photos.count), unit: "avatars"),
            final.fromCache
        )
    }
}
