import Foundation
import ImageCore
import MediaTestSupport
import TestVectors
import VideoBinding
import XCTest

/// Every frame of a WebM VP9 video sticker, with its alpha plane: libvpx decodes what FFmpeg's native decoder drops.
final class VideoFrameReaderTests: XCTestCase {
    func testEveryFrameOfAStickerKeepsItsAlpha() throws {
        let bytes = WebMStickers.make()
        let reader = try VideoFrameReader(bytes)
        XCTAssertEqual(reader.decoderName, "libvpx-vp9", "the alpha plane needs libvpx (Debian's libavcodec has it)")
        XCTAssertTrue(reader.info.hasAlpha)
        XCTAssertEqual(reader.info.codec, "vp9")
        XCTAssertEqual(reader.info.frameRate, 30, accuracy: 0.01)
        let frames = try reader.readAll()
        XCTAssertEqual(frames.count, 30)
        XCTAssertEqual(reader.framesRead, 30)
        XCTAssertNil(try reader.next(), "the end stays the end")
        let color = WebMStickers.discColor
        for (index, frame) in frames.enumerated() {
            XCTAssertEqual(frame.bitmap.size, PixelSize(width: 512, height: 512))
            for (x, y) in [(0, 0), (511, 0), (0, 511), (511, 511), (256, 20)] {
                XCTAssertEqual(frame.bitmap[x, y], RGBA(r: 0, g: 0, b: 0, a: 0), "frame \(index) at \(x),\(y)")
            }
            let centre = frame.bitmap[256, 256]
            XCTAssertEqual(centre.a, 255, "frame \(index): the disc covers the centre")
            XCTAssertLessThanOrEqual(abs(Int(centre.r) - Int(color.r)), 12, "frame \(index) red")
            XCTAssertLessThanOrEqual(abs(Int(centre.b) - Int(color.b)), 12, "frame \(index) blue")
            if index > 0 { XCTAssertGreaterThan(frame.time, frames[index - 1].time) }
        }
        // The disc swings: a quarter second in, it has left the point 130 px left of the centre.
        XCTAssertEqual(frames[0].bitmap[126, 256].a, 255)
        XCTAssertEqual(frames[7].bitmap[126, 256].a, 0)
        XCTAssertEqual(try VideoDecoder.frames(bytes), frames, "the same frames each time")
    }

    func testFirstFrameKeepsAlphaToo() throws {
        let frame = try VideoDecoder.firstFrame(WebMStickers.make())
        XCTAssertEqual(frame.bitmap[0, 0].a, 0)
        XCTAssertEqual(frame.bitmap[256, 256].a, 255)
    }

    func testWithoutAlphaFramesAreOpaqueThroughTheNativeDecoder() throws {
        let reader = try VideoFrameReader(WebMStickers.make(alpha: false))
        XCTAssertFalse(reader.info.hasAlpha)
        XCTAssertEqual(reader.decoderName, "vp9")
        let frames = try reader.readAll()
        XCTAssertEqual(frames.count, 30)
        XCTAssertEqual(frames[0].bitmap[0, 0].a, 255)
    }

    func testTheFrameCountIsBounded() throws {
        let reader = try VideoFrameReader(WebMStickers.make(), limits: VideoLimits(maxFrames: 10))
        for _ in 0..<10 { XCTAssertNotNil(try reader.next()) }
        XCTAssertThrowsError(try reader.next()) { error in
            XCTAssertEqual(error as? VideoError, .tooManyFrames(limit: 10))
        }
        XCTAssertNil(try reader.next())
    }

    func testTheFrameSizeIsBoundedBeforeDecoding() {
        XCTAssertThrowsError(try VideoFrameReader(WebMStickers.make(), limits: VideoLimits(maxDimension: 256))) {
            error in
            guard case .tooLarge(512, 512, _)? = error as? VideoError else { return XCTFail("\(error)") }
        }
    }

    func testDamagedStickersNeverTrap() {
        let bytes = WebMStickers.make()
        var generator = SeededGenerator(seed: 51)
        var decoded = 0
        for round in 0..<40 {
            var damaged = round < 10 ? Array(bytes.prefix(bytes.count * round / 10)) : bytes
            if round >= 10 {
                for _ in 0..<Int.random(in: 1...30, using: &generator) {
                    damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(
                        in: 0...255, using: &generator)
                }
            }
            do {
                let frames = try VideoDecoder.frames(damaged)
                for frame in frames { XCTAssertLessThanOrEqual(frame.bitmap.width, 4_096) }
                decoded += 1
            } catch {
                XCTAssertFalse(error.description.isEmpty)
            }
        }
        XCTAssertGreaterThan(decoded, 0, "some damage only hurts pixels")
    }
}
