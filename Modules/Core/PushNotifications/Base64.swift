/// Base64 decoding of both alphabets, with or without padding (Telegram sends `p` in the URL alphabet without it;
/// Telegram-iOS turns it back into standard base64 before decoding). Never traps: anything else is `nil`.
enum Base64 {
    static func decode(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        var padding = 0
        for byte in text.utf8 {
            let value: UInt32
            switch byte {
            case 0x41...0x5a: value = UInt32(byte - 0x41)
            case 0x61...0x7a: value = UInt32(byte - 0x61 + 26)
            case 0x30...0x39: value = UInt32(byte - 0x30 + 52)
            case 0x2b, 0x2d: value = 62  // + or -
            case 0x2f, 0x5f: value = 63  // / or _
            case 0x3d:
                padding += 1
                continue
            default: return nil
            }
            guard padding == 0 else { return nil }
            accumulator = accumulator << 6 | value
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        // Leftover bits must be zero and fewer than a byte; a lone sixth of a byte is not base64.
        guard bits < 6, accumulator == 0, padding <= 2 else { return nil }
        return out
    }
}
