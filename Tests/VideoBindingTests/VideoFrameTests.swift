import Foundation
import ImageCore
import VideoBinding
import XCTest

/// Decoded frames against the `ffmpeg` command's own decode of the same frame.
final class VideoFrameTests: XCTestCase {
    func testFirstFrameMatchesFFmpeg() throws {
        let frame = try VideoDecoder.firstFrame(VideoSamples.bytes(VideoSamples.mp4WithAudio))
        XCTAssertEqual(frame.bitmap.size, PixelSize(width: 320, height: 240))
        XCTAssertEqual(frame.time, 0, accuracy: 0.001)
        let oracle = VideoSamples.ffmpegFrame(VideoSamples.mp4WithAudio)
        XCTAssertEqual(oracle.count, 320 * 240 * 4)
        let difference = VideoSamples.difference(frame.bitmap.packedRGBA(), oracle)
        XCTAssertLessThan(difference.mean, 1.0, "mean difference from ffmpeg's decode")
        XCTAssertLessThanOrEqual(difference.max, 8, "largest difference from ffmpeg's decode")
    }

    func testFrameAtATimeMatchesFFmpegSeekingThere() throws {
        let bytes = VideoSamples.bytes(VideoSamples.silentSquare)
        let frame = try VideoDecoder.frame(bytes, at: 1.5)
        XCTAssertEqual(frame.time, 1.5, accuracy: 0.01)
        let oracle = VideoSamples.ffmpegFrame(VideoSamples.silentSquare, at: 1.5)
        let difference = VideoSamples.difference(frame.bitmap.packedRGBA(), oracle)
        XCTAssertLessThan(difference.mean, 1.0)
        // And it is not the first frame (testsrc's counter and gradient move).
        let first = try VideoDecoder.firstFrame(bytes)
        XCTAssertGreaterThan(VideoSamples.difference(first.bitmap.packedRGBA(), oracle).mean, 2.0)
    }

    func testTimePastTheEndGivesTheLastFrame() throws {
        let frame = try VideoDecoder.frame(VideoSamples.bytes(VideoSamples.silentSquare), at: 60)
        XCTAssertEqual(frame.time, 1.9, accuracy: 0.01)
    }

    func testFramesAreOpaque() throws {
        let frame = try VideoDecoder.firstFrame(VideoSamples.bytes(VideoSamples.silentSquare))
        let pixels = frame.bitmap.packedRGBA()
        XCTAssertTrue(stride(from: 3, to: pixels.count, by: 4).allSatisfy { pixels[$0] == 255 })
    }
}
