public import ImageCore

/// How a camera says its stored pixels must be turned for display: the EXIF `Orientation` tag (0x0112) of IFD0 in a
/// JPEG's APP1 `Exif` segment (EXIF 2.32, section 4.6.4 A; CIPA DC-008). Values 5…8 swap width and height.
public enum EXIFOrientation: Int, Sendable, CaseIterable {
    /// As stored.
    case up = 1
    /// Mirrored left to right.
    case upMirrored = 2
    /// Turned 180°.
    case down = 3
    /// Mirrored top to bottom.
    case downMirrored = 4
    /// Mirrored along the main diagonal (transposed).
    case leftMirrored = 5
    /// Stored turned 90° anticlockwise: displayed turned 90° clockwise.
    case right = 6
    /// Mirrored along the other diagonal (transversed).
    case rightMirrored = 7
    /// Stored turned 90° clockwise: displayed turned 90° anticlockwise.
    case left = 8

    /// Whether the displayed picture's width is the stored height.
    public var swapsSides: Bool { rawValue >= 5 }

    /// The orientation a JPEG's EXIF data states, `.up` when it has none or the data is damaged. Reads only the
    /// marker segments before the first scan, every offset checked against the segment; never traps.
    public static func of(_ jpeg: [UInt8]) -> EXIFOrientation {
        guard jpeg.starts(with: [0xFF, 0xD8]) else { return .up }
        var i = 2
        while i + 4 <= jpeg.count, jpeg[i] == 0xFF {
            let marker = jpeg[i + 1]
            if marker == 0xFF {  // fill byte
                i += 1
                continue
            }
            // SOS or EOI: no APP1 comes after them that matters.
            if marker == 0xDA || marker == 0xD9 { break }
            let length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
            guard length >= 2, i + 2 + length <= jpeg.count else { break }
            if marker == 0xE1, let found = orientation(inAPP1: jpeg[(i + 4)..<(i + 2 + length)]) { return found }
            i += 2 + length
        }
        return .up
    }

    /// The Orientation entry of IFD0 in an APP1 payload (`Exif\0\0`, then a TIFF header), or nil.
    static func orientation(inAPP1 segment: ArraySlice<UInt8>) -> EXIFOrientation? {
        let tiff = segment.startIndex + 6
        guard segment.starts(with: Array("Exif".utf8) + [0, 0]), tiff + 8 <= segment.endIndex else { return nil }
        let little: Bool
        switch (segment[tiff], segment[tiff + 1]) {
        case (0x49, 0x49): little = true  // "II"
        case (0x4D, 0x4D): little = false  // "MM"
        default: return nil
        }
        func read(_ at: Int, _ count: Int) -> Int? {
            guard at >= tiff, at + count <= segment.endIndex else { return nil }
            let bytes = segment[at..<at + count]
            return (little ? bytes.reversed() : Array(bytes)).reduce(0) { $0 << 8 | Int($1) }
        }
        guard read(tiff + 2, 2) == 42, let ifd = read(tiff + 4, 4), let entries = read(tiff + ifd, 2) else {
            return nil
        }
        for entry in 0..<entries {
            let at = tiff + ifd + 2 + entry * 12
            guard let tag = read(at, 2) else { return nil }
            // Tag 0x0112, type SHORT (3), count 1: the value sits in the first two bytes of the value field.
            if tag == 0x0112 {
                guard read(at + 2, 2) == 3, read(at + 4, 4) == 1, let value = read(at + 8, 2) else { return nil }
                return EXIFOrientation(rawValue: value)
            }
        }
        return nil
    }

    /// `bitmap` turned and mirrored for display.
    public func apply(to bitmap: Bitmap) -> Bitmap {
        if self == .up { return bitmap }
        let (w, h) = (bitmap.width, bitmap.height)
        var out = swapsSides ? Bitmap(width: h, height: w) : Bitmap(width: w, height: h)
        let (outWidth, outHeight) = (out.width, out.height)
        out.pixels.withUnsafeMutableBufferPointer { target in
            bitmap.pixels.withUnsafeBufferPointer { source in
                for y in 0..<outHeight {
                    for x in 0..<outWidth {
                        // The stored pixel shown at (x, y).
                        let (sx, sy): (Int, Int)
                        switch self {
                        case .up: (sx, sy) = (x, y)
                        case .upMirrored: (sx, sy) = (w - 1 - x, y)
                        case .down: (sx, sy) = (w - 1 - x, h - 1 - y)
                        case .downMirrored: (sx, sy) = (x, h - 1 - y)
                        case .leftMirrored: (sx, sy) = (y, x)
                        case .right: (sx, sy) = (y, h - 1 - x)
                        case .rightMirrored: (sx, sy) = (w - 1 - y, h - 1 - x)
                        case .left: (sx, sy) = (w - 1 - y, x)
                        }
                        let s = sy * bitmap.bytesPerRow + sx * 4, t = (y * outWidth + x) * 4
                        target[t] = source[s]
                        target[t + 1] = source[s + 1]
                        target[t + 2] = source[s + 2]
                        target[t + 3] = source[s + 3]
                    }
                }
            }
        }
        return out
    }
}
