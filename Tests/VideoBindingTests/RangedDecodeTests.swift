import Foundation
import TestVectors
import VideoBinding
import XCTest

/// Decoding from a partly present file (`VideoBytes`): the decode asks for the ranges it needs (`needsBytes`), a
/// loop here "fetches" them in aligned windows and decodes again, the way a streaming download does.
final class RangedDecodeTests: XCTestCase {
    /// What a streamed decode fetched: the windows in the order asked for, and the rounds it took.
    struct Streamed {
        var frame: VideoFrame
        var windows: [Range<Int>]
        var rounds: Int
        var fetchedBytes: Int { windows.reduce(0) { $0 + $1.count } }
    }

    /// Decodes `bytes`' first frame from nothing present, adding the `window`-aligned windows covering each range
    /// the decode asks for, at most `maxRounds` decodes.
    func streamFirstFrame(_ bytes: [UInt8], window: Int, maxRounds: Int = 12) throws -> Streamed {
        var present: [Range<Int>] = []
        var windows: [Range<Int>] = []
        for round in 1...maxRounds {
            let range: Range<Int>
            do throws(VideoError) {
                let frame = try VideoDecoder.firstFrame(.present(bytes, ranges: present))
                return Streamed(frame: frame, windows: windows, rounds: round)
            } catch {
                guard case .needsBytes(let needed) = error else { throw error }
                range = needed
            }
            XCTAssertFalse(range.isEmpty)
            XCTAssertTrue(range.lowerBound >= 0 && range.upperBound <= bytes.count, "\(range) in \(bytes.count)")
            XCTAssertFalse(present.contains { $0.contains(range.lowerBound) }, "asked again for \(range)")
            var start = range.lowerBound / window * window
            while start < range.upperBound {
                let added = start..<min(start + window, bytes.count)
                if !present.contains(where: { $0 == added }) {
                    present.append(added)
                    windows.append(added)
                }
                start += window
            }
        }
        throw VideoError.noFrame
    }

    func testFaststartFirstFrameIsTheWholeFilesFromItsFrontAlone() throws {
        let bytes = VideoSamples.bytes(VideoSamples.faststart)
        let whole = try VideoDecoder.firstFrame(bytes)
        let streamed = try streamFirstFrame(bytes, window: 16_384)
        XCTAssertEqual(streamed.frame, whole, "the same pixels and time as decoding the whole file")
        XCTAssertLessThanOrEqual(streamed.rounds, 8)
        // The index and the first group of pictures sit at the front: only front windows were fetched, in order.
        XCTAssertEqual(streamed.windows, streamed.windows.sorted { $0.lowerBound < $1.lowerBound })
        XCTAssertLessThan(streamed.fetchedBytes, bytes.count / 3, "\(streamed.fetchedBytes) of \(bytes.count)")
    }

    func testMoovAtEndFetchesTheTailBeforeTheFrames() throws {
        let bytes = VideoSamples.bytes(VideoSamples.moovAtEnd)
        let moov = try XCTUnwrap(Self.offset(of: "moov", in: bytes))
        let mdat = try XCTUnwrap(Self.offset(of: "mdat", in: bytes))
        XCTAssertGreaterThan(moov, mdat, "the sample keeps its index at the end")
        let whole = try VideoDecoder.firstFrame(bytes)
        let streamed = try streamFirstFrame(bytes, window: 16_384)
        XCTAssertEqual(streamed.frame, whole)
        XCTAssertLessThanOrEqual(streamed.rounds, 10)
        // The header first, then the index at the end, then back to the first frames.
        XCTAssertEqual(streamed.windows.first?.lowerBound, 0)
        let tail = try XCTUnwrap(streamed.windows.firstIndex { $0.upperBound > moov })
        XCTAssertTrue(
            streamed.windows[..<tail].allSatisfy { $0.upperBound <= 65_536 },
            "nothing but the header before the index: \(streamed.windows)")
        XCTAssertLessThan(streamed.fetchedBytes, bytes.count / 2, "\(streamed.fetchedBytes) of \(bytes.count)")
    }

    func testProbeFromPartialBytes() throws {
        let bytes = VideoSamples.bytes(VideoSamples.faststart)
        XCTAssertThrowsError(try VideoDecoder.probe(.present(bytes, ranges: []))) { error in
            guard case .needsBytes(let range) = error as? VideoError else { return XCTFail("\(error)") }
            XCTAssertEqual(range.lowerBound, 0)
            XCTAssertLessThanOrEqual(range.count, 65_536, "asks for a buffer, not the file")
        }
        let whole = try VideoDecoder.probe(bytes)
        let moov = try XCTUnwrap(Self.offset(of: "moov", in: bytes))
        let front = try VideoDecoder.probe(.present(bytes, ranges: [0..<moov + 65_536]))
        XCTAssertEqual(front, whole)
        XCTAssertEqual(front.width, 320)
    }

    func testAWholeSourceDecodesWithoutAsking() throws {
        let bytes = VideoSamples.bytes(VideoSamples.moovAtEnd)
        XCTAssertEqual(try VideoDecoder.firstFrame(.whole(bytes)), try VideoDecoder.firstFrame(bytes))
    }

    func testAHoleInTheFirstFramesIsAskedFor() throws {
        let bytes = VideoSamples.bytes(VideoSamples.faststart)
        let mdat = try XCTUnwrap(Self.offset(of: "mdat", in: bytes))
        // Everything but 4 KB just after the frames start.
        let hole = mdat + 1_024..<mdat + 5_120
        let present = [0..<hole.lowerBound, hole.upperBound..<bytes.count]
        XCTAssertThrowsError(try VideoDecoder.firstFrame(.present(bytes, ranges: present))) { error in
            guard case .needsBytes(let range) = error as? VideoError else { return XCTFail("\(error)") }
            XCTAssertTrue(hole.contains(range.lowerBound), "\(range) starts in the hole \(hole)")
        }
    }

    func testGarbageEndsInAnErrorWithinBoundedRounds() {
        var generator = SeededGenerator(seed: 91)
        for length in [0, 1, 100, 5_000, 200_000] {
            let noise = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            // Whole: refused as unreadable, never asked for more.
            XCTAssertThrowsError(try VideoDecoder.firstFrame(.whole(noise))) { error in
                if case .needsBytes = error as? VideoError { XCTFail("a whole file never needs bytes") }
            }
            // Streamed: every round fetches a new window, so it ends (in an error) within the file's windows.
            XCTAssertThrowsError(try streamFirstFrame(noise, window: 16_384, maxRounds: length / 16_384 + 2))
        }
        // A source that lies (returns more than asked, or bytes past the end) cannot push FFmpeg out of bounds.
        let liar = VideoBytes(count: 50_000) { _, buffer in
            buffer.initializeMemory(as: UInt8.self, repeating: 0x41)
            return Int.max
        }
        XCTAssertThrowsError(try VideoDecoder.firstFrame(liar))
    }

    func testOverTheByteLimitIsRefusedBeforeReading() {
        let never = VideoBytes(count: 10_000) { _, _ in
            XCTFail("read before the size was checked")
            return 0
        }
        XCTAssertThrowsError(try VideoDecoder.probe(never, limits: VideoLimits(maxBytes: 1_000))) { error in
            XCTAssertEqual(error as? VideoError, .tooManyBytes(count: 10_000, limit: 1_000))
        }
    }

    /// Where the top-level box `type` starts (its size field), found by walking the MP4's box headers.
    static func offset(of type: String, in bytes: [UInt8]) -> Int? {
        var offset = 0
        while offset + 8 <= bytes.count {
            var size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let name = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            if name == type { return offset }
            if size == 1, offset + 16 <= bytes.count {
                size = bytes[offset + 8..<offset + 16].reduce(0) { $0 << 8 | Int($1) }
            }
            guard size >= 8 else { return nil }
            offset += size
        }
        return nil
    }
}
