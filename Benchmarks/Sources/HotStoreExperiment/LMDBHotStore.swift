import CLMDBPeer
import Synchronization

/// A hot-key store on LMDB: one memory-mapped file, readers without locks, one writer at a time.
///
/// LMDB does not encrypt: whatever is stored here is plaintext on disk, unlike the SQLCipher Postbox.
/// `@unchecked Sendable`: the environment handle is thread-safe for read transactions (`MDB_NOTLS`), and writes are
/// serialised by `writeLock`.
public final class LMDBHotStore: HotKeyValueStore, @unchecked Sendable {
    private var env: OpaquePointer?
    private var dbi: MDB_dbi = 0
    private let writeLock = Mutex<Void>(())

    /// Why an LMDB call failed.
    public struct Failure: Error, CustomStringConvertible {
        public let code: Int32
        public let call: String
        public var description: String { "\(call): \(String(cString: mdb_strerror(code)))" }
    }

    private static func check(_ code: Int32, _ call: String) throws {
        if code != 0 { throw Failure(code: code, call: call) }
    }

    /// Opens (creating) the store file at `path`, mapping up to `mapSize` bytes.
    public init(path: String, mapSize: Int = 1 << 30) throws {
        try Self.check(mdb_env_create(&env), "mdb_env_create")
        try Self.check(mdb_env_set_mapsize(env, mapSize), "mdb_env_set_mapsize")
        try Self.check(mdb_env_open(env, path, UInt32(MDB_NOSUBDIR | MDB_NOTLS), 0o600), "mdb_env_open")
        var txn: OpaquePointer?
        try Self.check(mdb_txn_begin(env, nil, 0, &txn), "mdb_txn_begin")
        try Self.check(mdb_dbi_open(txn, nil, 0, &dbi), "mdb_dbi_open")
        try Self.check(mdb_txn_commit(txn), "mdb_txn_commit")
    }

    deinit { mdb_env_close(env) }

    public func get(_ key: [UInt8]) throws -> [UInt8]? {
        var result: [UInt8]?
        try read([key]) { _, value in result = value }
        return result
    }

    public func read(_ keys: [[UInt8]], _ body: ([UInt8], [UInt8]?) -> Void) throws {
        var txn: OpaquePointer?
        try Self.check(mdb_txn_begin(env, nil, UInt32(MDB_RDONLY), &txn), "mdb_txn_begin")
        defer { mdb_txn_abort(txn) }
        for key in keys {
            var value = MDB_val()
            let code = key.withUnsafeBytes { raw -> Int32 in
                var k = MDB_val(mv_size: raw.count, mv_data: UnsafeMutableRawPointer(mutating: raw.baseAddress))
                return mdb_get(txn, dbi, &k, &value)
            }
            if code == MDB_NOTFOUND {
                body(key, nil)
            } else {
                try Self.check(code, "mdb_get")
                body(key, Array(UnsafeRawBufferPointer(start: value.mv_data, count: value.mv_size)))
            }
        }
    }

    public func set(_ pairs: [(key: [UInt8], value: [UInt8])]) throws {
        try writeLock.withLock { _ in
            var txn: OpaquePointer?
            try Self.check(mdb_txn_begin(env, nil, 0, &txn), "mdb_txn_begin")
            do {
                for (key, value) in pairs {
                    let code = key.withUnsafeBytes { k in
                        value.withUnsafeBytes { v -> Int32 in
                            var mk = MDB_val(
                                mv_size: k.count, mv_data: UnsafeMutableRawPointer(mutating: k.baseAddress))
                            var mv = MDB_val(
                                mv_size: v.count, mv_data: UnsafeMutableRawPointer(mutating: v.baseAddress))
                            return mdb_put(txn, dbi, &mk, &mv, 0)
                        }
                    }
                    try Self.check(code, "mdb_put")
                }
                try Self.check(mdb_txn_commit(txn), "mdb_txn_commit")
            } catch {
                mdb_txn_abort(txn)
                throw error
            }
        }
    }

    public func remove(_ key: [UInt8]) throws {
        try writeLock.withLock { _ in
            var txn: OpaquePointer?
            try Self.check(mdb_txn_begin(env, nil, 0, &txn), "mdb_txn_begin")
            let code = key.withUnsafeBytes { raw -> Int32 in
                var k = MDB_val(mv_size: raw.count, mv_data: UnsafeMutableRawPointer(mutating: raw.baseAddress))
                return mdb_del(txn, dbi, &k, nil)
            }
            guard code == 0 || code == MDB_NOTFOUND else {
                mdb_txn_abort(txn)
                throw Failure(code: code, call: "mdb_del")
            }
            try Self.check(mdb_txn_commit(txn), "mdb_txn_commit")
        }
    }
}
