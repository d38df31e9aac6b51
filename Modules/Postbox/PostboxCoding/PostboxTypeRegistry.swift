import Hashing
import Synchronization

/// The decoders of PostboxCoding types, keyed by the 32-bit MurmurHash3 of the type's name (Telegram-iOS
/// `Coding.swift` `declareEncodable`).
public final class PostboxTypeRegistry: Sendable {
    /// Makes an object from a decoder positioned on its fields.
    public typealias Decode = @Sendable (PostboxDecoder) throws -> PostboxCoding

    /// The process-wide registry that `PostboxDecoder` consults.
    public static let shared = PostboxTypeRegistry()

    private let table = Mutex<[Int32: Decode]>([:])

    /// The hash stored with objects of `type`: `MurMurHash32.hashString("\(type)")`, worked out once per type (the
    /// type's name is slow to make, and every object encoded or decoded asks for it).
    public static func typeHash(of type: Any.Type) -> Int32 {
        let key = ObjectIdentifier(type)
        if let known = knownHashes.withLock({ $0[key] }) { return known }
        let hash = MurMurHash32.hashString("\(type)")
        knownHashes.withLock { $0[key] = hash }
        return hash
    }

    private static let knownHashes = Mutex<[ObjectIdentifier: Int32]>([:])

    /// Registers `type` so objects of it decode from any stored record. `SendableMetatype`: the stored decoder
    /// closure is `@Sendable` and calls `T.init(decoder:)` from any thread, so `T`'s conformance must not be
    /// isolated to one actor.
    public func declare<T: PostboxCoding & SendableMetatype>(_ type: T.Type) {
        let hash = Self.typeHash(of: type)
        let decode: Decode = { decoder in try T(decoder: decoder) }
        table.withLock { $0[hash] = decode }
    }

    /// The decoder registered for `hash`.
    public func decoder(for hash: Int32) -> Decode? {
        table.withLock { $0[hash] }
    }
}

/// Registers `type` in the shared registry (Telegram's `declareEncodable`).
public func declareEncodable<T: PostboxCoding & SendableMetatype>(_ type: T.Type) {
    PostboxTypeRegistry.shared.declare(type)
}
