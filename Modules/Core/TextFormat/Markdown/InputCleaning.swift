/// TDLib's cleaning of input text (td/telegram/misc.cpp `clean_input_string`, `replace_offending_characters`):
/// control characters other than `\n` become spaces, `\r` goes, U+2028–U+202E and the combining vertical lines
/// U+030A, U+0333, U+033F go, and a run of LRM/RLM marks keeps only its last one (the rest become ZWNJ).
enum InputCleaning {
    static func clean(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x0D:
                break
            case 0...0x20 where byte != 0x0A:
                result.append(0x20)
            default:
                if byte == 0xE2 && index + 2 < bytes.count && bytes[index + 1] == 0x80
                    && (0xA8...0xAE).contains(bytes[index + 2])
                {
                    index += 3
                    continue
                }
                if byte == 0xCC && index + 1 < bytes.count && [0xB3, 0xBF, 0x8A].contains(bytes[index + 1]) {
                    index += 2
                    continue
                }
                result.append(byte)
            }
            index += 1
        }
        replaceOffendingCharacters(&result)
        return result
    }

    static func replaceOffendingCharacters(_ bytes: inout [UInt8]) {
        func isMark(_ at: Int) -> Bool {
            at + 2 < bytes.count && bytes[at] == 0xE2 && bytes[at + 1] == 0x80
                && (bytes[at + 2] == 0x8E || bytes[at + 2] == 0x8F)
        }
        var position = 0
        while position < bytes.count {
            if isMark(position) {
                while isMark(position + 3) {
                    bytes[position + 2] = 0x8C
                    position += 3
                }
                position += 2
            }
            position += 1
        }
    }

    /// Whether the text is empty after removing trailing spaces and line breaks (TDLib then drops it).
    static func isBlank(_ bytes: [UInt8]) -> Bool { bytes.allSatisfy { $0 == 0x20 || $0 == 0x0A } }
}
