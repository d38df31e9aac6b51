import Foundation
import ImageCore
import VideoBinding
import XCTest

/// Probing: what FFmpeg's demuxer says about videos the `ffmpeg` command made.
final class VideoProbeTests: XCTestCase {
    func testProbeReadsDurationSizeCodecAndAudio() throws {
        let info = try VideoDecoder.probe(VideoSamples.bytes(VideoSamples.mp4WithAudio))
        XCTAssertEqual(info.width, 320)
        XCTAssertEqual(info.height, 240)
        XCTAssertEqual(info.codec, "h264")
        XCTAssertTrue(info.container.contains("mp4"), info.container)
        XCTAssertTrue(info.hasAudio)
        XCTAssertEqual(info.duration, 1.0, accuracy: 0.1)
        XCTAssertEqual(info.wholeSeconds, 1)
    }

    func testSilentVideoHasNoAudio() throws {
        let info = try VideoDecoder.probe(fileAt: VideoSamples.silentSquare)
        XCTAssertEqual(info.width, 160)
        XCTAssertEqual(info.height, 160)
        XCTAssertFalse(info.hasAudio)
        XCTAssertEqual(info.duration, 2.0, accuracy: 0.1)
    }

    func testTooManyBytesIsRefusedBeforeReading() {
        let bytes = VideoSamples.bytes(VideoSamples.silentSquare)
        XCTAssertThrowsError(try VideoDecoder.probe(bytes, limits: VideoLimits(maxBytes: 1_000))) { error in
            XCTAssertEqual(error as? VideoError, .tooManyBytes(count: bytes.count, limit: 1_000))
        }
    }

    func testFramesLargerThanTheLimitAreRefusedBeforeDecoding() {
        let limits = VideoLimits(maxDimension: 200)
        XCTAssertThrowsError(try VideoDecoder.firstFrame(VideoSamples.bytes(VideoSamples.mp4WithAudio), limits: limits))
        { error in
            XCTAssertEqual(error as? VideoError, .tooLarge(width: 320, height: 240, limits: limits))
        }
        let pixels = VideoLimits(maxPixels: 160 * 159)
        XCTAssertThrowsError(try VideoDecoder.probe(VideoSamples.bytes(VideoSamples.silentSquare), limits: pixels))
    }

    func testNotAVideoIsRefused() {
        XCTAssertThrowsError(try VideoDecoder.probe(Array("hello, this is not a video".utf8)))
        XCTAssertThrowsError(try VideoDecoder.probe([]))
        // An audio-only file opens but has no video stream.
        let audio = VideoSamples.make("tone.m4a", ["-f", "lavfi", "-i", "sine=frequency=440", "-t", "0.5"])
        XCTAssertThrowsError(try VideoDecoder.probe(VideoSamples.bytes(audio))) { error in
            XCTAssertEqual(error as? VideoError, .noVideoStream)
        }
    }
}
