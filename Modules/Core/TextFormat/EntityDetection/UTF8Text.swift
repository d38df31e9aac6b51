/// Text as UTF-8 bytes with the code-point steps the entity matchers take, as TDLib scans text
/// (`next_utf8_unsafe` / `prev_utf8_unsafe` in tdutils): positions are byte offsets; the text is valid UTF-8 (made
/// from a Swift `String`), so every step lands on a code-point boundary.
struct UTF8Text {
    let bytes: [UInt8]

    init(_ string: String) {
        bytes = Array(string.utf8)
    }

    var count: Int { bytes.count }

    subscript(_ index: Int) -> UInt8 { bytes[index] }

    /// The code point starting at `index` and the index after it.
    func next(_ index: Int) -> (code: UInt32, end: Int) {
        let first = bytes[index]
        if first < 0x80 { return (UInt32(first), index + 1) }
        if first < 0xE0, index + 1 < bytes.count {
            return ((UInt32(first & 0x1F) << 6) | UInt32(bytes[index + 1] & 0x3F), index + 2)
        }
        if first < 0xF0, index + 2 < bytes.count {
            return (
                (UInt32(first & 0x0F) << 12) | (UInt32(bytes[index + 1] & 0x3F) << 6) | UInt32(bytes[index + 2] & 0x3F),
                index + 3
            )
        }
        if index + 3 < bytes.count {
            return (
                (UInt32(first & 0x07) << 18) | (UInt32(bytes[index + 1] & 0x3F) << 12)
                    | (UInt32(bytes[index + 2] & 0x3F) << 6) | UInt32(bytes[index + 3] & 0x3F),
                index + 4
            )
        }
        return (UInt32(first), index + 1)
    }

    /// The start of the code point that ends at `index`.
    func previousStart(_ index: Int) -> Int {
        var start = index - 1
        while start > 0 && bytes[start] & 0xC0 == 0x80 { start -= 1 }
        return start
    }

    /// The code point that ends at `index` (`index` > 0).
    func previous(_ index: Int) -> UInt32 { next(previousStart(index)).code }

    /// The code point at `index`, or 0 at the end (TDLib's "no next character").
    func codeOrZero(at index: Int) -> UInt32 { index < bytes.count ? next(index).code : 0 }

    /// The bytes in `range` as a string.
    func string(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
}
