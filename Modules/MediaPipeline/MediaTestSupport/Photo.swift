public import ImageCore

/// Opaque test photos of any size, drawn straight into the pixel buffer (fast enough for 12 megapixels), and the
/// measures the photo tests compare pictures with.
public enum Photo {
    /// An opaque `width` × `height` picture: a red ramp left to right, a green ramp top to bottom, blue bands of
    /// 64 pixels, so every region and every scale differs.
    public static func drawn(width: Int, height: Int) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height)
        bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<height {
                let green = UInt8(y * 255 / max(1, height - 1))
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    pixels[i] = UInt8(x * 255 / max(1, width - 1))
                    pixels[i + 1] = green
                    pixels[i + 2] = ((x / 64 + y / 64) % 2 == 0) ? 200 : 60
                    pixels[i + 3] = 255
                }
            }
        }
        return bitmap
    }

    /// The mean of each channel (R, G, B, A) over the whole picture.
    public static func meanColor(_ bitmap: Bitmap) -> [Double] {
        var sums = [Double](repeating: 0, count: 4)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let p = bitmap[x, y]
                sums[0] += Double(p.r)
                sums[1] += Double(p.g)
                sums[2] += Double(p.b)
                sums[3] += Double(p.a)
            }
        }
        let count = Double(max(1, bitmap.width * bitmap.height))
        return sums.map { $0 / count }
    }

    /// The mean absolute difference per channel between two pictures of the same size (nil when sizes differ).
    public static func meanAbsoluteDifference(_ a: Bitmap, _ b: Bitmap) -> Double? {
        guard a.size == b.size else { return nil }
        var total = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a[x, y], q = b[x, y]
                total +=
                    abs(Int(p.r) - Int(q.r)) + abs(Int(p.g) - Int(q.g)) + abs(Int(p.b) - Int(q.b))
                    + abs(Int(p.a) - Int(q.a))
            }
        }
        return Double(total) / Double(max(1, a.width * a.height * 4))
    }
}
