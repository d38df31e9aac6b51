/// Constructors a reader accepts in place of others where a given type is expected: reading a boxed `T` that
/// begins with constructor `id`, a reader with substitutions reads it as constructor `replacement` of `T` instead.
///
/// Only meant for constructors whose fields are laid out identically (the two ids differ, the bytes after them read
/// the same), such as Telegram's `inputPeerUser#dde8a54c` and `inputUser#f21158c6` (both `long`, `long`): a server
/// that accepts what Telegram accepts reads the first where the schema names `InputUser`. A reader without
/// substitutions (every client's) reads exactly the schema.
public struct TLConstructorSubstitutions: Sendable {
    @usableFromInline var table: [ObjectIdentifier: [UInt32: UInt32]] = [:]

    /// No substitutions.
    public init() {}

    /// Where a boxed `type` is expected, reads constructor `id` as `replacement` (a constructor of `type`).
    public mutating func read<T>(_ id: UInt32, as replacement: UInt32, where type: T.Type) {
        table[ObjectIdentifier(type), default: [:]][id] = replacement
    }

    /// The constructor to read for `id` where a boxed `type` is expected, if it is substituted.
    @inlinable
    public func replacement<T>(for id: UInt32, expecting type: T.Type) -> UInt32? {
        table[ObjectIdentifier(type)]?[id]
    }

    /// Whether there are none.
    @inlinable
    public var isEmpty: Bool { table.isEmpty }
}
