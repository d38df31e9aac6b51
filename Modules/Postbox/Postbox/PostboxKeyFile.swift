import Glibc
import SecretFiles

/// Where a Postbox's key is stored: a file of 48 raw bytes or 96 hex digits (key ‖ salt), and, while a rekey is
/// under way, the new key in `<path>.pending` beside it.
///
/// Every write goes through `SecretFile` (0600, `O_EXCL | O_NOFOLLOW`, fsync, rename), every read refuses links and
/// oversized files, and the two-phase rekey and the recovery that finishes an interrupted one hold an exclusive
/// `flock` on `<path>.lock`, so two processes never resolve or rekey the same key at once. Errors name the file
/// and never hold its contents.
public struct PostboxKeyFile: Sendable, Equatable, CustomStringConvertible {
    /// The key file.
    public let path: String

    /// A key file at `path` (it need not exist yet).
    public init(path: String) {
        self.path = path
    }

    /// `<path>.pending`: the new key during a rekey.
    public var pendingPath: String { path + ".pending" }

    /// `<path>.lock`: the lock that serializes rekeys and recoveries.
    var lockPath: String { path + ".lock" }

    public var description: String { "PostboxKeyFile(\(path))" }

    /// The stored key.
    public func read() throws(PostboxError) -> PostboxEncryptionParameters {
        try Self.parse(try readBytes(path), path: path)
    }

    /// Stores `key` as a new key file (48 raw bytes); throws when the file exists.
    public func create(_ key: PostboxEncryptionParameters) throws(PostboxError) {
        do {
            try SecretFile.create(key.key + key.salt, at: path)
        } catch {
            throw .keyFile(path: path, detail: "\(error)")
        }
    }

    /// The pending key, or `nil` when no rekey is under way.
    func readPending() throws(PostboxError) -> PostboxEncryptionParameters? {
        guard access(pendingPath, F_OK) == 0 || isLink(pendingPath) else { return nil }
        return try Self.parse(try readBytes(pendingPath), path: pendingPath)
    }

    /// Phase one of a rekey: records `key` in `<path>.pending`; throws when a pending key is already there.
    func recordPending(_ key: PostboxEncryptionParameters) throws(PostboxError) {
        do {
            try SecretFile.create(key.key + key.salt, at: pendingPath)
        } catch .exists {
            throw .keyFile(
                path: pendingPath,
                detail: "exists: a rekey was interrupted; open the Postbox with this key file to "
                    + "finish it or roll it back, then rekey again")
        } catch {
            throw .keyFile(path: pendingPath, detail: "\(error)")
        }
    }

    /// Phase three: `key` (the pending one) replaces the stored key, in the stored key's format (raw or hex), and
    /// the pending file goes.
    func commitPending(_ key: PostboxEncryptionParameters) throws(PostboxError) {
        let wasHex = (try? readBytes(path)).map { $0.count != 48 } ?? false
        let raw = key.key + key.salt
        let bytes = wasHex ? Array((raw.map { String($0, radix: 16).leftPadded(to: 2) }.joined() + "\n").utf8) : raw
        do { try SecretFile.write(bytes, to: path) } catch { throw .keyFile(path: path, detail: "\(error)") }
        discardPending()
    }

    /// Removes the pending key (the rekey did not happen, or it has been committed) and stray temporary files.
    func discardPending() {
        unlink(pendingPath)
        removeTemporaryFiles()
        syncDirectory()
    }

    /// Runs `body` holding an exclusive `flock` on `<path>.lock` (created 0600 when missing).
    func withLock<T>(_ body: () throws(PostboxError) -> T) throws(PostboxError) -> T {
        let fd = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, SecretFile.fileMode)
        guard fd >= 0 else {
            throw .keyFile(path: lockPath, detail: "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw .keyFile(path: lockPath, detail: "cannot lock: \(String(cString: strerror(errno)))")
            }
        }
        return try body()
    }

    // MARK: - Helpers

    private func readBytes(_ file: String) throws(PostboxError) -> [UInt8] {
        do {
            return try SecretFile.read(file, maximumSize: 4096)
        } catch {
            throw .keyFile(path: file, detail: "\(error)")
        }
    }

    /// Key material from a key file's bytes: exactly 48 raw bytes, or 96 hex digits (whitespace ignored).
    static func parse(_ bytes: [UInt8], path: String) throws(PostboxError) -> PostboxEncryptionParameters {
        if bytes.count == 48 { return try PostboxEncryptionParameters(keyAndSalt: bytes) }
        do {
            return try PostboxEncryptionParameters(hex: String(decoding: bytes, as: UTF8.self))
        } catch {
            throw .keyFile(
                path: path,
                detail: "holds \(bytes.count) bytes that are neither 48 raw bytes nor 96 hex digits (key ‖ salt)")
        }
    }

    private func isLink(_ file: String) -> Bool {
        var info = stat()
        return lstat(file, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    /// Deletes `<path>.tmp-*` and `<path>.pending.tmp-*` left by a write that was killed before its rename.
    func removeTemporaryFiles() {
        let (folder, name) = split()
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        var stale: [String] = []
        while let entry = readdir(directory) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if entryName.hasPrefix(name + ".tmp-") || entryName.hasPrefix(name + ".pending.tmp-") {
                stale.append(folder + "/" + entryName)
            }
        }
        for file in stale { unlink(file) }
    }

    private func syncDirectory() {
        let fd = open(split().folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    private func split() -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = slash == path.startIndex ? "/" : String(path[..<slash])
        return (folder, String(path[path.index(after: slash)...]))
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
