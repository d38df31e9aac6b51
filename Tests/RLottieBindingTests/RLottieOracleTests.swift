import Foundation
import ImageCore
import RLottieBinding
import TestVectors
import Testing

/// Our binding's frames against a C program that calls rlottie's C API directly (compiled by the test).
@Suite struct RLottieOracleTests {
    static let fixtures = Fixtures.repositoryRoot.appendingPathComponent("Tests/MediaFixtures")

    static func compileOracle(into dir: URL) throws -> URL {
        let binary = dir.appendingPathComponent("rlottie-render")
        // The system C compiler, or the clang that ships with the Swift toolchain.
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
        let compiler = ["cc", "clang", "gcc"].flatMap { name in path.split(separator: ":").map { "\($0)/\(name)" } }
            .first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/bin/cc"
        let result = try ProcessRunner.run(
            URL(fileURLWithPath: compiler),
            ["-O2", "-o", binary.path, fixtures.appendingPathComponent("rlottie-render.c").path, "-lrlottie"])
        try #require(result.succeeded, "cannot compile the rlottie oracle: \(result.errorOutput)")
        return binary
    }

    @Test(arguments: ["square", "masked", "gradient"])
    func framesEqualTheCAPI(name: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rlottie-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let oracle = try Self.compileOracle(into: dir)
        let json = Self.fixtures.appendingPathComponent("lottie/\(name).json")
        let animation = try #require(LottieAnimation(json: [UInt8](try Data(contentsOf: json))))
        #expect(animation.size == PixelSize(width: 512, height: 512))
        for (frame, side) in [(0, 512), (17, 100), (44, 240), (animation.frameCount - 1, 64)]
        where frame < animation.frameCount {
            let raw = dir.appendingPathComponent("f.raw")
            let printed = try ProcessRunner.run(oracle, [json.path, "\(frame)", "\(side)", "\(side)", raw.path]).output
            #expect(printed.hasPrefix("\(animation.frameCount) "))
            let theirs = try #require(
                Bitmap(
                    width: side, height: side, bytesPerRow: side * 4,
                    premultipliedBGRA: [UInt8](try Data(contentsOf: raw))))
            let ours = animation.render(frame: frame, width: side, height: side)
            #expect(ours == theirs, "frame \(frame) at \(side)")
            // Not a blank frame: the animation draws something.
            #expect(ours.pixels.contains { $0 != 0 })
        }
    }

    @Test func metadata() throws {
        let json = [UInt8](try Data(contentsOf: Self.fixtures.appendingPathComponent("lottie/masked.json")))
        let animation = try #require(LottieAnimation(json: json))
        #expect(animation.frameCount == 90 && animation.frameRate == 30)
        // rlottie 0.1 reports (op − ip − 1) / fr: the time of the last frame, not the length of the loop.
        #expect(abs(animation.duration - 89.0 / 30) < 1e-6)
        // Frames differ over time (keyframed position and scale).
        #expect(animation.render(frame: 0, width: 64, height: 64) != animation.render(frame: 60, width: 64, height: 64))
    }

    // A player reuses one bitmap, and `render(frame:width:height:)` does not zero-fill its fresh storage: both rely
    // on rlottie clearing the whole surface before it draws. Old pixels (here a 0xA5 pattern, then other frames) must
    // never show through.
    @Test func renderingOverOldPixelsEqualsAFreshRender() throws {
        let json = [UInt8](try Data(contentsOf: Self.fixtures.appendingPathComponent("lottie/masked.json")))
        let animation = try #require(LottieAnimation(json: json))
        let side = 96
        var reused = try #require(
            Bitmap(
                width: side, height: side, bytesPerRow: side * 4,
                premultipliedRGBA: [UInt8](repeating: 0xA5, count: side * side * 4)))
        for frame in [0, 45, 89, 10] {
            animation.render(frame: frame, into: &reused)
            #expect(reused == animation.render(frame: frame, width: side, height: side), "frame \(frame)")
        }
        let stale = RGBA(r: 0xA5, g: 0xA5, b: 0xA5, a: 0xA5)
        #expect((0..<side * side).allSatisfy { reused[$0 % side, $0 / side] != stale })
    }

    @Test func rejectsGarbage() {
        #expect(LottieAnimation(json: Array("not json".utf8)) == nil)
    }
}
