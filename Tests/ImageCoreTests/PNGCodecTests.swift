import Foundation
import ImageCore
import MediaTestSupport
import Testing

@Suite struct PNGCodecTests {
    @Test func roundTripIsExactOnPremultipliedPixels() throws {
        let bitmap = Drawing.gradient(width: 67, height: 41)
        let png = PNGCodec.encode(bitmap)
        #expect(PNGCodec.isPNG(png))
        let decoded = try PNGCodec.decode(png)
        #expect(decoded == bitmap)
    }

    @Test func strideIsRespected() throws {
        var padded = Bitmap(width: 3, height: 2, bytesPerRow: 20)
        padded[2, 1] = RGBA(r: 100, g: 50, b: 25, a: 200)
        padded.pixels[12] = 99  // padding byte, must not leak into the image
        let decoded = try PNGCodec.decode(PNGCodec.encode(padded))
        #expect(decoded[2, 1] == padded[2, 1])
        #expect(decoded.packedRGBA() == padded.packedRGBA())
    }

    /// cwebp (libwebp's tool, reading PNG with libpng itself) and dwebp agree with the pixels we wrote.
    @Test func cwebpReadsOurPNG() throws {
        let dir = Tools.scratch("imagecore")
        defer { try? FileManager.default.removeItem(at: dir) }
        let bitmap = Drawing.gradient(width: 48, height: 30)
        try Data(PNGCodec.encode(bitmap)).write(to: dir.appendingPathComponent("a.png"))
        #expect(
            try Tools.run(
                "cwebp",
                [
                    "-quiet", "-lossless", "-exact", dir.appendingPathComponent("a.png").path,
                    "-o", dir.appendingPathComponent("a.webp").path,
                ]) == 0)
        #expect(
            try Tools.run(
                "dwebp",
                [
                    "-quiet", dir.appendingPathComponent("a.webp").path, "-pam",
                    "-o", dir.appendingPathComponent("a.pam").path,
                ]) == 0)
        let theirs = try #require(try Tools.readPAM(dir.appendingPathComponent("a.pam")))
        #expect(theirs == bitmap)
    }

    @Test func largeSolidImagesCompressHardAndStillDecode() throws {
        var solid = Bitmap(width: 2048, height: 2048)
        for i in stride(from: 0, to: solid.pixels.count, by: 4) { solid.pixels[i + 1] = 200; solid.pixels[i + 3] = 255 }
        let png = PNGCodec.encode(solid)
        #expect(png.count < 40_000)
        let decoded = try PNGCodec.decode(png)
        #expect(decoded.size == solid.size && decoded[2047, 2047] == RGBA(r: 0, g: 200, b: 0, a: 255))
        #expect(throws: PNGError.tooLarge(width: 2048, height: 2048, limit: 1 << 20, inputSize: png.count)) {
            try PNGCodec.decode(png, maxPixels: 1 << 20)
        }
    }

    @Test func hundredCorruptVariantsFailCleanly() throws {
        let png = PNGCodec.encode(Drawing.gradient(width: 32, height: 32))
        var state: UInt64 = 77
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var failures = 0
        for index in 0..<100 {
            var bytes = png
            switch index % 4 {
            case 0: bytes = Array(bytes.prefix(next() % bytes.count))
            case 1: bytes[8 + next() % (bytes.count - 8)] ^= UInt8(1 << (next() % 8))
            case 2:
                // IHDR claims 60000×60000 pixels: refused before anything is allocated.
                bytes[16] = 0; bytes[17] = 0; bytes[18] = 0xEA; bytes[19] = 0x60
                bytes[20] = 0; bytes[21] = 0; bytes[22] = 0xEA; bytes[23] = 0x60
            default: for _ in 0..<6 { bytes[next() % bytes.count] = UInt8(truncatingIfNeeded: next()) }
            }
            do { _ = try PNGCodec.decode(bytes) } catch { failures += 1 }
        }
        // Every chunk has a CRC: nearly every change is caught.
        #expect(failures >= 95)
    }
}
