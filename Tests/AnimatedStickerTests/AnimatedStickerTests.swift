import AnimatedSticker
import Foundation
import GZip
import ImageCore
import RLottieBinding
import StickerFormats
import Testing
import WebPBinding

enum Fixtures {
    static let lottie = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("MediaFixtures/lottie")

    static func tgs(_ name: String) throws -> [UInt8] {
        GZip.compress([UInt8](try Data(contentsOf: lottie.appendingPathComponent("\(name).json"))), level: 9)
    }
}

@Suite struct LottieFrameSourceTests {
    @Test func framesAtAnySizeAndRate() throws {
        let source = try LottieFrameSource(data: try Fixtures.tgs("square"), size: PixelSize(width: 96, height: 64))
        #expect(source.frameCount == 180 && source.frameRate == 60 && source.violations.isEmpty)
        let frame = try source.frame(at: 90)
        #expect(frame.width == 96 && frame.height == 64)
        #expect(frame == source.animation.render(frame: 90, width: 96, height: 64))
        #expect(source.thumbnail() == (try source.frame(at: 0)))
        var reused = Bitmap(width: 1, height: 1)
        for index in [5, 90, 179] {
            try source.frame(at: index, into: &reused)
            #expect(reused == (try source.frame(at: index)))
        }
        #expect(throws: AnimatedStickerError.frameOutOfRange(180, count: 180)) { try source.frame(at: 180) }
        #expect(source.frameIndices(outputRate: 60) == Array(0..<180))
        #expect(source.frameIndices(outputRate: 30) == stride(from: 0, to: 180, by: 2).map { $0 })
        #expect(source.frameIndices(outputRate: 24).count == 72)
        #expect(source.frameIndices(outputRate: 120).count == 360)
    }

    @Test func canvasSizeByDefaultAndLimitsReported() throws {
        let json = [UInt8](try Data(contentsOf: Fixtures.lottie.appendingPathComponent("oversized.json")))
        let source = try LottieFrameSource(data: json)
        #expect(source.size == PixelSize(width: 640, height: 480))
        #expect(source.violations.count == 3)
        #expect(throws: AnimatedStickerError.badSize(PixelSize(width: 0, height: 10))) {
            try LottieFrameSource(data: json, size: PixelSize(width: 0, height: 10))
        }
    }

    @Test func geometryPastTheRasterizersRangeIsRefusedBeforeRendering() throws {
        // The fuzzer's tgs finding: the fixture square with its group scaled by 1,004,100 % and turned a little,
        // whose frames took rlottie minutes each. Refused at once, at any size; the square itself renders at 2048.
        let square = String(
            decoding: try Data(contentsOf: Fixtures.lottie.appendingPathComponent("square.json")), as: UTF8.self)
        let scaled = square.replacingOccurrences(of: #""s":{"a":0,"k":[100,100]}"#, with: #""s":{"a":0,"k":[1004100]}"#)
        #expect(scaled != square)
        let started = ContinuousClock.now
        var refusal = ""
        do {
            _ = try LottieFrameSource(data: Array(scaled.utf8), size: PixelSize(width: 16, height: 16))
        } catch .invalid(.beyondRenderLimits(let why)) {
            refusal = why
        } catch {
            Issue.record("refused otherwise: \(error)")
        }
        #expect(refusal.contains("layer 'box' reaches"))
        #expect(ContinuousClock.now - started < .seconds(5))
        let full = try LottieFrameSource(data: Array(square.utf8), size: PixelSize(width: 2048, height: 2048))
        #expect(try full.frame(at: 90).width == 2048)
    }

    @Test func corruptStickersAreErrors() throws {
        let tgs = try Fixtures.tgs("masked")
        var state: UInt64 = 8
        var errors = 0
        for index in 0..<100 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            var bytes = tgs
            if index % 2 == 0 {
                bytes = Array(bytes.prefix(Int(state >> 33) % bytes.count))
            } else {
                bytes[12 + Int(state >> 33) % (bytes.count - 12)] ^= 0x10
            }
            do { _ = try LottieFrameSource(data: bytes, size: PixelSize(width: 32, height: 32)) } catch { errors += 1 }
        }
        #expect(errors >= 97)
    }
}

@Suite struct AnimatedStickerFrameCacheTests {
    static func source() throws -> LottieFrameSource {
        try LottieFrameSource(data: try Fixtures.tgs("masked"), size: PixelSize(width: 80, height: 80))
    }

    @Test(arguments: [1, 16])
    func everyFrameIsExactInAnyOrder(keyframeInterval: Int) throws {
        let source = try Self.source()
        let direct = try (0..<source.frameCount).map { try source.frame(at: $0) }
        let cache = try AnimatedStickerFrameCache.build(from: source, keyframeInterval: keyframeInterval)
        #expect(cache.frameCount == 90 && cache.frameRate == 30 && cache.size == source.size)
        for index in 0..<cache.frameCount { #expect(try cache.frame(at: index) == direct[index], "frame \(index)") }
        var state: UInt64 = 3
        for _ in 0..<60 {
            state = state &* 6_364_136_223_846_793_005 &+ 1
            let index = Int(state >> 33) % cache.frameCount
            #expect(try cache.frame(at: index) == direct[index], "random frame \(index)")
        }
        // Reopened from its bytes, the cache reads the same.
        let reopened = try AnimatedStickerFrameCache(data: cache.data)
        #expect(try reopened.frame(at: 77) == direct[77])
        #expect(cache.compressedSize * 4 < cache.rawSize)
    }

    @Test func hundredCorruptCachesFailCleanly() throws {
        // The gradient sticker: mostly delta frames, so damage inside the XOR chain is exercised too.
        let json = [UInt8](try Data(contentsOf: Fixtures.lottie.appendingPathComponent("gradient.json")))
        let source = try LottieFrameSource(data: json, size: PixelSize(width: 48, height: 48))
        let cache = try AnimatedStickerFrameCache.build(from: source, keyframeInterval: 8)
        #expect(cache.deltaFrameCount > 0)
        let data = cache.data
        var state: UInt64 = 17
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var errors = 0
        for index in 0..<100 {
            var bytes = data
            switch index % 4 {
            case 0: bytes = Array(bytes.prefix(next() % bytes.count))
            case 1:
                // Header claims: a 60000-pixel side or a million frames.
                let field = index % 8 == 1 ? 8 : 16
                bytes[field] = 0x40; bytes[field + 1] = 0x42; bytes[field + 2] = 0x0F
            case 2:
                // A table entry pointing past the end.
                let entry = 32 + (next() % cache.frameCount) * 8
                bytes[entry + 3] = 0x7F
            default:
                // A flipped bit inside the compressed frames (after the table).
                let start = 32 + cache.frameCount * 8
                bytes[start + next() % (bytes.count - start)] ^= UInt8(1 << (next() % 8))
            }
            do {
                let opened = try AnimatedStickerFrameCache(data: bytes)
                for i in 0..<opened.frameCount { _ = try opened.frame(at: i) }
                Issue.record("variant \(index) read without error")
            } catch {
                errors += 1
            }
        }
        #expect(errors == 100)
    }
}

@Suite struct WebPFrameSourceTests {
    @Test func animatedWebPStickerThroughTheCache() throws {
        let lottie = try LottieFrameSource(data: try Fixtures.tgs("square"), size: PixelSize(width: 64, height: 64))
        let frames = try (0..<12).map { try lottie.frame(at: $0 * 15) }
        let webp = try WebPEncoder.encodeAnimation(frames, durations: [Int](repeating: 50, count: 12), .lossless)
        let source = try WebPFrameSource(data: webp)
        #expect(source.frameCount == 12 && source.size == PixelSize(width: 64, height: 64))
        #expect(abs(source.frameRate - 20) < 1e-9 && source.durations == [Int](repeating: 50, count: 12))
        for i in 0..<12 { #expect(try #require(try source.frame(at: i).maxChannelDifference(frames[i])) <= 1) }
        let cache = try AnimatedStickerFrameCache.build(from: source, keyframeInterval: 4)
        for i in [11, 0, 5, 6, 3] { #expect(try cache.frame(at: i) == (try source.frame(at: i))) }
        #expect(throws: AnimatedStickerError.self) { try WebPFrameSource(data: Array(webp.prefix(100))) }
    }
}

@Suite struct FrameCacheLayoutTests {
    @Test func deltasAreKeptOnlyWhereTheyPackSmaller() throws {
        let source = try LottieFrameSource(data: try Fixtures.tgs("square"), size: PixelSize(width: 64, height: 64))
        let everyFrameWhole = try AnimatedStickerFrameCache.build(from: source, keyframeInterval: 1)
        let mixed = try AnimatedStickerFrameCache.build(from: source, keyframeInterval: 16)
        // Per frame the smaller of whole and delta is stored, so the mixed cache is never larger (table equal).
        #expect(mixed.compressedSize <= everyFrameWhole.compressedSize)
        for index in stride(from: 179, through: 0, by: -7) {
            #expect(try mixed.frame(at: index) == everyFrameWhole.frame(at: index))
        }
        #expect(everyFrameWhole.deltaFrameCount == 0)
    }

    /// A small dot over a static radial gradient: deltas win, and the XOR chain must restore every frame exactly.
    @Test func deltaChainIsExactInAnyOrder() throws {
        let json = [UInt8](try Data(contentsOf: Fixtures.lottie.appendingPathComponent("gradient.json")))
        let source = try LottieFrameSource(data: json, size: PixelSize(width: 96, height: 96))
        let direct = try (0..<source.frameCount).map { try source.frame(at: $0) }
        let cache = try AnimatedStickerFrameCache.build(from: source, keyframeInterval: 16)
        let whole = try AnimatedStickerFrameCache.build(from: source, keyframeInterval: 1)
        #expect(cache.deltaFrameCount >= 50)
        #expect(cache.compressedSize * 2 < whole.compressedSize)
        var state: UInt64 = 99
        for _ in 0..<120 {
            state = state &* 6_364_136_223_846_793_005 &+ 1
            let index = Int(state >> 33) % cache.frameCount
            #expect(try cache.frame(at: index) == direct[index], "frame \(index)")
        }
        for index in 0..<cache.frameCount { #expect(try cache.frame(at: index) == direct[index]) }
    }
}
