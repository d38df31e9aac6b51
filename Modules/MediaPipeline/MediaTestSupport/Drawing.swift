public import ImageCore

/// Test pictures drawn in code: a gradient with an alpha ramp and a few shapes.
public enum Drawing {
    /// A `width` × `height` picture: red and green ramps, a blue disc in the middle, alpha rising to the corner.
    public static func gradient(width: Int, height: Int) -> Bitmap {
        var straight = [UInt8]()
        for y in 0..<height {
            for x in 0..<width {
                let inCircle =
                    (x - width / 2) * (x - width / 2) + (y - height / 2) * (y - height / 2) < width * width / 9
                straight += [
                    UInt8(x * 255 / max(1, width - 1)), UInt8(y * 255 / max(1, height - 1)),
                    inCircle ? 200 : 40, UInt8((x + y) * 255 / max(1, width + height - 2)),
                ]
            }
        }
        return Bitmap(width: width, height: height, straightRGBA: straight)!
    }
}
