import Foundation

/// Cold-cache runs without root: the kernel is asked to drop the cached pages of a database's files with
/// `posix_fadvise(POSIX_FADV_DONTNEED)` after `fdatasync` (dirty pages cannot be dropped), and `mincore` on a
/// read-only mapping tells how many pages are still resident, so a table can say how cold the run really was.
public enum PageCache {
    /// Pages of `paths` (missing files skipped) in the page cache, and their total.
    public static func residency(_ paths: [String]) -> (resident: Int, total: Int) {
        var resident = 0
        var total = 0
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        for path in paths {
            let fd = open(path, O_RDONLY)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0, info.st_size > 0 else { continue }
            let size = Int(info.st_size)
            guard let mapping = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0), mapping != MAP_FAILED else { continue }
            defer { munmap(mapping, size) }
            let pages = (size + pageSize - 1) / pageSize
            var vector = [UInt8](repeating: 0, count: pages)
            guard mincore(mapping, size, &vector) == 0 else { continue }
            total += pages
            resident += vector.reduce(0) { $0 + Int($1 & 1) }
        }
        return (resident, total)
    }

    /// Writes back and drops the cached pages of `paths` (missing files skipped); returns the pages still resident
    /// afterwards and the total.
    @discardableResult
    public static func drop(_ paths: [String]) -> (resident: Int, total: Int) {
        for path in paths {
            let fd = open(path, O_RDONLY)
            guard fd >= 0 else { continue }
            fdatasync(fd)
            _ = posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_DONTNEED))
            close(fd)
        }
        return residency(paths)
    }

    /// A SQLite database's files: the database, its WAL and its shared-memory index.
    public static func sqliteFiles(_ path: String) -> [String] { [path, path + "-wal", path + "-shm"] }
}
