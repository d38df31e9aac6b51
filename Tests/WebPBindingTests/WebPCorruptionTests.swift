import ImageCore
import MediaTestSupport
import Testing
import WebPBinding

/// 100 damaged variants per flavour: every one ends in an error or a bitmap of the declared size, never a crash.
@Suite struct WebPCorruptionTests {
    static func variants(of bytes: [UInt8], seed: UInt64) -> [[UInt8]] {
        var state = seed
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        return (0..<100).map { index in
            var copy = bytes
            switch index % 5 {
            case 0: copy = Array(copy.prefix(next() % copy.count))
            case 1: copy[12 + next() % (copy.count - 12)] ^= UInt8(1 << (next() % 8))
            case 2:
                // RIFF size far beyond the data.
                copy[4] = 0xF0; copy[5] = 0xFF; copy[6] = 0xFF; copy[7] = 0x7F
            case 3:
                // A chunk size claiming gigabytes.
                copy[16] = 0xFF; copy[17] = 0xFF; copy[18] = 0xFF; copy[19] = 0x7F
            default: for _ in 0..<5 { copy[next() % copy.count] = UInt8(truncatingIfNeeded: next()) }
            }
            return copy
        }
    }

    @Test(arguments: [WebPCompression.lossless, .lossy(quality: 70)])
    func stillVariants(compression: WebPCompression) throws {
        let bytes = try WebPEncoder.encode(Drawing.gradient(width: 40, height: 40), compression)
        var errors = 0
        for (index, variant) in Self.variants(of: bytes, seed: 5).enumerated() {
            do {
                let bitmap = try WebPDecoder.decode(variant, maxPixels: 1 << 20)
                #expect(bitmap.pixels.count == bitmap.width * bitmap.height * 4, "variant \(index)")
            } catch {
                errors += 1
            }
            if index % 5 == 0 { #expect(throws: WebPError.self) { try WebPDecoder.decode(variant) } }
        }
        #expect(errors >= 40)
    }

    @Test func animatedVariants() throws {
        let frames = [Drawing.gradient(width: 30, height: 30), Bitmap(width: 30, height: 30)]
        let bytes = try WebPEncoder.encodeAnimation(frames, durations: [50, 50], .lossy(quality: 60))
        var errors = 0
        for variant in Self.variants(of: bytes, seed: 11) {
            do { _ = try WebPDecoder.decodeAnimation(variant, maxPixels: 1 << 20, maxFrames: 100) } catch {
                errors += 1
            }
        }
        #expect(errors >= 40)
    }

    @Test func sizeCapRefusesBeforeDecoding() throws {
        let bytes = try WebPEncoder.encode(Bitmap(width: 300, height: 300), .lossless)
        #expect(throws: WebPError.tooLarge(width: 300, height: 300, frames: 1)) {
            try WebPDecoder.decode(bytes, maxPixels: 10_000)
        }
    }
}
