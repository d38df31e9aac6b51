/// An 8-bit RGBA bitmap with premultiplied alpha, stored top-down with `bytesPerRow` ≥ `width × 4`.
///
/// The one pixel type of the media pipeline (Telegram-iOS draws into premultiplied `CGContext`s; rlottie renders
/// premultiplied ARGB32): transforms filter premultiplied values, so no dark fringes appear at transparent edges.
public struct Bitmap: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Bytes from one row to the next (the stride); at least `width × 4`.
    public let bytesPerRow: Int
    /// The pixels, `height × bytesPerRow` bytes, each pixel R, G, B, A with color premultiplied by alpha.
    public var pixels: [UInt8]

    /// A fully transparent bitmap; `bytesPerRow` defaults to `width × 4`.
    public init(width: Int, height: Int, bytesPerRow: Int? = nil) {
        precondition(width >= 0 && height >= 0, "negative bitmap size \(width)×\(height)")
        let stride = bytesPerRow ?? width * 4
        precondition(stride >= width * 4, "stride \(stride) is shorter than a row of \(width) pixels")
        self.width = width
        self.height = height
        self.bytesPerRow = stride
        self.pixels = [UInt8](repeating: 0, count: stride * height)
    }

    /// Wraps premultiplied RGBA bytes; nil when `pixels` is shorter than `height × bytesPerRow`.
    public init?(width: Int, height: Int, bytesPerRow: Int, premultipliedRGBA pixels: [UInt8]) {
        guard width >= 0, height >= 0, bytesPerRow >= width * 4, pixels.count >= bytesPerRow * height else {
            return nil
        }
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.pixels = pixels
    }

    /// Premultiplies straight (non-premultiplied) RGBA rows of `width × 4` bytes; nil when the count is wrong.
    public init?(width: Int, height: Int, straightRGBA: [UInt8]) {
        guard width >= 0, height >= 0, straightRGBA.count == width * height * 4 else { return nil }
        self.width = width
        self.height = height
        self.bytesPerRow = width * 4
        self.pixels = straightRGBA
        premultiplyInPlace()
    }

    /// Treats the (packed) pixels as straight alpha and multiplies colour by alpha, in place.
    mutating func premultiplyInPlace() {
        pixels.withUnsafeMutableBufferPointer { buffer in
            for i in stride(from: 0, to: buffer.count, by: 4) {
                let a = UInt32(buffer[i + 3])
                if a == 255 { continue }
                buffer[i] = Bitmap.multiply(buffer[i], a)
                buffer[i + 1] = Bitmap.multiply(buffer[i + 1], a)
                buffer[i + 2] = Bitmap.multiply(buffer[i + 2], a)
            }
        }
    }

    /// The size as a pair.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// The pixel at (x, y) as premultiplied (r, g, b, a).
    public subscript(x: Int, y: Int) -> RGBA {
        get {
            let i = y * bytesPerRow + x * 4
            return RGBA(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2], a: pixels[i + 3])
        }
        set {
            let i = y * bytesPerRow + x * 4
            pixels[i] = newValue.r
            pixels[i + 1] = newValue.g
            pixels[i + 2] = newValue.b
            pixels[i + 3] = newValue.a
        }
    }

    /// Rows of exactly `width × 4` bytes, premultiplied, without stride padding.
    public func packedRGBA() -> [UInt8] {
        if bytesPerRow == width * 4 { return pixels }
        var out = [UInt8]()
        out.reserveCapacity(width * height * 4)
        for y in 0..<height { out += pixels[y * bytesPerRow..<y * bytesPerRow + width * 4] }
        return out
    }

    /// Rows of exactly `width × 4` bytes with alpha divided out (what PNG and WebP encoders take).
    public func straightRGBA() -> [UInt8] {
        var out = packedRGBA()
        out.withUnsafeMutableBufferPointer { buffer in
            for i in stride(from: 0, to: buffer.count, by: 4) {
                let a = UInt32(buffer[i + 3])
                if a == 0 {
                    buffer[i] = 0
                    buffer[i + 1] = 0
                    buffer[i + 2] = 0
                } else if a < 255 {
                    buffer[i] = UInt8(min(255, (UInt32(buffer[i]) * 255 + a / 2) / a))
                    buffer[i + 1] = UInt8(min(255, (UInt32(buffer[i + 1]) * 255 + a / 2) / a))
                    buffer[i + 2] = UInt8(min(255, (UInt32(buffer[i + 2]) * 255 + a / 2) / a))
                }
            }
        }
        return out
    }

    /// `value × alpha / 255`, rounded.
    @inline(__always)
    public static func multiply(_ value: UInt8, _ alpha: UInt32) -> UInt8 {
        let t = UInt32(value) * alpha + 128
        return UInt8((t + (t >> 8)) >> 8)
    }
}

/// One premultiplied pixel.
public struct RGBA: Sendable, Equatable, Hashable {
    public var r, g, b, a: UInt8
    /// A pixel from premultiplied components.
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }
}

/// A size in whole pixels.
public struct PixelSize: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    /// A size from its two sides.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
    public var description: String { "\(width)×\(height)" }
}
