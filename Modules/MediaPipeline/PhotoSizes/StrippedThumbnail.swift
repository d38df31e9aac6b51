import Foundation
import ImageCore
import JPEGBinding

/// Telegram's stripped thumbnail (`photoStrippedSize`, type `i`): a JPEG of at most 40×40 pixels sent inside the
/// photo object itself, with its fixed header and footer cut off.
///
/// Format: byte 0 is 1 (the version), byte 1 the height, byte 2 the width, then the JPEG from the first byte after
/// its SOS marker segment up to, not including, the EOI marker. A client rebuilds the JPEG by pasting a fixed
/// 623-byte header in front (baseline, quality 20 IJG tables, 4:2:0 YCbCr, the standard Huffman tables), writing
/// byte 1 into the frame header's height and byte 2 into its width (offsets 164 and 166), and `FF D9` behind:
/// Telegram-iOS `submodules/TinyThumbnail/Sources/TinyThumbnail.swift` (`decodeTinyThumbnail`), Telethon
/// `telethon.utils.stripped_photo_to_jpg`, Telegram Desktop `ui/image/image.cpp`. So the JPEG made here must use
/// exactly those tables and that layout, and `make` checks that libjpeg-turbo wrote that header byte for byte.
public struct StrippedThumbnail: Sendable, Equatable {
    /// The stripped bytes, as `photoStrippedSize.bytes` carries them.
    public let bytes: [UInt8]

    /// Height in pixels (byte 1).
    public var height: Int { Int(bytes[1]) }
    /// Width in pixels (byte 2).
    public var width: Int { Int(bytes[2]) }

    /// The box the picture is scaled down to fit.
    public static let box = 40
    /// The quality whose IJG quantisation tables the fixed header holds.
    public static let quality = 20

    /// The header clients paste in front: SOI, JFIF APP0, the quality-20 luminance and chrominance DQT segments,
    /// SOF0 (8-bit, height and width zero, three components: Y sampled 2×2, Cb and Cr 1×1), the four standard
    /// Huffman tables (ITU-T T.81 Annex K.3) and the SOS segment of an interleaved scan of all three components.
    static let header: [UInt8] = Array(
        Data(
            base64Encoded:
                "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDACgcHiMeGSgjISMtKygwPGRBPDc3PHtYXUlkkYCZlo+AjIqgtObDoKrarYqMyP/L2u71"
                + "////m8H////6/+b9//j/2wBDASstLTw1PHZBQXb4pYyl+Pj4+Pj4+Pj4+Pj4+Pj4+Pj4+Pj4+Pj4+Pj4+Pj4+Pj4+Pj4+Pj4"
                + "+Pj4+Pj4+Pj4+Pj/wAARCAAAAAADASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIE"
                + "AwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpT"
                + "VFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ"
                + "2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3"
                + "AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpj"
                + "ZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn"
                + "6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwA=")!)
    /// Where the frame header's height and width low bytes sit in `header` (their high bytes stay zero).
    static let heightOffset = 164, widthOffset = 166
    /// The EOI marker clients append.
    static let footer: [UInt8] = [0xFF, 0xD9]

    /// Wraps stripped bytes; nil unless they start with version 1 and have both sides non-zero.
    public init?(bytes: [UInt8]) {
        guard bytes.count >= 3, bytes[0] == 1, bytes[1] > 0, bytes[2] > 0 else { return nil }
        self.bytes = bytes
    }

    /// Encodes `bitmap` (each side at most 255; `make` passes at most 40) at quality 20 with 4:2:0 subsampling and
    /// strips the header and footer, after checking that they are exactly the ones clients paste back.
    static func encode(_ bitmap: Bitmap) throws(JPEGError) -> StrippedThumbnail? {
        guard bitmap.width <= 255, bitmap.height <= 255 else { return nil }
        let jpeg = try JPEGEncoder.encode(bitmap, quality: quality, subsampling: .s420)
        var expected = header
        expected[heightOffset] = UInt8(bitmap.height)
        expected[widthOffset] = UInt8(bitmap.width)
        guard jpeg.count >= expected.count + footer.count, jpeg.starts(with: expected), jpeg.suffix(2) == footer[...]
        else { return nil }
        return StrippedThumbnail(
            bytes: [1, UInt8(bitmap.height), UInt8(bitmap.width)] + jpeg[expected.count..<jpeg.count - footer.count])
    }

    /// The whole JPEG a client rebuilds from these bytes (the same steps as `decodeTinyThumbnail`).
    public var jpeg: [UInt8] {
        var out = StrippedThumbnail.header
        out[StrippedThumbnail.heightOffset] = bytes[1]
        out[StrippedThumbnail.widthOffset] = bytes[2]
        return out + bytes[3...] + StrippedThumbnail.footer
    }
}
