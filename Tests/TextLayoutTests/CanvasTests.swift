import ImageCore
import SyncCore
import Testing
import TextLayout

/// The cairo canvas: fills, bubbles with tails, pictures and text read back pixel by pixel, and its PNG decoded by
/// libpng (ImageCore) to the same pixels.
@Suite struct CanvasTests {
    static let background = CanvasColor(rgb: 0xD6E4EF)
    static let red = CanvasColor(rgb: 0xE53935)

    @Test func aFilledRectangleReadsBackItsColourAndNothingElseChanges() throws {
        var canvas = Canvas(width: 120, height: 80, background: Self.background)
        canvas.fill(CanvasRect(x: 20, y: 10, width: 40, height: 30), color: Self.red)
        let pixels = canvas.render()
        #expect(pixels.width == 120 && pixels.height == 80)
        #expect(pixels.pixel(x: 20, y: 10) == Self.red.pixel)
        #expect(pixels.pixel(x: 59, y: 39) == Self.red.pixel)
        #expect(pixels.pixel(x: 60, y: 39) == Self.background.pixel)
        #expect(pixels.pixel(x: 19, y: 10) == Self.background.pixel)
        #expect(pixels.pixel(x: 120, y: 0) == nil && pixels.pixel(x: -1, y: 0) == nil)
        // A triangle.
        var triangle = Canvas(width: 40, height: 40, background: Self.background)
        triangle.fillPolygon([CanvasPoint(x: 0, y: 0), CanvasPoint(x: 40, y: 0), CanvasPoint(x: 0, y: 40)], color: Self.red)
        let drawn = triangle.render()
        #expect(drawn.pixel(x: 5, y: 5) == Self.red.pixel && drawn.pixel(x: 35, y: 35) == Self.background.pixel)
        // Half-transparent colour over the background.
        var over = Canvas(width: 10, height: 10, background: Self.background)
        let shade = CanvasColor(rgb: 0x000000, alpha: 0.25)
        over.fill(CanvasRect(x: 0, y: 0, width: 10, height: 10), color: shade)
        #expect(try #require(over.render().pixel(x: 5, y: 5)).distance(to: shade.over(Self.background)) <= 1)
    }

    @Test func roundedCornersAndTheBubbleTail() throws {
        var canvas = Canvas(width: 200, height: 100, background: Self.background)
        let body = CanvasRect(x: 40, y: 10, width: 100, height: 60)
        canvas.fillBubble(body, radii: .all(20), tail: .right, tailWidth: 18, color: Self.red)
        let pixels = canvas.render()
        #expect(pixels.pixel(x: 41, y: 11) == Self.background.pixel, "the top-left corner is rounded")
        #expect(pixels.pixel(x: 41, y: 68) == Self.background.pixel, "the bottom-left corner is rounded")
        #expect(pixels.pixel(x: 139, y: 69) == Self.red.pixel, "the tail's corner is square")
        #expect(try #require(pixels.pixel(x: 146, y: 69)).distance(to: Self.red.pixel) < 60, "the tail reaches out at the bottom")
        #expect(pixels.pixel(x: 150, y: 50) == Self.background.pixel, "higher up, beyond the side, is background")
        #expect(pixels.pixel(x: 160, y: 69) == Self.background.pixel, "no further than the tail's width")
        #expect(pixels.pixel(x: 90, y: 40) == Self.red.pixel)

        var left = Canvas(width: 200, height: 100, background: Self.background)
        left.fillBubble(body, radii: .all(20), tail: .left, tailWidth: 18, color: Self.red)
        let mirrored = left.render()
        #expect(try #require(mirrored.pixel(x: 33, y: 69)).distance(to: Self.red.pixel) < 60)
        #expect(mirrored.pixel(x: 139, y: 69) == Self.background.pixel)
        for y in 50..<70 { #expect(mirrored.pixel(x: 40, y: y) == Self.red.pixel, "no seam between body and tail at y \(y)") }
    }

    @Test func aPictureIsScaledIntoItsRectangle() throws {
        // 2×1: red on the left, blue on the right, one half-transparent green pixel row below.
        let rgba: [UInt8] = [255, 0, 0, 255, 0, 0, 255, 255, 0, 128, 0, 128, 0, 128, 0, 128]
        let image = try #require(CanvasImage(width: 2, height: 2, bytesPerRow: 8, premultipliedRGBA: rgba))
        var canvas = Canvas(width: 100, height: 100, background: CanvasColor(rgb: 0xFFFFFF))
        canvas.draw(image, in: CanvasRect(x: 0, y: 0, width: 100, height: 100), mode: .fill)
        let pixels = canvas.render()
        let topLeft = try #require(pixels.pixel(x: 5, y: 5)), topRight = try #require(pixels.pixel(x: 95, y: 5))
        #expect(topLeft.red > 240 && topLeft.blue < 15)
        #expect(topRight.blue > 240 && topRight.red < 15)
        let bottom = try #require(pixels.pixel(x: 50, y: 95))  // half-green over white
        #expect(bottom.distance(to: CanvasColor(rgb: 0x00FF00, alpha: 128.0 / 255).over(CanvasColor(rgb: 0xFFFFFF))) <= 3)

        // Fit keeps the aspect: a 2×1 picture in a square leaves bands above and below.
        let wide = try #require(CanvasImage(width: 2, height: 1, bytesPerRow: 8, premultipliedRGBA: Array(rgba[0..<8])))
        var fitted = Canvas(width: 100, height: 100, background: CanvasColor(rgb: 0xFFFFFF))
        fitted.draw(wide, in: CanvasRect(x: 0, y: 0, width: 100, height: 100), mode: .fit)
        let fit = fitted.render()
        #expect(fit.pixel(x: 50, y: 10) == CanvasColor(rgb: 0xFFFFFF).pixel)
        #expect(try #require(fit.pixel(x: 10, y: 50)).red > 240)
        #expect(CanvasImage(width: 2, height: 2, bytesPerRow: 8, premultipliedRGBA: [0, 0]) == nil)
    }

    @Test func textIsDrawnWhereTheLayoutPutsIt() throws {
        let text = "Hello, bold world"
        let entities = [MessageTextEntity(range: 7..<11, type: .bold)]
        let laid = TextLayout.layout(text, entities: entities, width: 400, fontSize: 30)
        var canvas = Canvas(width: 420, height: 80, background: CanvasColor(rgb: 0xFFFFFF))
        canvas.drawText(text, entities: entities, width: 400, fontSize: 30, at: CanvasPoint(x: 10, y: 20), color: CanvasColor(rgb: 0x000000))
        let pixels = canvas.render()
        var inked = 0
        var outside = 0
        for y in 0..<80 {
            for x in 0..<420 {
                guard let pixel = pixels.pixel(x: x, y: y), pixel.luma < 128 else { continue }
                let inBounds =
                    Double(x) >= 10 + laid.bounds.x - 1 && Double(x) <= 10 + laid.bounds.maxX + 1
                    && Double(y) >= 20 + laid.bounds.y - 1 && Double(y) <= 20 + laid.bounds.maxY + 1
                if inBounds { inked += 1 } else { outside += 1 }
            }
        }
        #expect(inked > 300, "the text is drawn")
        #expect(outside == 0, "nothing is drawn outside the layout's bounds")
        // A link keeps the link colour whatever the text colour.
        var link = Canvas(width: 200, height: 50, background: CanvasColor(rgb: 0xFFFFFF))
        link.drawText("@mention", entities: [MessageTextEntity(range: 0..<8, type: .mention)], width: 200, fontSize: 30,
                      at: CanvasPoint(x: 0, y: 0), color: CanvasColor(rgb: 0x000000))
        let drawn = link.render()
        let darkest = (0..<50).flatMap { y in (0..<200).compactMap { drawn.pixel(x: $0, y: y) } }.min { $0.luma < $1.luma }
        let ink = try #require(darkest)
        #expect(ink.blue > ink.red + 60, "links are blue: \(ink)")
    }

    @Test func thePNGDecodesToTheSamePixels() throws {
        var canvas = Canvas(width: 64, height: 48, background: Self.background)
        canvas.fill(CanvasRect(x: 8, y: 8, width: 20, height: 20), radii: .all(6), color: Self.red)
        canvas.line(from: CanvasPoint(x: 40, y: 4), to: CanvasPoint(x: 40, y: 40), width: 4, color: CanvasColor(rgb: 0x3FA2E6))
        let pixels = canvas.render()
        let png = try pixels.png()
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(Array(png[12..<16]) == Array("IHDR".utf8))
        #expect(Array(png[16..<24]) == [0, 0, 0, 64, 0, 0, 0, 48])
        let decoded = try PNGCodec.decode(png)
        #expect(decoded.width == 64 && decoded.height == 48)
        for (x, y) in [(0, 0), (18, 18), (40, 20), (63, 47), (9, 9)] {
            let ours = try #require(pixels.pixel(x: x, y: y))
            let theirs = decoded[x, y]
            #expect(CanvasPixel(red: theirs.r, green: theirs.g, blue: theirs.b, alpha: theirs.a) == ours, "(\(x), \(y))")
        }
    }
}
