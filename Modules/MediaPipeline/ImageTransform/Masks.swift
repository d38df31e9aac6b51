public import ImageCore

/// Anti-aliased shape masks multiplied into premultiplied pixels: rounded corners and the avatar circle.
public enum Masks {
    /// Keeps the rounded rectangle of the whole image with corner `radius`; outside pixels become transparent.
    public static func roundCorners(_ bitmap: Bitmap, radius: Double) -> Bitmap {
        let r = max(0, min(radius, Double(min(bitmap.width, bitmap.height)) / 2))
        guard r > 0 else { return bitmap }
        let w = Double(bitmap.width), h = Double(bitmap.height)
        return apply(bitmap) { px, py in
            // Distance outside the corner circle, only in the corner squares.
            let cx = px < r ? r : (px > w - r ? w - r : px)
            let cy = py < r ? r : (py > h - r ? h - r : py)
            if cx == px || cy == py { return 1 }
            let d = ((px - cx) * (px - cx) + (py - cy) * (py - cy)).squareRoot()
            return r - d + 0.5
        }
    }

    /// Keeps the circle inscribed in the image (centred, diameter = the shorter side).
    public static func circle(_ bitmap: Bitmap) -> Bitmap {
        let cx = Double(bitmap.width) / 2, cy = Double(bitmap.height) / 2
        let r = min(cx, cy)
        return apply(bitmap) { px, py in
            r - ((px - cx) * (px - cx) + (py - cy) * (py - cy)).squareRoot() + 0.5
        }
    }

    /// Multiplies every pixel by `coverage(x + 0.5, y + 0.5)` clamped to 0…1 (one-pixel anti-aliasing ramp).
    static func apply(_ bitmap: Bitmap, coverage: (Double, Double) -> Double) -> Bitmap {
        var out = bitmap
        out.pixels.withUnsafeMutableBufferPointer { buffer in
            for y in 0..<bitmap.height {
                for x in 0..<bitmap.width {
                    let c = coverage(Double(x) + 0.5, Double(y) + 0.5)
                    if c >= 1 { continue }
                    let i = y * bitmap.bytesPerRow + x * 4
                    if c <= 0 {
                        buffer[i] = 0
                        buffer[i + 1] = 0
                        buffer[i + 2] = 0
                        buffer[i + 3] = 0
                    } else {
                        let f = UInt32((c * 255).rounded())
                        for k in 0..<4 { buffer[i + k] = Bitmap.multiply(buffer[i + k], f) }
                    }
                }
            }
        }
        return out
    }
}
