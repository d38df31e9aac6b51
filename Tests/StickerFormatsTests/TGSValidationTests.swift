import Foundation
import GZip
import StickerFormats
import Testing

@Suite struct TGSValidationTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("MediaFixtures/lottie")

    static func json(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: fixtures.appendingPathComponent("\(name).json")))
    }

    @Test func conformingStickerHasNoViolations() throws {
        let tgs = GZip.compress(try Self.json("square"), level: 9)
        let (info, json) = try TGSValidation.inspect(tgs)
        #expect(json == (try Self.json("square")))
        #expect(info.wasGZip && info.width == 512 && info.height == 512 && info.frameRate == 60)
        #expect(info.frameCount == 180 && info.duration == 3 && info.layerCount == 1)
        #expect(TGSValidation.violations(info) == [])
        #expect(StickerFormat.detect(tgs) == .tgs)
    }

    @Test func plainJSONIsAccepted() throws {
        let (info, _) = try TGSValidation.inspect(try Self.json("masked"))
        #expect(!info.wasGZip && info.frameCount == 90 && info.layerCount == 2)
        #expect(StickerFormat.detect(try Self.json("masked")) == .lottieJSON)
    }

    @Test func everyRuleIsReported() throws {
        // 640×480, 120 fps, 5 s, and padded past 64 KB compressed with incompressible noise in the name.
        var text = String(decoding: try Self.json("oversized"), as: UTF8.self)
        var state: UInt64 = 1
        let noise = (0..<120_000).map { _ -> Character in
            state = state &* 6_364_136_223_846_793_005 &+ 1
            return Character(UnicodeScalar(UInt8(97 + (state >> 59) % 26)))
        }
        text = text.replacingOccurrences(of: "breaks every rule", with: String(noise))
        let (info, _) = try TGSValidation.inspect(GZip.compress(Array(text.utf8)))
        let violations = TGSValidation.violations(info)
        #expect(violations.count == 4)
        #expect(violations.contains(.canvas(width: 640, height: 480)))
        #expect(violations.contains(.frameRate(120)))
        #expect(violations.contains(.duration(5)))
        #expect(violations.contains { if case .compressedSize = $0 { true } else { false } })
    }

    @Test func gzipBombOverTheCapIsRefused() throws {
        // Valid JSON that inflates to 9 MB: whitespace after the object.
        var json = try Self.json("square")
        json += [UInt8](repeating: 0x20, count: 9 << 20)
        let bomb = GZip.compress(json, level: 9)
        #expect(bomb.count < 64 * 1024)
        #expect(throws: TGSError.gzip(.outputLimitExceeded(limit: 8 << 20))) { try TGSValidation.inspect(bomb) }
    }

    @Test func deeplyNestedJSONIsAnErrorNotAStackOverflow() {
        let deep =
            [UInt8](repeating: UInt8(ascii: "["), count: 200_000)
            + [UInt8](repeating: UInt8(ascii: "]"), count: 200_000)
        let wrapped =
            Array("{\"w\":512,\"h\":512,\"fr\":60,\"ip\":0,\"op\":60,\"layers\":".utf8) + deep + [UInt8(ascii: "}")]
        #expect(throws: TGSError.self) { try TGSValidation.inspect(GZip.compress(wrapped)) }
    }

    @Test func hundredCorruptVariantsFailCleanly() throws {
        let json = try Self.json("masked")
        let tgs = GZip.compress(json, level: 9)
        var state: UInt64 = 31
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var errors = 0
        for index in 0..<100 {
            var bytes: [UInt8]
            switch index % 5 {
            case 0: bytes = Array(tgs.prefix(next() % tgs.count))
            case 1:
                bytes = tgs
                bytes[10 + next() % (tgs.count - 10)] ^= UInt8(1 << (next() % 8))
            case 2:
                // Declared sizes far beyond the data: the canvas and the frame range.
                let text = String(decoding: json, as: UTF8.self)
                let lie =
                    index % 2 == 0
                    ? text.replacingOccurrences(of: "\"w\":512", with: "\"w\":999999999")
                    : text.replacingOccurrences(of: "\"op\":90,\"w\"", with: "\"op\":1e15,\"w\"")
                bytes = GZip.compress(Array(lie.utf8))
            case 3:
                // Truncated JSON inside an intact gzip stream.
                bytes = GZip.compress(Array(json.prefix(next() % json.count)))
            default:
                bytes = tgs
                bytes[bytes.count - 1 - next() % 4] ^= 0xFF  // the ISIZE trailer lies
            }
            do {
                _ = try TGSValidation.inspect(bytes)
                // A flip in the padding bits after the last deflate block changes nothing: the CRC proves it.
                #expect(try TGSValidation.unpack(bytes).json == json, "variant \(index) was accepted altered")
            } catch { errors += 1 }
        }
        #expect(errors >= 97)
    }
}
