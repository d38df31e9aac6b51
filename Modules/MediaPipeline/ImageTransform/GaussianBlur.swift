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
        for y in 0..<h {
            for x in 0..<w {
                var acc: (Float, Float, Float, Float) = (0, 0, 0, 0)
                for t in 0..<k.count {
                    let sx = min(w - 1, max(0, x + t - radius))
                    let i = y * bitmap.bytesPerRow + sx * 4
                    acc.0 += k[t] * Float(bitmap.pixels[i])
                    acc.1 += k[t] * Float(bitmap.pixels[i + 1])
                    acc.2 += k[t] * Float(bitmap.pixels[i + 2])
                    acc.3 += k[t] * Float(bitmap.pixels[i + 3])
                }
                let o = (y * w + x) * 4
                mid[o] = acc.0
                mid[o + 1] = acc.1
                mid[o + 2] = acc.2
                mid[o + 3] = acc.3
            }
        }
        var out = Bitmap(width: w, height: h)
        for y in 0..<h {
            for x in 0..<w {
                var acc: (Float, Float, Float, Float) = (0, 0, 0, 0)
                for t in 0..<k.count {
                    let sy = min(h - 1, max(0, y + t - radius))
                    let i = (sy * w + x) * 4
                    acc.0 += k[t] * mid[i]
                    acc.1 += k[t] * mid[i + 1]
                    acc.2 += k[t] * mid[i + 2]
                    acc.3 += k[t] * mid[i + 3]
                }
                let o = (y * w + x) * 4
                let a = min(255, max(0, acc.3.rounded()))
                out.pixels[o] = UInt8(min(a, max(0, acc.0.rounded())))
                out.pixels[o + 1] = UInt8(min(a, max(0, acc.1.rounded())))
                out.pixels[o + 2] = UInt8(min(a, max(0, acc.2.rounded())))
                out.pixels[o + 3] = UInt8(a)
            }
        }
        return out
    }
}
