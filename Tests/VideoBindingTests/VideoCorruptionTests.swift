import Foundation
import ImageCore
import TestVectors
import VideoBinding
import XCTest

/// Damaged input: truncated and corrupted videos end in a frame or a `VideoError`, never a trap or a hang.
final class VideoCorruptionTests: XCTestCase {
    func testTruncatedVideosNeverTrap() {
        let bytes = VideoSamples.bytes(VideoSamples.mp4WithAudio)
        var refused = 0
        for length in [0, 1, 8, 16, 100, 500, 1_000, bytes.count / 4, bytes.count / 2, bytes.count - 1] {
            let prefix = Array(bytes.prefix(length))
            // Typed throws: whatever fails is a VideoError.
            do { _ = try VideoDecoder.firstFrame(prefix) } catch { refused += 1 }
        }
        // MP4 keeps its index (moov) at the end: every prefix here lacks it.
        XCTAssertGreaterThanOrEqual(refused, 8)
    }

    func testCorruptedVideosNeverTrap() {
        let bytes = VideoSamples.bytes(VideoSamples.silentSquare)
        var generator = SeededGenerator(seed: 37)
        var decoded = 0
        for _ in 0..<60 {
            var damaged = bytes
            for _ in 0..<Int.random(in: 1...40, using: &generator) {
                damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(
                    in: 0...255, using: &generator)
            }
            do {
                _ = try VideoDecoder.probe(damaged)
                let frame = try VideoDecoder.frame(damaged, at: 1.0)
                XCTAssertLessThanOrEqual(frame.bitmap.width, VideoLimits.standard.maxDimension)
                decoded += 1
            } catch {
                XCTAssertFalse(error.description.isEmpty)
            }
        }
        XCTAssertGreaterThan(decoded, 0, "some damage only hurts pixels")
    }

    func testRandomBytesAreRefused() {
        var generator = SeededGenerator(seed: 7)
        for size in [10, 1_000, 50_000] {
            let noise = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
            XCTAssertThrowsError(try VideoDecoder.firstFrame(noise))
        }
    }
}
