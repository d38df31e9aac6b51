import Glibc
public import ImageCore

/// Separable Gaussian blur of premultiplied RGBA (edges clamp), as Telegram blurs wallpaper and media previews.
public enum GaussianBlur {
    /// Normalized kernel of radius `ceil(3σ)`.
    static func kernel(sigma: Double) -> [Float] {
        let radius = max(1, Int((3 * sigma).rounded(.up)))
        var values = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = values.reduce(0, +)
        values = values.map { $0 / total }
        return values.map(Float.init)
    }

    /// `bitmap` blurred with standard deviation `sigma` pixels (no change when `sigma` ≤ 0).
    public static func blur(_ bitmap: Bitmap, sigma: Double) -> Bitmap {
        guard sigma > 0, bitmap.width > 0, bitmap.height > 0 else { return bitmap }
        let k = kernel(sigma: sigma)
        let radius = k.count / 2
        let w = bitmap.width, h = bitmap.height
        var mid = [Float](repeating: 0, count: w * h * 4)
        // Horizontal pass: source rows (edges clamped) → floats.
        bitmap.pixels.withUnsafeBufferPointer { src in
            mid.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let row = y * bitmap.bytesPerRow
                    for x in 0..<w {
                        var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
                        for t in 0..<k.count {
                            let i = row + min(w - 1, max(0, x + t - radius)) * 4
                            r += k[t] * Float(src[i])
                            g += k[t] * Float(src[i + 1])
                            b += k[t] * Float(src[i + 2])
                            a += k[t] * Float(src[i + 3])
                        }
                        let o = (y * w + x) * 4
                        dst[o] = r
                        dst[o + 1] = g
                        dst[o + 2] = b
                        dst[o + 3] = a
                    }
                }
            }
        }
        // Vertical pass: floats → bytes, rounded, colour clamped to alpha.
        var out = Bitmap(width: w, height: h)
        mid.withUnsafeBufferPointer { src in
            out.pixels.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    for x in 0..<w {
                        var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
                        for t in 0..<k.count {
                            let i = (min(h - 1, max(0, y + t - radius)) * w + x) * 4
                            r += k[t] * src[i]
                            g += k[t] * src[i + 1]
                            b += k[t] * src[i + 2]
                            a += k[t] * src[i + 3]
                        }
                        let o = (y * w + x) * 4
                        let alpha = min(255, max(0, a.rounded()))
                        dst[o] = UInt8(min(alpha, max(0, r.rounded())))
                        dst[o + 1] = UInt8(min(alpha, max(0, g.rounded())))
                        dst[o + 2] = UInt8(min(alpha, max(0, b.rounded())))
                        dst[o + 3] = UInt8(alpha)
                    }
                }
            }
        }
        return out
    }
}
