import ImageCore
import ImageTransform
import Testing

enum Pictures {
    static func solid(_ width: Int, _ height: Int, _ color: RGBA) -> Bitmap {
        var b = Bitmap(width: width, height: height)
        for y in 0..<height { for x in 0..<width { b[x, y] = color } }
        return b
    }

    /// Opaque horizontal gradient: red = 255 × (x + 0.5) / width.
    static func gradient(_ width: Int, _ height: Int) -> Bitmap {
        var b = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                b[x, y] = RGBA(r: UInt8((255 * (Double(x) + 0.5) / Double(width)).rounded()), g: 0, b: 0, a: 255)
            }
        }
        return b
    }
}

@Suite struct ResamplerTests {
    @Test func solidColorStaysExact() {
        let source = Pictures.solid(640, 480, RGBA(r: 100, g: 150, b: 200, a: 255))
        for size in [
            PixelSize(width: 40, height: 40), PixelSize(width: 1000, height: 7), PixelSize(width: 1, height: 1),
        ] {
            #expect(Resampler.resize(source, to: size) == Pictures.solid(size.width, size.height, source[0, 0]))
        }
    }

    @Test func downscaledGradientSamplesTheCentres() {
        let out = Resampler.resize(Pictures.gradient(640, 16), to: PixelSize(width: 40, height: 4))
        for x in 3..<37 {  // away from the clamped edges
            let expected = 255 * (Double(x) + 0.5) / 40
            #expect(abs(Double(out[x, 2].r) - expected) <= 1, "column \(x): \(out[x, 2].r) vs \(expected)")
        }
    }

    @Test func transparentNeighboursLeaveNoDarkFringe() {
        // Left half opaque red, right half fully transparent *black*: filtering straight colour would darken the edge.
        var source = Bitmap(width: 64, height: 8)
        for y in 0..<8 { for x in 0..<32 { source[x, y] = RGBA(r: 255, g: 0, b: 0, a: 255) } }
        let out = Resampler.resize(source, to: PixelSize(width: 24, height: 3))
        for x in 0..<24 {
            let p = out[x, 1]
            #expect(p.g == 0 && p.b == 0 && Int(p.r) >= Int(p.a) - 1 && p.r <= p.a, "pixel \(x): \(p)")
        }
    }
}

@Suite struct MaskTests {
    static func coverage(_ b: Bitmap) -> Double {
        var total = 0.0
        for y in 0..<b.height { for x in 0..<b.width { total += Double(b[x, y].a) / 255 } }
        return total
    }

    @Test func circleAreaAndSymmetry() {
        let out = Masks.circle(Pictures.solid(40, 40, RGBA(r: 255, g: 255, b: 255, a: 255)))
        #expect(out[0, 0].a == 0 && out[39, 39].a == 0 && out[20, 20].a == 255)
        #expect(abs(Self.coverage(out) - Double.pi * 400) / (Double.pi * 400) < 0.01)
        for y in 0..<40 { for x in 0..<40 { #expect(out[x, y] == out[39 - x, y] && out[x, y] == out[x, 39 - y]) } }
    }

    @Test func roundCornersArea() {
        let out = Masks.roundCorners(Pictures.solid(100, 60, RGBA(r: 0, g: 0, b: 0, a: 255)), radius: 12)
        let expected = 100.0 * 60 - (4 - Double.pi) * 144
        #expect(abs(Self.coverage(out) - expected) < 3)
        #expect(out[0, 0].a == 0 && out[50, 0].a == 255 && out[0, 30].a == 255)
    }
}

@Suite struct BlurTests {
    @Test func preservesSolidAndEnergy() {
        let solid = Pictures.solid(20, 20, RGBA(r: 10, g: 20, b: 30, a: 255))
        #expect(GaussianBlur.blur(solid, sigma: 2) == solid)
        var impulse = Bitmap(width: 41, height: 41)
        impulse[20, 20] = RGBA(r: 255, g: 255, b: 255, a: 255)
        let out = GaussianBlur.blur(impulse, sigma: 1.5)
        let total = (0..<41).flatMap { y in (0..<41).map { x in Int(out[x, y].a) } }.reduce(0, +)
        #expect(abs(total - 255) < 20)  // rounding per pixel loses a little
        #expect(
            out[20, 20].a < 40
                && out[20, 20].a == out.pixels.enumerated().filter { $0.offset % 4 == 3 }.map(\.element).max())
        #expect(out[18, 20] == out[22, 20] && out[20, 18] == out[20, 22])
    }
}

@Suite struct TransformerTests {
    @Test func fillFitCropSizes() throws {
        let source = Pictures.gradient(640, 480)
        #expect(
            try ImageTransformer.apply(TransformArguments([.fill(PixelSize(width: 40, height: 40))]), to: source).size
                == PixelSize(width: 40, height: 40))
        #expect(
            try ImageTransformer.apply(TransformArguments([.fit(PixelSize(width: 40, height: 40))]), to: source).size
                == PixelSize(width: 40, height: 30))
        let crop = try ImageTransformer.apply(
            TransformArguments([.crop(x: 600, y: 470, width: 100, height: 100)]), to: source)
        #expect(crop.size == PixelSize(width: 40, height: 10) && crop[0, 0] == source[600, 470])
        #expect(throws: ImageTransformError.self) {
            try ImageTransformer.apply(TransformArguments([.crop(x: 700, y: 0, width: 5, height: 5)]), to: source)
        }
    }

    @Test func stepsCompose() throws {
        let source = Pictures.gradient(200, 100)
        let both = try ImageTransformer.apply(
            TransformArguments([.fill(PixelSize(width: 50, height: 50)), .blur(sigma: 1), .circle]), to: source)
        let first = try ImageTransformer.apply(
            TransformArguments([.fill(PixelSize(width: 50, height: 50))]), to: source)
        let then = try ImageTransformer.apply(TransformArguments([.blur(sigma: 1), .circle]), to: first)
        #expect(both == then)
        #expect(TransformArguments.roundAvatar(side: 40).description == "fill(40x40)|circle")
    }

    @Test func cancelledTokenStops() {
        let token = CancellationToken()
        token.cancel()
        #expect(throws: ImageTransformError.cancelled) {
            try ImageTransformer.apply(.roundAvatar(side: 40), to: Pictures.gradient(64, 64), token: token)
        }
    }
}
