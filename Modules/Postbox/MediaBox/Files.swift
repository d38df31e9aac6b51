import Glibc

/// The POSIX file calls MediaBox needs (no Foundation, so small processes can link it).
enum Files {
    struct Entry {
        let name: String
        let size: Int64
        let modified: Int64
    }

    static func makeDirectories(_ path: String) throws(MediaBoxError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o700) != 0 && errno != EEXIST { throw .io(path: current, errno: errno) }
        }
    }

    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    static func remove(_ path: String) { unlink(path) }

    static func rename(_ from: String, _ to: String) throws(MediaBoxError) {
        if Glibc.rename(from, to) != 0 { throw .io(path: to, errno: errno) }
    }

    static func truncate(_ path: String, _ size: Int64) throws(MediaBoxError) {
        if Glibc.truncate(path, off_t(size)) != 0 { throw .io(path: path, errno: errno) }
    }

    /// Writes `bytes` at `offset` of `path` (created when missing).
    static func write(_ path: String, _ bytes: [UInt8], at offset: Int64) throws(MediaBoxError) {
        let fd = open(path, O_WRONLY | O_CREAT, 0o600)
        guard fd >= 0 else { throw .io(path: path, errno: errno) }
        defer { close(fd) }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes {
                pwrite(fd, $0.baseAddress! + written, bytes.count - written, off_t(offset) + off_t(written))
            }
            guard result > 0 else { throw .io(path: path, errno: errno) }
            written += result
        }
    }

    /// Writes `bytes` to a temporary file beside `path`, then renames it over `path`.
    static func writeAtomically(_ path: String, _ bytes: [UInt8]) throws(MediaBoxError) {
        let temporary = path + ".tmp\(getpid())"
        remove(temporary)
        if !bytes.isEmpty {
            try write(temporary, bytes, at: 0)
        } else {
            let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            guard fd >= 0 else { throw .io(path: temporary, errno: errno) }
            close(fd)
        }
        try rename(temporary, path)
    }

    static func read(_ path: String) -> [UInt8]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return read(path, range: 0..<Int64(info.st_size))
    }

    static func read(_ path: String, range: Range<Int64>) -> [UInt8]? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: Int(range.count))
        var done = 0
        while done < bytes.count {
            let result = bytes.withUnsafeMutableBytes {
                pread(fd, $0.baseAddress! + done, $0.count - done, off_t(range.lowerBound) + off_t(done))
            }
            guard result > 0 else { return nil }
            done += result
        }
        return bytes
    }

    static func list(_ directory: String) -> [Entry] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var entries: [Entry] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard name != ".", name != ".." else { continue }
            var info = stat()
            guard stat(directory + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            entries.append(Entry(name: name, size: Int64(info.st_size), modified: Int64(info.st_mtim.tv_sec)))
        }
        return entries
    }
}
