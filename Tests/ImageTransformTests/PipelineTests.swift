import Dispatch
import Foundation
import ImageCore
import ImageTransform
import Synchronization
import Testing
import WebPBinding

/// A value behind an NSLock, for test observations made on other queues.
final class Locked<Value>: @unchecked Sendable {  // every access holds `lock`
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

@Suite struct TransformCacheTests {
    static func key(_ id: String) -> TransformCacheKey {
        TransformCacheKey(resourceId: id, arguments: .roundAvatar(side: 4))
    }

    @Test func memoryTierEvictsLeastRecentlyUsed() {
        let tile = Bitmap(width: 4, height: 4)  // 64 bytes
        let cache = TransformCache(memoryLimit: 64 * 3)
        for id in ["a", "b", "c"] { cache.set(Self.key(id), tile) }
        #expect(cache.get(Self.key("a")) != nil)  // a is now the most recent
        cache.set(Self.key("d"), tile)  // evicts b
        #expect(cache.get(Self.key("b")) == nil)
        #expect(cache.get(Self.key("a")) != nil && cache.get(Self.key("c")) != nil && cache.get(Self.key("d")) != nil)
        #expect(cache.memoryBytes == 192)
        #expect(cache.statistics == TransformCache.Statistics(memoryHits: 4, diskHits: 0, misses: 1))
    }

    @Test func diskTierSurvivesAndRejectsDamage() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tcache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        var bitmap = Bitmap(width: 3, height: 2)
        bitmap[1, 1] = RGBA(r: 9, g: 8, b: 7, a: 200)
        TransformCache(directory: dir).set(Self.key("x"), bitmap)
        let reopened = TransformCache(directory: dir)
        #expect(reopened.get(Self.key("x")) == bitmap)
        #expect(reopened.statistics.diskHits == 1)
        #expect(reopened.get(Self.key("x")) == bitmap)
        #expect(reopened.statistics.memoryHits == 1)
        // A truncated file is a miss, not a crash; so is a different key.
        let file = try #require(
            try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil).first)
        try Data([UInt8](try Data(contentsOf: file)).prefix(20)).write(to: file)
        #expect(TransformCache(directory: dir).get(Self.key("x")) == nil)
        #expect(TransformCache(directory: dir).get(Self.key("y")) == nil)
    }
}

@Suite struct ImagePipelineTests {
    static let png = PNGCodec.encode(Pictures.gradient(640, 640))

    @Test func cachedByResourceAndArguments() throws {
        let pipeline = ImagePipeline(cache: TransformCache())
        let loads = Atomic<Int>(0)
        let data = { () -> [UInt8] in
            loads.add(1, ordering: .relaxed)
            return Self.png
        }
        let a = try pipeline.image(for: "photo:1", arguments: .roundAvatar(side: 40), data: data)
        let b = try pipeline.image(for: "photo:1", arguments: .roundAvatar(side: 40), data: data)
        _ = try pipeline.image(for: "photo:1", arguments: .roundAvatar(side: 80), data: data)
        #expect(a == b && a.size == PixelSize(width: 40, height: 40))
        #expect(loads.load(ordering: .relaxed) == 2)
        let webp = try WebPEncoder.encode(Pictures.gradient(64, 64), .lossless)
        #expect(try pipeline.image(for: "sticker:1", arguments: TransformArguments([]), data: { webp }).width == 64)
        #expect(throws: ImageTransformError.self) {
            try pipeline.image(for: "junk", arguments: .roundAvatar(side: 4), data: { [1, 2, 3] })
        }
    }

    @Test func workRunsOffTheDeliveringQueue() {
        let deliver = DispatchQueue(label: "deliver")
        let key = DispatchSpecificKey<Bool>()
        deliver.setSpecific(key: key, value: true)
        let pipeline = ImagePipeline(cache: TransformCache())
        let done = DispatchSemaphore(value: 0)
        let observed = Locked<(loadedOnDeliver: Bool?, deliveredOnDeliver: Bool?)>((nil, nil))
        pipeline.request(
            "p", arguments: .roundAvatar(side: 20), deliverOn: deliver,
            data: {
                observed.withLock { $0.loadedOnDeliver = DispatchQueue.getSpecific(key: key) == true }
                return Self.png
            }
        ) { result in
            observed.withLock { $0.deliveredOnDeliver = DispatchQueue.getSpecific(key: key) == true }
            #expect((try? result.get())?.width == 20)
            done.signal()
        }
        done.wait()
        #expect(observed.withLock { $0.loadedOnDeliver } == false)
        #expect(observed.withLock { $0.deliveredOnDeliver } == true)
    }

    @Test func cancelledRequestStopsAndNeverDelivers() {
        let work = DispatchQueue(label: "work")
        let deliver = DispatchQueue(label: "deliver")
        let pipeline = ImagePipeline(cache: TransformCache(), workQueue: work)
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let delivered = Atomic<Bool>(false)
        let token = pipeline.request(
            "p", arguments: .roundAvatar(side: 20), deliverOn: deliver,
            data: {
                started.signal()
                release.wait()
                return Self.png
            }
        ) { _ in delivered.store(true, ordering: .relaxed) }
        started.wait()
        token.cancel()
        release.signal()
        work.sync {}  // the work item has finished
        deliver.sync {}  // anything it queued has run
        let wasDelivered = delivered.load(ordering: .relaxed)
        #expect(!wasDelivered)
        // Stopped before transforming: nothing was cached.
        #expect(pipeline.cache.memoryBytes == 0)
    }
}
