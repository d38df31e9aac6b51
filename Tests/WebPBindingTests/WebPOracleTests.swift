import Foundation
import ImageCore
import MediaTestSupport
import Testing
import WebPBinding

/// Our decoder against cwebp's files, our encoder against dwebp, pixel by pixel.
@Suite struct WebPOracleTests {
    @Test func weDecodeCwebpLosslessExactly() throws {
        let dir = Tools.scratch("webp")
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = Drawing.gradient(width: 80, height: 64)
        let png = dir.appendingPathComponent("s.png"), webp = dir.appendingPathComponent("s.webp")
        try Data(PNGCodec.encode(source)).write(to: png)
        #expect(try Tools.run("cwebp", ["-quiet", "-lossless", "-exact", png.path, "-o", webp.path]) == 0)
        let bytes = [UInt8](try Data(contentsOf: webp))
        let info = try WebPDecoder.info(bytes)
        #expect(info.width == 80 && info.height == 64 && info.hasAlpha && !info.isAnimated && info.isLossless)
        let decoded = try WebPDecoder.decode(bytes)
        // libwebp premultiplies with its own rounding: at most one step apart.
        #expect(try #require(decoded.maxChannelDifference(source)) <= 1)
    }

    @Test func weDecodeCwebpLossyWithinTolerance() throws {
        let dir = Tools.scratch("webp")
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = Drawing.gradient(width: 96, height: 96).flattened(over: (255, 255, 255))
        let png = dir.appendingPathComponent("s.png"), webp = dir.appendingPathComponent("s.webp")
        let pam = dir.appendingPathComponent("s.pam")
        try Data(PNGCodec.encode(source)).write(to: png)
        #expect(try Tools.run("cwebp", ["-quiet", "-q", "90", png.path, "-o", webp.path]) == 0)
        #expect(try Tools.run("dwebp", ["-quiet", webp.path, "-pam", "-o", pam.path]) == 0)
        let ours = try WebPDecoder.decode([UInt8](try Data(contentsOf: webp)))
        let theirs = try #require(try Tools.readPAM(pam))
        // Same decoder library, same pixels: our decode is dwebp's decode (fancy upsampling in both).
        #expect(try #require(ours.maxChannelDifference(theirs)) <= 1)
        #expect(try #require(ours.meanChannelDifference(source)) < 4)
    }

    @Test(arguments: [WebPCompression.lossless, .lossy(quality: 85)])
    func dwebpDecodesOurs(compression: WebPCompression) throws {
        let dir = Tools.scratch("webp")
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = Drawing.gradient(width: 72, height: 50)
        let webp = dir.appendingPathComponent("o.webp"), pam = dir.appendingPathComponent("o.pam")
        try Data(try WebPEncoder.encode(source, compression)).write(to: webp)
        #expect(try Tools.run("dwebp", ["-quiet", webp.path, "-pam", "-o", pam.path]) == 0)
        let theirs = try #require(try Tools.readPAM(pam))
        let ours = try WebPDecoder.decode([UInt8](try Data(contentsOf: webp)))
        #expect(try #require(ours.maxChannelDifference(theirs)) <= 1)
        if compression == .lossless {
            #expect(try #require(theirs.maxChannelDifference(source)) <= 1)
        } else {
            #expect(try #require(theirs.meanChannelDifference(source)) < 6)
        }
    }

    @Test func animatedRoundTripAndWebpmuxCountsFrames() throws {
        let dir = Tools.scratch("webp")
        defer { try? FileManager.default.removeItem(at: dir) }
        let frames = (0..<4).map { i -> Bitmap in
            var b = Drawing.gradient(width: 40, height: 40)
            for y in 0..<10 { for x in 0..<10 { b[x + i * 7, y + i * 5] = RGBA(r: 255, g: 0, b: 0, a: 255) } }
            return b
        }
        let bytes = try WebPEncoder.encodeAnimation(frames, durations: [40, 40, 40, 80], .lossless)
        let info = try WebPDecoder.info(bytes)
        #expect(info.isAnimated && info.width == 40 && info.height == 40)
        let animation = try WebPDecoder.decodeAnimation(bytes)
        #expect(animation.frames.count == 4)
        #expect(animation.frames.map(\.duration) == [40, 40, 40, 80])
        for (decoded, source) in zip(animation.frames, frames) {
            #expect(try #require(decoded.bitmap.maxChannelDifference(source)) <= 1)
        }
        let file = dir.appendingPathComponent("a.webp")
        try Data(bytes).write(to: file)
        let webpmux = try Tools.runCapturing("webpmux", ["-info", file.path])
        #expect(webpmux.status == 0)
        #expect(webpmux.output.contains("Number of frames: 4"))
    }

    @Test func weDecodeImg2webpAnimation() throws {
        let dir = Tools.scratch("webp")
        defer { try? FileManager.default.removeItem(at: dir) }
        var paths: [String] = []
        var sources: [Bitmap] = []
        for i in 0..<3 {
            var b = Bitmap(width: 24, height: 24)
            for y in 0..<24 { for x in 0..<24 { b[x, y] = RGBA(r: UInt8(i * 100), g: UInt8(x * 10), b: 50, a: 255) } }
            let path = dir.appendingPathComponent("f\(i).png").path
            try Data(PNGCodec.encode(b)).write(to: URL(fileURLWithPath: path))
            paths.append(path)
            sources.append(b)
        }
        let out = dir.appendingPathComponent("anim.webp").path
        #expect(try Tools.run("img2webp", ["-lossless", "-d", "50"] + paths + ["-o", out]) == 0)
        let animation = try WebPDecoder.decodeAnimation([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))
        #expect(animation.frames.count == 3)
        for (decoded, source) in zip(animation.frames, sources) { #expect(decoded.bitmap == source) }
    }
}
