public import Foundation
import Hashing
public import ImageCore

/// What a transformed image is cached under: the resource and the transform (seed §10.2, "(resource, arguments)").
public struct TransformCacheKey: Hashable, Sendable, CustomStringConvertible {
    public let resourceId: String
    public let arguments: TransformArguments

    /// The key of `resourceId` transformed by `arguments`.
    public init(resourceId: String, arguments: TransformArguments) {
        self.resourceId = resourceId
        self.arguments = arguments
    }

    public var description: String { "\(resourceId)#\(arguments)" }
}

/// Transformed bitmaps in two tiers: a memory LRU bounded by bytes, and an optional folder of files that survive
/// the process (one file per key, written atomically, checked on read).
///
/// `@unchecked Sendable`: the mutable memory tier (`state`) is only touched while `lock` is held. The lock is
/// `NSLock` (pthread) rather than `Synchronization.Mutex` so that ThreadSanitizer sees the ordering.
public final class TransformCache: @unchecked Sendable {
    /// Hits and misses of each tier since creation.
    public struct Statistics: Sendable, Equatable {
        public var memoryHits = 0
        public var diskHits = 0
        public var misses = 0
        /// Counters with the given values.
        public init(memoryHits: Int = 0, diskHits: Int = 0, misses: Int = 0) {
            self.memoryHits = memoryHits
            self.diskHits = diskHits
            self.misses = misses
        }
    }

    private struct State {
        var lru = LRUList<TransformCacheKey, Bitmap>()
        var bytes = 0
        var statistics = Statistics()
    }

    private let lock = NSLock()
    private var state = State()
    /// Bytes of pixels the memory tier may hold.
    public let memoryLimit: Int
    /// The disk tier's folder, or nil for memory only.
    public let directory: URL?

    /// A cache holding up to `memoryLimit` bytes of pixels in memory, and, when `directory` is given, files there.
    public init(memoryLimit: Int = 32 << 20, directory: URL? = nil) {
        self.memoryLimit = memoryLimit
        self.directory = directory
        if let directory { try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
    }

    private func withState<R>(_ body: (inout State) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }

    /// The counters so far.
    public var statistics: Statistics { withState { $0.statistics } }

    /// The cached bitmap from memory, else from disk (then promoted to memory), else nil.
    public func get(_ key: TransformCacheKey) -> Bitmap? {
        if let hit = withState({ state -> Bitmap? in
            let value = state.lru.get(key)
            if value != nil { state.statistics.memoryHits += 1 }
            return value
        }) {
            return hit
        }
        if let directory, let bitmap = DiskEntry.read(from: fileURL(key, in: directory), key: key) {
            withState { $0.statistics.diskHits += 1 }
            storeInMemory(key, bitmap)
            return bitmap
        }
        withState { $0.statistics.misses += 1 }
        return nil
    }

    /// Stores a bitmap in memory and, when there is a folder, on disk.
    public func set(_ key: TransformCacheKey, _ bitmap: Bitmap) {
        storeInMemory(key, bitmap)
        if let directory { DiskEntry.write(bitmap, key: key, to: fileURL(key, in: directory)) }
    }

    /// Drops the memory tier (the disk tier stays).
    public func clearMemory() { withState { $0 = State(lru: LRUList(), bytes: 0, statistics: $0.statistics) } }

    /// Bytes of pixels in memory now.
    public var memoryBytes: Int { withState { $0.bytes } }

    private func storeInMemory(_ key: TransformCacheKey, _ bitmap: Bitmap) {
        let cost = bitmap.pixels.count
        guard cost <= memoryLimit else { return }
        withState { state in
            if let old = state.lru.set(key, bitmap) { state.bytes -= old.pixels.count }
            state.bytes += cost
            while state.bytes > memoryLimit, let evicted = state.lru.removeLeastRecent() {
                state.bytes -= evicted.pixels.count
            }
        }
    }

    private func fileURL(_ key: TransformCacheKey, in directory: URL) -> URL {
        let text = Array(key.description.utf8)
        let name = String(format: "%08x%08x", MurMurHash32.hash(text, seed: 0), MurMurHash32.hash(text, seed: 0x5EED))
        return directory.appendingPathComponent(name + ".tcache")
    }
}
