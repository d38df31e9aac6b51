/// The small interface of a hot-key store (chat-list state, presences, sticker-pack cache): point reads and
/// writes of short binary keys (the hot-key experiment of BENCHMARKS.md).
public protocol HotKeyValueStore: AnyObject {
    /// The value under `key`.
    func get(_ key: [UInt8]) throws -> [UInt8]?
    /// Writes every pair in one durable transaction.
    func set(_ pairs: [(key: [UInt8], value: [UInt8])]) throws
    /// Removes `key`.
    func remove(_ key: [UInt8]) throws
    /// Calls `body` for each key in `keys` with its value, inside one read transaction.
    func read(_ keys: [[UInt8]], _ body: ([UInt8], [UInt8]?) -> Void) throws
}
