import Glibc
public import ImageCore

/// Separable resampling of premultiplied RGBA with a Lanczos-3 kernel, widened when shrinking so every source pixel
/// contributes (no aliasing on 640 → 40 avatars). Filtering premultiplied values keeps transparent neighbours from
/// bleeding dark fringes into edges.
public enum Resampler {
    /// Lanczos-3 support in source pixels at scale 1.
    static let support = 3.0

    static func lanczos(_ x: Double) -> Double {
        let x = abs(x)
        if x < 1e-9 { return 1 }
        if x >= support { return 0 }
        let px = Double.pi * x
        return support * sin(px) * sin(px / support) / (px * px)
    }

    /// For each output index: first source index, tap count, and normalized weights (flattened, `maxTaps` apart).
    struct Contributions {
        let first: [Int]
        let count: [Int]
        let weights: [Float]
        let maxTaps: Int

        init(input: Int, output: Int) {
            let scale = Double(output) / Double(input)
            let filterScale = max(1, 1 / scale)
            let radius = support * filterScale
            let maxTaps = Int((2 * radius).rounded(.up)) + 2
            var first = [Int](repeating: 0, count: output)
            var count = [Int](repeating: 0, count: output)
            var weights = [Float](repeating: 0, count: output * maxTaps)
            for i in 0..<output {
                let center = (Double(i) + 0.5) / scale
                let lo = max(0, Int((center - radius).rounded(.down)))
                let hi = min(input - 1, Int((center + radius).rounded(.up)))
                var raw: [Double] = []
                for j in lo...max(lo, hi) { raw.append(lanczos((Double(j) + 0.5 - center) / filterScale)) }
                let total = raw.reduce(0, +)
                first[i] = lo
                count[i] = min(raw.count, maxTaps)
                for k in 0..<count[i] {
                    weights[i * maxTaps + k] = Float(total != 0 ? raw[k] / total : 1 / Double(raw.count))
                }
            }
            self.first = first
            self.count = count
            self.weights = weights
            self.maxTaps = maxTaps
        }
    }

    /// `bitmap` scaled to `size` (each side ≥ 1).
    public static func resize(_ bitmap: Bitmap, to size: PixelSize) -> Bitmap {
        precondition(size.width >= 1 && size.height >= 1, "resize to \(size)")
        guard bitmap.width > 0, bitmap.height > 0 else { return Bitmap(width: size.width, height: size.height) }
        if bitmap.size == size { return bitmap }
        // Large reductions first average whole k×k blocks (cheap, exact area coverage), leaving Lanczos at least a
        // 2× reduction to do: 640 → 40 becomes an 8× box step and a 2× Lanczos step, ~10× less work than 98 taps.
        let kx = max(1, bitmap.width / size.width / 2), ky = max(1, bitmap.height / size.height / 2)
        if kx > 1 || ky > 1 { return resize(boxReduce(bitmap, kx: kx, ky: ky), to: size) }
        let horizontal = Contributions(input: bitmap.width, output: size.width)
        let vertical = Contributions(input: bitmap.height, output: size.height)
        // Pass 1: rows of the source → `size.width` columns, as floats.
        let midWidth = size.width, midHeight = bitmap.height
        var mid = [Float](repeating: 0, count: midWidth * midHeight * 4)
        bitmap.pixels.withUnsafeBufferPointer { src in
            mid.withUnsafeMutableBufferPointer { dst in
                horizontal.weights.withUnsafeBufferPointer { w in
                    for y in 0..<midHeight {
                        let row = y * bitmap.bytesPerRow
                        for x in 0..<midWidth {
                            var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
                            let base = x * horizontal.maxTaps
                            var s = row + horizontal.first[x] * 4
                            for k in 0..<horizontal.count[x] {
                                let weight = w[base + k]
                                r += weight * Float(src[s])
                                g += weight * Float(src[s + 1])
                                b += weight * Float(src[s + 2])
                                a += weight * Float(src[s + 3])
                                s += 4
                            }
                            let o = (y * midWidth + x) * 4
                            dst[o] = r
                            dst[o + 1] = g
                            dst[o + 2] = b
                            dst[o + 3] = a
                        }
                    }
                }
            }
        }
        // Pass 2: columns → `size.height` rows, rounded and clamped so colour never exceeds alpha.
        var out = Bitmap(width: size.width, height: size.height)
        mid.withUnsafeBufferPointer { src in
            out.pixels.withUnsafeMutableBufferPointer { dst in
                vertical.weights.withUnsafeBufferPointer { w in
                    let rowFloats = midWidth * 4
                    for y in 0..<size.height {
                        let base = y * vertical.maxTaps
                        let o = y * size.width * 4
                        var acc = [Float](repeating: 0, count: rowFloats)
                        acc.withUnsafeMutableBufferPointer { acc in
                            for k in 0..<vertical.count[y] {
                                let weight = w[base + k]
                                let s = (vertical.first[y] + k) * rowFloats
                                for i in 0..<rowFloats { acc[i] += weight * src[s + i] }
                            }
                            for x in 0..<size.width {
                                let i = x * 4
                                let a = min(255, max(0, acc[i + 3].rounded()))
                                dst[o + i] = UInt8(min(a, max(0, acc[i].rounded())))
                                dst[o + i + 1] = UInt8(min(a, max(0, acc[i + 1].rounded())))
                                dst[o + i + 2] = UInt8(min(a, max(0, acc[i + 2].rounded())))
                                dst[o + i + 3] = UInt8(a)
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    /// Averages `kx × ky` blocks; blocks cut by the right or bottom edge average the pixels they hold.
    static func boxReduce(_ bitmap: Bitmap, kx: Int, ky: Int) -> Bitmap {
        let outWidth = (bitmap.width + kx - 1) / kx, outHeight = (bitmap.height + ky - 1) / ky
        var out = Bitmap(width: outWidth, height: outHeight)
        var acc = [UInt32](repeating: 0, count: outWidth * 4)
        bitmap.pixels.withUnsafeBufferPointer { src in
            out.pixels.withUnsafeMutableBufferPointer { dst in
                acc.withUnsafeMutableBufferPointer { acc in
                    for oy in 0..<outHeight {
                        for i in 0..<acc.count { acc[i] = 0 }
                        let y0 = oy * ky, y1 = min(bitmap.height, y0 + ky)
                        for y in y0..<y1 {
                            let row = y * bitmap.bytesPerRow
                            for ox in 0..<outWidth {
                                let x0 = ox * kx, x1 = min(bitmap.width, x0 + kx)
                                var r: UInt32 = 0, g: UInt32 = 0, b: UInt32 = 0, a: UInt32 = 0
                                var s = row + x0 * 4
                                for _ in x0..<x1 {
                                    r += UInt32(src[s])
                                    g += UInt32(src[s + 1])
                                    b += UInt32(src[s + 2])
                                    a += UInt32(src[s + 3])
                                    s += 4
                                }
                                acc[ox * 4] += r
                                acc[ox * 4 + 1] += g
                                acc[ox * 4 + 2] += b
                                acc[ox * 4 + 3] += a
                            }
                        }
                        for ox in 0..<outWidth {
                            let count = UInt32((min(bitmap.width, ox * kx + kx) - ox * kx) * (y1 - y0))
                            let o = (oy * outWidth + ox) * 4
                            for c in 0..<4 { dst[o + c] = UInt8((acc[ox * 4 + c] + count / 2) / count) }
                        }
                    }
                }
            }
        }
        return out
    }
}
