import Dispatch
import Foundation
import Glibc
import SQLite
import Testing

/// SQLCipher's log target is one process-wide `FILE*` that `PRAGMA cipher_log` closes and reopens without a lock:
/// keying must not touch it, or connections keyed at once close the same stream twice and corrupt the C library's
/// list of open streams (which showed as a test process spinning forever in its exit-time flush).
@Suite struct CipherLogTests {
    /// Descriptors this process holds on `/dev/null` opened for appending — what `fopen("/dev/null", "a")` makes.
    static func appendingNullDescriptors() -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.filter { name in
            guard (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)")) == "/dev/null",
                let info = try? String(contentsOfFile: "/proc/self/fdinfo/\(name)", encoding: .utf8),
                let flags = info.split(separator: "\n").first(where: { $0.hasPrefix("flags:") })
                    .flatMap({ Int($0.dropFirst("flags:".count).trimmingCharacters(in: .whitespaces), radix: 8) })
            else { return false }
            return flags & Int(O_APPEND) != 0
        }.count
    }

    @Test func keyingAConnectionOpensNoLogStream() throws {
        let before = Self.appendingNullDescriptors()
        let databases = try (0..<3).map { _ in
            let database = try Database(path: temporaryPath("db_sqlite"))
            try database.applyKey(testKey)
            return database
        }
        #expect(Self.appendingNullDescriptors() == before)
        withExtendedLifetime(databases) {}
    }

    @Test func connectionsKeyedAtOnceStayUsable() throws {
        let failures = LockedCount()
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            do {
                let database = try Database(path: temporaryPath("db_sqlite"))
                try database.applyKey(testKey)
                try database.execute("CREATE TABLE t (x)")
            } catch {
                failures.add()
            }
        }
        #expect(failures.value == 0)
    }
}

/// A counter shared by concurrent iterations. `@unchecked Sendable`: `count` is read and written under `lock`.
final class LockedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
