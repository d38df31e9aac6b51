import Glibc

/// Files that hold secrets (RSA private keys, auth keys, database keys): created owner-only from the first byte,
/// never through a symbolic link, written whole and made durable before they take their name.
///
/// A secret is never written with a default mode and `chmod`-ed afterwards: the file is opened with
/// `O_CREAT | O_EXCL | O_NOFOLLOW` and mode 0600, so no other user can open it in between, and a link planted at
/// the temporary name is refused rather than followed. The folders that hold them are 0700.
public enum SecretFile {
    /// The mode of every secret file.
    public static let fileMode: UInt32 = 0o600
    /// The mode of every folder that holds secret files.
    public static let directoryMode: UInt32 = 0o700
    /// The largest secret this module reads (an RSA key file is under 4 KB; a database key file a few hundred bytes).
    public static let maximumReadSize = 1 << 20

    /// Creates `path` and any missing parents with mode 0700. An existing folder is tightened to 0700; a symbolic
    /// link or a file in its place is an error.
    public static func createDirectory(_ path: String) throws(SecretFileError) {
        var parts: [String] = []
        var current = path
        while !current.isEmpty, current != "/", !isDirectory(current, followLinks: true) {
            parts.append(current)
            current = parent(of: current)
        }
        for part in parts.reversed() where mkdir(part, directoryMode) != 0 && errno != EEXIST {
            throw .system(operation: "mkdir", path: part, code: errno)
        }
        guard isDirectory(path, followLinks: false) else { throw .notADirectory(path) }
        guard chmod(path, directoryMode) == 0 else { throw .system(operation: "chmod", path: path, code: errno) }
    }

    /// Writes `bytes` to `path`, replacing what was there: a 0600 temporary sibling created with
    /// `O_CREAT | O_EXCL | O_NOFOLLOW`, written, `fsync`ed, renamed over `path`, then the folder `fsync`ed.
    public static func write(_ bytes: [UInt8], to path: String) throws(SecretFileError) {
        let temporary = try writeTemporary(bytes, beside: path)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw .system(operation: "rename", path: path, code: code)
        }
        syncDirectory(of: path)
    }

    /// Writes `bytes` to `path` only if nothing has that name yet: the complete, synced temporary file is linked
    /// to `path` (`link` fails when the name exists), so a reader sees either nothing or the whole secret, and an
    /// existing secret is never replaced. Throws `.exists` when the name is taken.
    public static func create(_ bytes: [UInt8], at path: String) throws(SecretFileError) {
        let temporary = try writeTemporary(bytes, beside: path)
        defer { unlink(temporary) }
        guard link(temporary, path) == 0 else {
            let code = errno
            if code == EEXIST { throw .exists(path) }
            throw .system(operation: "link", path: path, code: code)
        }
        syncDirectory(of: path)
    }

    /// Reads a secret file without following a symbolic link, refusing files larger than `maximumSize`.
    public static func read(_ path: String, maximumSize: Int = maximumReadSize) throws(SecretFileError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { throw .missing(path) }
            if code == ELOOP { throw .symbolicLink(path) }
            throw .system(operation: "open", path: path, code: code)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .system(operation: "fstat", path: path, code: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notARegularFile(path) }
        let size = Int(info.st_size)
        guard size <= maximumSize else { throw .tooLarge(path, size: size, limit: maximumSize) }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + done, size - done) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw .system(operation: "read", path: path, code: n < 0 ? errno : EIO) }
            done += n
        }
        return bytes
    }

    /// The permission bits of `path` (without following a link), or nil when it does not exist.
    public static func mode(of path: String) -> UInt32? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return UInt32(info.st_mode & 0o7777)
    }

    // MARK: - Helpers

    /// Creates, fills and syncs a fresh 0600 file next to `path`; returns its name.
    private static func writeTemporary(_ bytes: [UInt8], beside path: String) throws(SecretFileError) -> String {
        var fd: Int32 = -1
        var temporary = ""
        for _ in 0..<16 {
            temporary = "\(path).tmp-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, fileMode)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw .system(operation: "open", path: temporary, code: errno) }
        var failure: SecretFileError?
        var done = 0
        while done < bytes.count, failure == nil {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 {
                failure = .system(operation: "write", path: temporary, code: n < 0 ? errno : EIO)
            } else {
                done += n
            }
        }
        // The mode argument of open is masked by the umask; set it exactly (it can only be tighter than 0600).
        if failure == nil, fchmod(fd, fileMode) != 0 {
            failure = .system(operation: "fchmod", path: temporary, code: errno)
        }
        if failure == nil, fsync(fd) != 0 { failure = .system(operation: "fsync", path: temporary, code: errno) }
        close(fd)
        if let failure {
            unlink(temporary)
            throw failure
        }
        return temporary
    }

    private static func syncDirectory(of path: String) {
        let fd = open(parent(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func isDirectory(_ path: String, followLinks: Bool) -> Bool {
        var info = stat()
        let status = followLinks ? stat(path, &info) : lstat(path, &info)
        return status == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
