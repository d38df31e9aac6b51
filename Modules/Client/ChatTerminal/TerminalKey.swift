/// A key as the interactive client understands it, decoded from a terminal's bytes.
public enum TerminalKey: Equatable, Sendable {
    /// A printable character (including a pasted one).
    case character(Character)
    case enter
    case backspace
    case escape
    case tab
    case up
    case down
    case left
    case right
    case pageUp
    case pageDown
    case home
    case end
    /// Ctrl and a letter (`ctrl("c")` is Ctrl-C, unless the terminal turns it into SIGINT).
    case ctrl(Character)
}

/// Turns a terminal's input bytes into keys (VT100/xterm sequences: `ESC [ A` arrows, `ESC [ 5 ~` page up, …).
/// Bytes of an incomplete sequence or a split UTF-8 character wait for the next call; unknown sequences are dropped,
/// never trapped on.
public struct TerminalKeyDecoder: Sendable {
    private var pending: [UInt8] = []

    public init() {}

    /// Whether a lone ESC is waiting: the shell calls `flushEscape()` when no more bytes follow within a moment.
    public var hasPendingEscape: Bool { pending == [0x1B] }

    /// The keys `bytes` complete.
    public mutating func decode(_ bytes: [UInt8]) -> [TerminalKey] {
        pending += bytes
        var keys: [TerminalKey] = []
        var index = 0
        while index < pending.count {
            guard let (key, length) = Self.key(at: index, in: pending) else { break }
            if let key { keys.append(key) }
            index += length
        }
        pending.removeFirst(index)
        return keys
    }

    /// A lone ESC that no sequence followed is the Escape key.
    public mutating func flushEscape() -> [TerminalKey] {
        guard hasPendingEscape else { return [] }
        pending = []
        return [.escape]
    }

    /// The key starting at `index` and its length; nil when the bytes end inside it; a nil key for bytes to drop.
    static func key(at index: Int, in bytes: [UInt8]) -> (TerminalKey?, Int)? {
        let byte = bytes[index]
        switch byte {
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x09: return (.tab, 1)
        case 0x1B: return escapeSequence(at: index, in: bytes)
        case 0x01...0x1A: return (.ctrl(Character(Unicode.Scalar(byte + 0x60))), 1)
        case 0x00, 0x1C...0x1F: return (nil, 1)
        default: return utf8Character(at: index, in: bytes)
        }
    }

    static func escapeSequence(at index: Int, in bytes: [UInt8]) -> (TerminalKey?, Int)? {
        guard index + 1 < bytes.count else { return nil }
        let next = bytes[index + 1]
        guard next == UInt8(ascii: "[") || next == UInt8(ascii: "O") else {
            // ESC then something else: Escape, and the rest is read on its own.
            return (.escape, 1)
        }
        var end = index + 2
        while end < bytes.count, (0x30...0x3F).contains(bytes[end]) { end += 1 }
        guard end < bytes.count else { return end - index > 16 ? (nil, end - index) : nil }
        let parameters = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
        let final = bytes[end]
        let length = end - index + 1
        switch (final, parameters) {
        case (UInt8(ascii: "A"), _): return (.up, length)
        case (UInt8(ascii: "B"), _): return (.down, length)
        case (UInt8(ascii: "C"), _): return (.right, length)
        case (UInt8(ascii: "D"), _): return (.left, length)
        case (UInt8(ascii: "H"), _): return (.home, length)
        case (UInt8(ascii: "F"), _): return (.end, length)
        case (UInt8(ascii: "~"), "5"): return (.pageUp, length)
        case (UInt8(ascii: "~"), "6"): return (.pageDown, length)
        case (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): return (.home, length)
        case (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): return (.end, length)
        default: return (nil, length)
        }
    }

    static func utf8Character(at index: Int, in bytes: [UInt8]) -> (TerminalKey?, Int)? {
        let byte = bytes[index]
        let length: Int
        switch byte {
        case 0x00...0x7F: length = 1
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return (nil, 1)
        }
        guard index + length <= bytes.count else { return nil }
        let slice = Array(bytes[index..<(index + length)])
        guard let text = String(validating: slice, as: UTF8.self), let character = text.first else { return (nil, 1) }
        return (.character(character), length)
    }
}
