import CJPEGTurbo
public import ImageCore

/// JPEG encoding through libjpeg-turbo's TurboJPEG API (`tjCompress2`): baseline, standard Huffman tables, the
/// IJG quantisation tables scaled to `quality`, a JFIF APP0 marker and nothing else (no EXIF, no ICC profile).
public enum JPEGEncoder {
    /// Encodes `bitmap` at `quality` (1…100) with `subsampling`.
    ///
    /// JPEG has no alpha: a pixel that is not opaque is composited over `background` (opaque white unless told),
    /// so transparent areas of a PNG become white rather than the black that premultiplied zeros would give.
    /// `.gray` writes one luminance component.
    public static func encode(
        _ bitmap: Bitmap, quality: Int, subsampling: JPEGSubsampling = .s420,
        background: RGBA = RGBA(r: 255, g: 255, b: 255, a: 255)
    ) throws(JPEGError) -> [UInt8] {
        guard (1...100).contains(quality) else {
            throw .encodeFailed(
                width: bitmap.width, height: bitmap.height, reason: "quality \(quality) is outside 1…100")
        }
        guard bitmap.width > 0, bitmap.height > 0 else {
            throw .encodeFailed(width: bitmap.width, height: bitmap.height, reason: "a JPEG needs at least 1×1 pixels")
        }
        guard let handle = TurboJPEGHandle.compressor() else {
            throw .encodeFailed(
                width: bitmap.width, height: bitmap.height, reason: "TurboJPEG could not create a compressor")
        }
        // Opaque pixels go to TurboJPEG as they are (RGBX ignores the fourth byte); others are flattened first.
        let source = isOpaque(bitmap) ? bitmap : flattened(bitmap, over: background)
        var output: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let status = source.pixels.withUnsafeBufferPointer { pixels in
            tjCompress2(
                handle.raw, pixels.baseAddress, Int32(source.width), Int32(source.bytesPerRow), Int32(source.height),
                Int32(TJPF_RGBX.rawValue), &output, &size, subsampling.rawValue, Int32(quality), 0)
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else {
            throw .encodeFailed(width: bitmap.width, height: bitmap.height, reason: handle.lastError)
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }

    /// Whether every pixel's alpha is 255.
    static func isOpaque(_ bitmap: Bitmap) -> Bool {
        bitmap.pixels.withUnsafeBufferPointer { buffer in
            for y in 0..<bitmap.height {
                let row = y * bitmap.bytesPerRow
                for x in 0..<bitmap.width where buffer[row + x * 4 + 3] != 255 { return false }
            }
            return true
        }
    }

    /// The bitmap composited over an opaque `background`: premultiplied colour plus the background where alpha is
    /// missing (`c + bg × (255 − a) / 255`).
    static func flattened(_ bitmap: Bitmap, over background: RGBA) -> Bitmap {
        var out = Bitmap(width: bitmap.width, height: bitmap.height)
        out.pixels.withUnsafeMutableBufferPointer { target in
            bitmap.pixels.withUnsafeBufferPointer { source in
                for y in 0..<bitmap.height {
                    for x in 0..<bitmap.width {
                        let s = y * bitmap.bytesPerRow + x * 4, t = (y * bitmap.width + x) * 4
                        let missing = 255 - UInt32(source[s + 3])
                        // Colour never exceeds alpha in a premultiplied pixel; `min` keeps a bitmap that breaks
                        // that rule from wrapping around.
                        target[t] = add(source[s], Bitmap.multiply(background.r, missing))
                        target[t + 1] = add(source[s + 1], Bitmap.multiply(background.g, missing))
                        target[t + 2] = add(source[s + 2], Bitmap.multiply(background.b, missing))
                        target[t + 3] = 255
                    }
                }
            }
        }
        return out
    }

    @inline(__always)
    static func add(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8(min(255, UInt16(a) + UInt16(b))) }
}
