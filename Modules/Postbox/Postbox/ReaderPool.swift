import Glibc
import SQLite
import ValueBox

/// The reader connections of a Postbox and the key they open with, coordinated with rekeying.
///
/// A reader is checked out for one read transaction and checked back in. Each carries the key generation it was
/// opened with; a rekey first closes the pool (new check-outs wait), waits until every checked-out reader is back,
/// drops them all, and reopens the pool with the new key. A reader from before a rekey is never reused.
///
/// `@unchecked Sendable`: every field is read and written under `mutex`, and `condition` is only waited on and
/// signalled with `mutex` held.
final class ReaderPool: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var idle: [SqliteValueBox] = []
    private var checkedOut = 0
    private var closed = false
    private var generation = 0
    private var key: Database.CipherKey?

    /// A checked-out reader: its connection and the key generation it was opened under.
    struct Reader {
        let valueBox: SqliteValueBox
        let generation: Int
    }

    init(key: Database.CipherKey?) {
        self.key = key
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits on the condition (mutex held) until `deadline` (CLOCK_MONOTONIC); `false` when it passed.
    private func wait(until deadline: timespec) -> Bool {
        var deadline = deadline
        return pthread_cond_timedwait(condition, mutex, &deadline) != ETIMEDOUT
    }

    /// A reader for one read transaction: an idle one, or a new connection opened by `open` with the current key.
    /// Waits while a rekey is in progress.
    func checkOut(_ open: (Database.CipherKey?) throws -> SqliteValueBox) throws -> Reader {
        let (reuse, generation, key): (SqliteValueBox?, Int, Database.CipherKey?) = locked {
            while closed { pthread_cond_wait(condition, mutex) }
            checkedOut += 1
            return (idle.popLast(), self.generation, self.key)
        }
        if let reuse { return Reader(valueBox: reuse, generation: generation) }
        do {
            return Reader(valueBox: try open(key), generation: generation)
        } catch {
            locked {
                checkedOut -= 1
                pthread_cond_broadcast(condition)
            }
            throw error
        }
    }

    /// Returns a reader after its transaction. One opened before the last rekey is dropped (and so closed).
    func checkIn(_ reader: Reader) {
        locked {
            checkedOut -= 1
            if reader.generation == generation && !closed { idle.append(reader.valueBox) }
            pthread_cond_broadcast(condition)
        }
    }

    /// Stops new check-outs, waits up to `timeout` seconds for every checked-out reader to come back, and closes
    /// the idle ones. Returns the number still out when the time ran out (then the pool is open again), else 0.
    func drain(timeout: Double) -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nanoseconds = Int(now.tv_nsec) + Int(timeout.truncatingRemainder(dividingBy: 1) * 1e9)
        let deadline = timespec(
            tv_sec: now.tv_sec + Int(timeout) + nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
        return locked {
            closed = true
            while checkedOut > 0 {
                if !wait(until: deadline) && checkedOut > 0 {
                    let remaining = checkedOut
                    closed = false
                    pthread_cond_broadcast(condition)
                    return remaining
                }
            }
            idle.removeAll()
            return 0
        }
    }

    /// Opens the pool again after `drain`, with the key it had.
    func reopen() {
        locked {
            closed = false
            pthread_cond_broadcast(condition)
        }
    }

    /// Opens the pool again after `drain`: readers from now on open with `newKey`, and none from before is reused.
    func reopen(rekeyedTo newKey: Database.CipherKey?) {
        locked {
            key = newKey
            generation += 1
            idle.removeAll()
            closed = false
            pthread_cond_broadcast(condition)
        }
    }

    /// The number of idle readers (for tests).
    var idleCount: Int { locked { idle.count } }
}
