import Glibc

/// A resource's identity; its string form names the files (Telegram-iOS Postbox `MediaResourceId`).
public struct MediaResourceId: Hashable, Sendable, CustomStringConvertible {
    public let stringRepresentation: String

    public init(_ stringRepresentation: String) {
        self.stringRepresentation = stringRepresentation
    }

    /// A file-name-safe form: characters other than letters, digits, `-`, `_` and `.` become `_`, and the result
    /// never starts with a dot.
    var fileName: String {
        var name = String(
            stringRepresentation.unicodeScalars.map { scalar -> Character in
                let ok =
                    (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z")
                    || (scalar >= "0" && scalar <= "9") || scalar == "-" || scalar == "_" || scalar == "."
                return ok ? Character(scalar) : "_"
            })
        if name.hasPrefix(".") || name.isEmpty { name = "_" + name }
        return name
    }

    public var description: String { stringRepresentation }
}

/// What is on disk for a resource.
public enum MediaResourceStatus: Equatable, Sendable {
    /// Not stored at all.
    case remote
    /// Partly stored: the ranges on disk and, when the size is known, the fraction.
    case partial(RangeMap, progress: Double?)
    /// Completely stored at `path`.
    case local(path: String)
}

/// Media files of an account under `<postbox>/media/`: complete resources, partial downloads with a range map, and
/// cached representations in `cache/` (kept) and `short-cache/` (purged by age and size) (Telegram-iOS `MediaBox`).
///
/// `@unchecked Sendable`: it holds only immutable paths; concurrent writers of one resource must be serialised by
/// the caller (the fetch layer does, one fetch per resource).
public final class MediaBox: @unchecked Sendable {
    /// `<postbox>/media`.
    public let basePath: String

    /// Opens the media folder under `postboxPath`, creating it and its cache folders.
    public init(postboxPath: String) throws(MediaBoxError) {
        basePath = postboxPath + "/media"
        for path in [basePath, basePath + "/cache", basePath + "/short-cache"] {
            try Files.makeDirectories(path)
        }
    }

    /// Where the complete file lives.
    public func completedPath(_ id: MediaResourceId) -> String { basePath + "/" + id.fileName }

    /// Where a partial download lives; its range map is `<path>.meta`.
    public func partialPath(_ id: MediaResourceId) -> String { basePath + "/" + id.fileName + "_partial" }

    /// Stores a complete resource (written to a temporary file, then renamed, so readers never see half a file).
    public func storeResourceData(_ id: MediaResourceId, data: [UInt8]) throws(MediaBoxError) {
        try Files.writeAtomically(completedPath(id), data)
        Files.remove(partialPath(id))
        Files.remove(partialPath(id) + ".meta")
    }

    /// Writes `data` at `offset` of a partial download and records the range; when `size` is known and every byte
    /// is present, the partial file becomes the complete resource. Returns the new status.
    @discardableResult
    public func writePartial(
        _ id: MediaResourceId, offset: Int64, data: [UInt8], size: Int64?
    ) throws(MediaBoxError)
        -> MediaResourceStatus
    {
        guard offset >= 0 else { throw .invalidRange }
        if Files.exists(completedPath(id)) { return .local(path: completedPath(id)) }
        let path = partialPath(id)
        try Files.write(path, data, at: offset)
        var map = rangeMap(id)
        map.insert(offset..<offset + Int64(data.count))
        if let size, map.contains(0..<size) {
            try Files.truncate(path, size)
            try Files.rename(path, completedPath(id))
            Files.remove(path + ".meta")
            return .local(path: completedPath(id))
        }
        try Files.writeAtomically(path + ".meta", map.serialize())
        return .partial(map, progress: size.map { Double(map.count) / Double(max($0, 1)) })
    }

    /// The stored ranges of a partial download (empty when none, or when the meta file is damaged).
    public func rangeMap(_ id: MediaResourceId) -> RangeMap {
        Files.read(partialPath(id) + ".meta").flatMap(RangeMap.init(serialized:)) ?? RangeMap()
    }

    /// Whether the resource is complete, partial or absent.
    public func resourceStatus(_ id: MediaResourceId, size: Int64? = nil) -> MediaResourceStatus {
        if Files.exists(completedPath(id)) { return .local(path: completedPath(id)) }
        let map = rangeMap(id)
        if map.count > 0 { return .partial(map, progress: size.map { Double(map.count) / Double(max($0, 1)) }) }
        return .remote
    }

    /// The bytes of `range` when all are stored (complete or partial), else `nil`.
    public func resourceData(_ id: MediaResourceId, range: Range<Int64>) -> [UInt8]? {
        if Files.exists(completedPath(id)) { return Files.read(completedPath(id), range: range) }
        guard rangeMap(id).contains(range) else { return nil }
        return Files.read(partialPath(id), range: range)
    }

    /// Removes a resource's files, complete and partial.
    public func removeResource(_ id: MediaResourceId) {
        Files.remove(completedPath(id))
        Files.remove(partialPath(id))
        Files.remove(partialPath(id) + ".meta")
    }

    // MARK: Cached representations

    /// Where a cached representation (a resized image, a decoded sticker frame, …) of a resource lives: under
    /// `cache/` when it is kept, under `short-cache/` when it may be purged.
    public func cachedRepresentationPath(_ id: MediaResourceId, representation: String, keep: Bool) -> String {
        basePath + (keep ? "/cache/" : "/short-cache/") + id.fileName + ":" + MediaResourceId(representation).fileName
    }

    /// Stores a cached representation.
    public func storeCachedRepresentation(
        _ id: MediaResourceId, representation: String, keep: Bool, data: [UInt8]
    ) throws(MediaBoxError) {
        try Files.writeAtomically(cachedRepresentationPath(id, representation: representation, keep: keep), data)
    }

    /// A cached representation's bytes, from either cache.
    public func cachedRepresentationData(_ id: MediaResourceId, representation: String) -> [UInt8]? {
        Files.read(cachedRepresentationPath(id, representation: representation, keep: true))
            ?? Files.read(cachedRepresentationPath(id, representation: representation, keep: false))
    }

    /// Purges `short-cache/`: files last modified more than `maxAge` seconds before `now`, then the oldest until the
    /// rest total at most `maxTotalBytes`. Returns the names removed, oldest first.
    @discardableResult
    public func purgeShortCache(maxAge: Int64, maxTotalBytes: Int64, now: Int64) -> [String] {
        let directory = basePath + "/short-cache"
        var files = Files.list(directory).sorted { ($0.modified, $0.name) < ($1.modified, $1.name) }
        var removed: [String] = []
        var total = files.reduce(Int64(0)) { $0 + $1.size }
        while let oldest = files.first, now - oldest.modified > maxAge || total > maxTotalBytes {
            Files.remove(directory + "/" + oldest.name)
            removed.append(oldest.name)
            total -= oldest.size
            files.removeFirst()
        }
        return removed
    }
}

/// Why a MediaBox operation failed.
public enum MediaBoxError: Error, Equatable, Sendable {
    case io(path: String, errno: Int32)
    case invalidRange
}
