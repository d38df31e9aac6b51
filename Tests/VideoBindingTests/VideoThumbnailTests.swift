import Foundation
import ImageCore
import JPEGBinding
import MediaTestSupport
import PhotoSizes
import VideoBinding
import XCTest

/// The first frame's thumbnails through the photo-size pipeline: valid JPEGs of the right size that look like it.
final class VideoThumbnailTests: XCTestCase {
    func testThumbnailIsTheFirstFrameInA320Box() throws {
        let thumbnail = try VideoDecoder.thumbnail(VideoSamples.bytes(VideoSamples.mp4WithAudio))
        XCTAssertEqual(thumbnail.info.width, 320)
        XCTAssertEqual(thumbnail.thumbnails.size.type, .m)
        XCTAssertEqual(thumbnail.thumbnails.size.width, 320)
        XCTAssertEqual(thumbnail.thumbnails.size.height, 240)
        let decoded = try JPEGDecoder.decode(thumbnail.thumbnails.size.jpeg)
        XCTAssertEqual(decoded.size, PixelSize(width: 320, height: 240))
        let difference = VideoSamples.difference(decoded.packedRGBA(), thumbnail.firstFrame.packedRGBA())
        XCTAssertLessThan(difference.mean, 6, "JPEG at quality 87 stays close to the frame")
        let stripped = try XCTUnwrap(thumbnail.thumbnails.stripped)
        XCTAssertEqual(stripped.width, 40)
        XCTAssertEqual(stripped.height, 30)
        XCTAssertEqual(try JPEGDecoder.decode(stripped.jpeg).size, PixelSize(width: 40, height: 30))
    }

    func testSmallVideoIsNotScaledUpAndFFprobeAcceptsTheJPEG() throws {
        let thumbnail = try VideoDecoder.thumbnail(VideoSamples.bytes(VideoSamples.silentSquare))
        XCTAssertEqual(thumbnail.thumbnails.size.width, 160)
        XCTAssertEqual(thumbnail.thumbnails.size.height, 160)
        let url = Tools.scratch("video-thumb").appendingPathComponent("thumb.jpg")
        try Data(thumbnail.thumbnails.size.jpeg).write(to: url)
        let probe = try Tools.runCapturing(
            "ffprobe",
            ["-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", url.path])
        XCTAssertEqual(probe.status, 0)
        XCTAssertEqual(probe.output.trimmingCharacters(in: .whitespacesAndNewlines), "mjpeg,160,160")
    }
}
