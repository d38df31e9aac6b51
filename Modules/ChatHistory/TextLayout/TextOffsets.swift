/// UTF-8 ↔ UTF-16 offsets of one string. Pango counts bytes of UTF-8 (`PangoLayoutLine.start_index`,
/// `pango_layout_index_to_pos`); Telegram's entities and this module's results count UTF-16 code units.
///
/// Both tables hold one entry per code unit plus one for the end, so every lookup is O(1). An offset inside a scalar
/// (a continuation byte, the low half of a surrogate pair) maps to the scalar's start; offsets outside the text are
/// clamped to it. Nothing here traps.
struct TextOffsets {
    let utf8Count: Int
    let utf16Count: Int
    private let utf16AtUTF8: [Int]
    private let utf8AtUTF16: [Int]

    init(_ text: String) {
        var text = text
        (utf16AtUTF8, utf8AtUTF16) = text.withUTF8 { bytes in
            var utf16Count = 0
            let utf16AtUTF8 = [Int](unsafeUninitializedCapacity: bytes.count + 1) { table, initialized in
                var utf8 = 0
                while utf8 < bytes.count {
                    // Valid UTF-8 (a Swift string): the lead byte gives the scalar's length; four bytes are two units.
                    let lead = bytes[utf8]
                    let width8 = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
                    for byte in utf8..<min(utf8 + width8, bytes.count) { table[byte] = utf16Count }
                    utf8 += width8
                    utf16Count += width8 == 4 ? 2 : 1
                }
                table[bytes.count] = utf16Count
                initialized = bytes.count + 1
            }
            let utf8AtUTF16 = [Int](unsafeUninitializedCapacity: utf16Count + 1) { table, initialized in
                var utf8 = 0
                var utf16 = 0
                while utf8 < bytes.count {
                    let lead = bytes[utf8]
                    let width8 = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
                    table[utf16] = utf8
                    if width8 == 4 { table[utf16 + 1] = utf8 }
                    utf16 += width8 == 4 ? 2 : 1
                    utf8 += width8
                }
                table[utf16Count] = bytes.count
                initialized = utf16Count + 1
            }
            return (utf16AtUTF8, utf8AtUTF16)
        }
        utf8Count = utf16AtUTF8.count - 1
        utf16Count = utf8AtUTF16.count - 1
    }

    /// The UTF-16 offset of the scalar that holds UTF-8 offset `index` (clamped to `0...utf8Count`).
    func utf16(atUTF8 index: Int) -> Int { utf16AtUTF8[min(max(index, 0), utf8Count)] }

    /// The UTF-8 offset of the scalar that holds UTF-16 offset `index` (clamped to `0...utf16Count`).
    func utf8(atUTF16 index: Int) -> Int { utf8AtUTF16[min(max(index, 0), utf16Count)] }

    /// `range` clamped to the text with each edge moved to the start of its scalar (never inside a surrogate pair);
    /// nil when nothing is left.
    func clampedUTF16(_ range: Range<Int>) -> Range<Int>? {
        let lower = utf16(atUTF8: utf8(atUTF16: range.lowerBound))
        let upper = utf16(atUTF8: utf8(atUTF16: range.upperBound))
        return lower < upper ? lower..<upper : nil
    }
}
