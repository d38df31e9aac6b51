import Buffers
import CryptoUtils
public import Foundation
import SecretFiles

/// The server's files on disk, beside its database: finished files named by their SHA-256 (`files/ab/abcdef…`, so
/// the same bytes are stored once), and upload parts waiting to be assembled (`uploads/<auth key>/<file id>/<part>`).
///
/// Bounds: an auth key has at most `maximumPendingUploads` files in progress (starting one more forgets its oldest)
/// holding at most `maximumPendingBytes` of parts together (a part that would pass it forgets the key's least recently
/// written other uploads first, and is refused if it still does not fit); `sweep` forgets uploads untouched for a
/// day. The byte count covers parts written since the process started (older ones are swept within a day). Part and file sizes are the API layer's rules (ServerAPI's
/// `FileTransferRules`), checked before a part gets here.
///
/// `@unchecked Sendable`: every method works on the file system only; concurrent uploads of one file id by one key
/// write distinct part files, and finished files are renamed into place whole.
public final class FileVault: @unchecked Sendable {
    /// Why a file cannot be stored, assembled or read.
    public enum Failure: Error, Equatable, Sendable {
        /// The part does not fit in the key's `maximumPendingBytes` even with its other uploads forgotten.
        case pendingBytesExceeded
        /// Part `n` was never uploaded (Telegram: `FILE_PART_n_MISSING`).
        case missingPart(Int)
        /// A part other than the last is not the size of the first (`FILE_PART_SIZE_CHANGED`).
        case partSizeChanged
        /// No file with this hash is stored.
        case noSuchFile
        case io(String)
    }

    /// A finished file.
    public struct Blob: Sendable, Equatable {
        /// Lowercase hex SHA-256 of the content: its name on disk.
        public let sha256: String
        public let size: Int64
        /// The size of the parts it was uploaded in (the first part's); its own size when made by the server.
        public let partSize: Int
    }

    public static let maximumPendingUploads = 64
    /// Bytes of unassembled parts one auth key may hold, unless the vault is opened with another bound: a 2 GB file
    /// (4,000 parts of 512 KB) and room to spare.
    public static let defaultMaximumPendingBytes: Int64 = 4 << 30
    public let maximumPendingBytes: Int64
    /// How long an unfinished upload is kept.
    public static let uploadLifetime: TimeInterval = 24 * 3600

    private let files: URL
    private let uploads: URL
    private let manager = FileManager.default
    private let lock = NSLock()
    /// Bytes of parts written per key and upload, with when each upload was last written (a counter), for the
    /// byte bound; an entry goes when its upload is assembled or forgotten.
    private var pending: [Int64: [Int64: (bytes: Int64, touched: UInt64)]] = [:]
    private var touches: UInt64 = 0

    /// Uses (creating) `files/` and `uploads/` under `directory`.
    public init(directory: URL, maximumPendingBytes: Int64 = defaultMaximumPendingBytes) throws {
        self.maximumPendingBytes = maximumPendingBytes
        files = directory.appendingPathComponent("files")
        uploads = directory.appendingPathComponent("uploads")
        try SecretFile.createDirectory(files.path)
        try SecretFile.createDirectory(uploads.path)
    }

    // MARK: - Uploads

    private func uploadFolder(key: Int64, fileId: Int64) -> URL {
        uploads.appendingPathComponent(String(UInt64(bitPattern: key), radix: 16)).appendingPathComponent(
            String(UInt64(bitPattern: fileId), radix: 16))
    }

    /// Stores part `part` of upload `fileId` of `key` (replacing an earlier copy of that part).
    public func savePart(key: Int64, fileId: Int64, part: Int, bytes: [UInt8]) throws {
        let folder = uploadFolder(key: key, fileId: fileId)
        if !manager.fileExists(atPath: folder.path) {
            try makeRoom(in: folder.deletingLastPathComponent(), key: key)
            try manager.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let file = folder.appendingPathComponent(String(part))
        let replaced = ((try? manager.attributesOfItem(atPath: file.path)[.size]) as? NSNumber)?.int64Value ?? 0
        try reserve(Int64(bytes.count) - replaced, key: key, fileId: fileId)
        try Data(bytes).write(to: file, options: .atomic)
    }

    /// Counts `delta` bytes against `key`'s bound, forgetting its least recently written other uploads while it
    /// would pass `maximumPendingBytes`; refuses (counting nothing) when even that is not enough.
    private func reserve(_ delta: Int64, key: Int64, fileId: Int64) throws(Failure) {
        var forget: [Int64] = []
        defer {
            for other in forget { try? manager.removeItem(at: uploadFolder(key: key, fileId: other)) }
        }
        lock.lock()
        defer { lock.unlock() }
        var uploads = pending[key] ?? [:]
        var total = uploads.values.reduce(0) { $0 + $1.bytes } + delta
        while total > maximumPendingBytes,
            let oldest = uploads.filter({ $0.key != fileId }).min(by: { $0.value.touched < $1.value.touched })
        {
            total -= oldest.value.bytes
            uploads[oldest.key] = nil
            forget.append(oldest.key)
        }
        guard total <= maximumPendingBytes else {
            forget = []
            throw .pendingBytesExceeded
        }
        touches += 1
        uploads[fileId] = ((uploads[fileId]?.bytes ?? 0) + delta, touches)
        pending[key] = uploads
    }

    /// Stops counting an upload that was assembled or forgotten.
    private func release(key: Int64, fileId: Int64) {
        lock.withLock {
            pending[key]?[fileId] = nil
            if pending[key]?.isEmpty == true { pending[key] = nil }
        }
    }

    /// Forgets the oldest uploads of a key until a new one fits under `maximumPendingUploads`.
    private func makeRoom(in keyFolder: URL, key: Int64) throws {
        guard
            let uploads = try? manager.contentsOfDirectory(
                at: keyFolder, includingPropertiesForKeys: [.contentModificationDateKey])
        else {
            return
        }
        guard uploads.count >= Self.maximumPendingUploads else { return }
        let byAge = uploads.sorted { modified($0) < modified($1) }
        for folder in byAge.prefix(uploads.count - Self.maximumPendingUploads + 1) {
            try? manager.removeItem(at: folder)
            if let fileId = UInt64(folder.lastPathComponent, radix: 16) {
                release(key: key, fileId: Int64(bitPattern: fileId))
            }
        }
    }

    private func modified(_ url: URL) -> Date {
        (try? url.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast
    }

    /// Joins parts 0..<parts of an upload into a stored file and forgets the parts.
    public func assemble(key: Int64, fileId: Int64, parts: Int) throws(Failure) -> Blob {
        let folder = uploadFolder(key: key, fileId: fileId)
        let temporary = files.appendingPathComponent(".incoming-\(UUID().uuidString)")
        guard manager.createFile(atPath: temporary.path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = try? FileHandle(forWritingTo: temporary)
        else { throw .io("cannot create \(temporary.path)") }
        defer { try? manager.removeItem(at: temporary) }
        let digest = SHA256Stream()
        var size: Int64 = 0
        var partSize: Int?
        do {
            defer { try? handle.close() }
            for part in 0..<parts {
                guard let data = manager.contents(atPath: folder.appendingPathComponent(String(part)).path) else {
                    throw Failure.missingPart(part)
                }
                if let partSize, part < parts - 1 ? data.count != partSize : data.count > partSize {
                    throw Failure.partSizeChanged
                }
                if partSize == nil { partSize = data.count }
                digest.update([UInt8](data))
                try handle.write(contentsOf: data)
                size += Int64(data.count)
            }
            try handle.synchronize()
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .io("\(error)")
        }
        let blob = Blob(sha256: Self.hex(digest.finish()), size: size, partSize: partSize ?? 0)
        try place(temporary, as: blob)
        try? manager.removeItem(at: folder)
        release(key: key, fileId: fileId)
        return blob
    }

    /// Stores bytes the server made itself (a photo size).
    public func store(_ bytes: [UInt8]) throws(Failure) -> Blob {
        let blob = Blob(sha256: Self.hex(Digest.sha256(bytes)), size: Int64(bytes.count), partSize: bytes.count)
        guard !manager.fileExists(atPath: path(of: blob.sha256).path) else { return blob }
        let temporary = files.appendingPathComponent(".incoming-\(UUID().uuidString)")
        defer { try? manager.removeItem(at: temporary) }
        do {
            try SecretFile.write(bytes, to: temporary.path)
        } catch {
            throw .io("\(error)")
        }
        try place(temporary, as: blob)
        return blob
    }

    private func place(_ temporary: URL, as blob: Blob) throws(Failure) {
        let target = path(of: blob.sha256)
        guard !manager.fileExists(atPath: target.path) else { return }
        do {
            try manager.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            try manager.moveItem(at: temporary, to: target)
        } catch {
            if !manager.fileExists(atPath: target.path) { throw .io("\(error)") }
        }
    }

    // MARK: - Reading

    private func path(of sha256: String) -> URL {
        files.appendingPathComponent(String(sha256.prefix(2))).appendingPathComponent(sha256)
    }

    /// Up to `limit` bytes of a stored file from `offset` (fewer at its end, none past it).
    public func read(sha256: String, offset: Int64, limit: Int) throws(Failure) -> [UInt8] {
        guard sha256.count == 64, sha256.allSatisfy(\.isHexDigit),
            let handle = FileHandle(forReadingAtPath: path(of: sha256).path)
        else {
            throw .noSuchFile
        }
        defer { try? handle.close() }
        do {
            try handle.seek(toOffset: UInt64(max(0, offset)))
            return [UInt8](try handle.read(upToCount: limit) ?? Data())
        } catch {
            throw .io("\(error)")
        }
    }

    /// Forgets uploads untouched for `uploadLifetime`; returns how many.
    @discardableResult
    public func sweep(now: Date = Date()) -> Int {
        var removed = 0
        for keyFolder in (try? manager.contentsOfDirectory(at: uploads, includingPropertiesForKeys: nil)) ?? [] {
            for upload
                in (try? manager.contentsOfDirectory(
                    at: keyFolder, includingPropertiesForKeys: [.contentModificationDateKey])) ?? []
            where now.timeIntervalSince(modified(upload)) > Self.uploadLifetime {
                try? manager.removeItem(at: upload)
                removed += 1
            }
        }
        return removed
    }

    static func hex(_ bytes: [UInt8]) -> String { MemoryBuffer(bytes).hexString }
}
