public import CryptoUtils

/// What both users compare to rule out a man in the middle (core.telegram.org "End-to-End Encryption", Key
/// Visualization): the first 128 bits of SHA1 of the chat's first key followed by the first 160 bits of its
/// SHA256, drawn as Telegram's 12 × 12 identicon (2 bits a cell, least significant first, in four blues; Telegram-iOS
/// `SecretChatKeyVisualization.m`) and written as hex (Telegram-iOS's encryption-key screen). Re-keying runs inside
/// the chat's encrypted channel, so the picture never changes. The emoji line applies the docs' only emoji rule (the
/// voice-call key verification): four emoji of Telegram's 333 from SHA256(key ‖ g_a of the originator), each from a
/// big-endian 64-bit slice with its top bit cleared, modulo 333.
public struct SecretChatKeyVisualization: Sendable, Codable, Equatable {
    /// SHA1(first key)[0..<16] ‖ SHA256(first key)[0..<20] — 288 bits, 144 cells.
    public let keySignature: [UInt8]
    /// SHA256(first key ‖ originator's g_a).
    public let emojiHash: [UInt8]

    public init(key: SecretChatKey, originatorGA: [UInt8]) {
        keySignature = Array(Digest.sha1(key.bytes)[0..<16]) + Array(Digest.sha256(key.bytes)[0..<20])
        emojiHash = Digest.sha256(key.bytes, originatorGA)
    }

    /// The identicon's 144 cells, row by row, as indexes into `palette`.
    public var colorIndexes: [Int] {
        (0..<144).map { cell in
            let bit = cell * 2
            return Int(keySignature[bit / 8] >> UInt8(bit % 8)) & 3
        }
    }

    /// Telegram's four identicon colours (RGB): white, light blue, dark blue, blue.
    public static let palette: [UInt32] = [0xffffff, 0xd5e6f3, 0x2d5775, 0x2f99c9]

    /// The identicon as `side` × `side` RGBA pixels (cells of `side / 12`, the remainder white at the edges).
    public func rgba(side: Int) -> [UInt8] {
        let cell = max(1, side / 12)
        var pixels = [UInt8](repeating: 0xff, count: side * side * 4)
        let indexes = colorIndexes
        for y in 0..<side {
            for x in 0..<side where x / cell < 12 && y / cell < 12 {
                let rgb = SecretChatKeyVisualization.palette[indexes[(y / cell) * 12 + x / cell]]
                let offset = (y * side + x) * 4
                pixels[offset] = UInt8(rgb >> 16 & 0xff)
                pixels[offset + 1] = UInt8(rgb >> 8 & 0xff)
                pixels[offset + 2] = UInt8(rgb & 0xff)
            }
        }
        return pixels
    }

    /// The identicon as 12 text rows of block characters, one per colour (` `, `░`, `█`, `▓`), two columns a cell.
    public var textRows: [String] {
        let glyphs = ["  ", "░░", "██", "▓▓"]
        let indexes = colorIndexes
        return (0..<12).map { row in (0..<12).map { glyphs[indexes[row * 12 + $0]] }.joined() }
    }

    /// The key as Telegram-iOS writes it under the picture: four lines of eight hex bytes (SHA1's 16, then
    /// SHA256's first 16).
    public var hexLines: [String] {
        let hex = { (bytes: ArraySlice<UInt8>) in
            stride(from: bytes.startIndex, to: bytes.endIndex, by: 2).map { index in
                bytes[index..<min(index + 2, bytes.endIndex)].map { byte in
                    let digits = Array("0123456789abcdef")
                    return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
                }.joined()
            }.joined(separator: " ")
        }
        return [
            hex(keySignature[0..<8]), hex(keySignature[8..<16]), hex(keySignature[16..<24]),
            hex(keySignature[24..<32]),
        ]
    }

    /// Four emoji from `emojiHash`.
    public var emoji: [String] {
        (0..<4).map { index in
            var value: UInt64 = 0
            for byte in emojiHash[(index * 8)..<(index * 8 + 8)] { value = value << 8 | UInt64(byte) }
            value &= 0x7fff_ffff_ffff_ffff
            return SecretChatEmoji.table[Int(value % UInt64(SecretChatEmoji.table.count))]
        }
    }
}
