extension Bitmap {
    /// Converts native-endian premultiplied ARGB32 words (Cairo/rlottie/Skia `BGRA` bytes on little-endian) to RGBA.
    public init?(width: Int, height: Int, bytesPerRow: Int, premultipliedBGRA bgra: [UInt8]) {
        guard width >= 0, height >= 0, bytesPerRow >= width * 4, bgra.count >= bytesPerRow * height else {
            return nil
        }
        self.init(width: width, height: height)
        let rowBytes = width * 4
        pixels.withUnsafeMutableBufferPointer { out in
            bgra.withUnsafeBufferPointer { input in
                for y in 0..<height {
                    let source = y * bytesPerRow, target = y * rowBytes
                    var i = 0
                    while i < rowBytes {
                        out[target + i] = input[source + i + 2]
                        out[target + i + 1] = input[source + i + 1]
                        out[target + i + 2] = input[source + i]
                        out[target + i + 3] = input[source + i + 3]
                        i += 4
                    }
                }
            }
        }
    }

    /// Swaps the first and third byte of every pixel in place: BGRA ↔ RGBA (one pass over 32-bit words).
    public mutating func swapRedAndBlue() {
        let rowWords = width
        let stride = bytesPerRow
        let rows = height
        pixels.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            for y in 0..<rows {
                let words = (base + y * stride).bindMemory(to: UInt32.self, capacity: rowWords)
                for x in 0..<rowWords {
                    // Little-endian word 0xAABBGGRR ↔ 0xAARRGGBB: keep A and G, exchange the other two bytes.
                    let w = words[x]
                    words[x] = (w & 0xFF00_FF00) | ((w >> 16) & 0xFF) | ((w & 0xFF) << 16)
                }
            }
        }
    }

    /// This bitmap composited over an opaque background color (straight r, g, b), as opaque pixels.
    public func flattened(over background: (r: UInt8, g: UInt8, b: UInt8)) -> Bitmap {
        var out = self
        out.pixels.withUnsafeMutableBufferPointer { buffer in
            for y in 0..<height {
                for x in 0..<width {
                    let i = y * bytesPerRow + x * 4
                    let inverse = 255 - UInt32(buffer[i + 3])
                    buffer[i] = buffer[i] &+ Bitmap.multiply(background.r, inverse)
                    buffer[i + 1] = buffer[i + 1] &+ Bitmap.multiply(background.g, inverse)
                    buffer[i + 2] = buffer[i + 2] &+ Bitmap.multiply(background.b, inverse)
                    buffer[i + 3] = 255
                }
            }
        }
        return out
    }

    /// The largest difference of any channel between two bitmaps of the same size; nil when sizes differ.
    public func maxChannelDifference(_ other: Bitmap) -> Int? {
        guard width == other.width, height == other.height else { return nil }
        var worst = 0
        for y in 0..<height {
            for x in 0..<width * 4 {
                let a = Int(pixels[y * bytesPerRow + x]), b = Int(other.pixels[y * other.bytesPerRow + x])
                worst = max(worst, abs(a - b))
            }
        }
        return worst
    }

    /// Mean absolute difference per channel between two bitmaps of the same size; nil when sizes differ.
    public func meanChannelDifference(_ other: Bitmap) -> Double? {
        guard width == other.width, height == other.height else { return nil }
        guard width > 0, height > 0 else { return 0 }
        var total = 0
        for y in 0..<height {
            for x in 0..<width * 4 {
                total += abs(Int(pixels[y * bytesPerRow + x]) - Int(other.pixels[y * other.bytesPerRow + x]))
            }
        }
        return Double(total) / Double(width * height * 4)
    }
}
