/// A peer's identity: a 3-bit namespace and an id, packed into one Int64 for keys (Telegram-iOS Postbox).
public struct PeerId: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The peer namespace (TelegramCore: CloudUser 0, CloudGroup 1, CloudChannel 2, SecretChat 3, Empty 7).
    public struct Namespace: RawRepresentable, Hashable, Comparable, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue & 0x7 }
        /// The largest namespace (7), used for the empty peer id.
        public static let max = Namespace(rawValue: 7)
        public static func < (lhs: Namespace, rhs: Namespace) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The id within a namespace.
    public struct Id: RawRepresentable, Hashable, Comparable, Sendable {
        public let rawValue: Int64
        public init(rawValue: Int64) { self.rawValue = rawValue }
        /// The id of a 32-bit legacy value.
        public static func _internalFromInt32Value(_ value: Int32) -> Id { Id(rawValue: Int64(value)) }
        public static func < (lhs: Id, rhs: Id) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public let namespace: Namespace
    public let id: Id

    /// A peer id from its parts.
    public init(namespace: Namespace, id: Id) {
        self.namespace = namespace
        self.id = id
    }

    /// Unpacks `toInt64()`: bits 0–31 id low, bits 32–34 namespace, bits 35–63 id high (Telegram-iOS Postbox).
    public init(_ value: Int64) {
        let raw = UInt64(bitPattern: value)
        let low = UInt32(truncatingIfNeeded: raw)
        let high = UInt32(truncatingIfNeeded: raw >> 32)
        if high == 0x7fff_ffff && low == 0 {
            self.init(namespace: .max, id: Id(rawValue: 0))
            return
        }
        let namespace = Int32(high & 0x7)
        let idHigh = high >> 3
        if namespace == 3 && idHigh == 0 {
            // Secret chats keep a signed 32-bit id.
            self.init(namespace: Namespace(rawValue: 3), id: Id(rawValue: Int64(Int32(bitPattern: low))))
            return
        }
        let id = (UInt64(idHigh) << 32) | UInt64(low)
        self.init(namespace: Namespace(rawValue: namespace), id: Id(rawValue: Int64(bitPattern: id)))
    }

    /// Packs the namespace into bits 32–34 and the id around it.
    public func toInt64() -> Int64 {
        let idBits = UInt64(bitPattern: id.rawValue)
        let low = UInt32(truncatingIfNeeded: idBits)
        let idHigh = UInt32(truncatingIfNeeded: idBits >> 32) & 0x1fff_ffff
        let high = (idHigh << 3) | UInt32(namespace.rawValue & 0x7)
        let effectiveHigh =
            namespace.rawValue == 3 && (id.rawValue < 0 && id.rawValue >= Int64(Int32.min))
            ? UInt32(3) : high
        return Int64(bitPattern: (UInt64(effectiveHigh) << 32) | UInt64(low))
    }

    public static func < (lhs: PeerId, rhs: PeerId) -> Bool {
        if lhs.namespace != rhs.namespace { return lhs.namespace < rhs.namespace }
        return lhs.id < rhs.id
    }

    public var description: String { "\(namespace.rawValue):\(id.rawValue)" }
}
