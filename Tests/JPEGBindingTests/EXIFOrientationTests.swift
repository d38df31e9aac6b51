import ImageCore
import JPEGBinding
import MediaTestSupport
import TestVectors
import Testing

/// EXIF orientation: read from the APP1 segment (either byte order), applied on request, and damaged EXIF data
/// reads as `.up` without trapping.
@Suite struct EXIFOrientationTests {
    static let red = RGBA(r: 255, g: 0, b: 0, a: 255), green = RGBA(r: 0, g: 255, b: 0, a: 255)
    static let blue = RGBA(r: 0, g: 0, b: 255, a: 255), white = RGBA(r: 255, g: 255, b: 255, a: 255)

    /// 64×32 stored as quadrants: red, green / blue, white.
    static func quadrants() throws -> [UInt8] {
        var bitmap = Bitmap(width: 64, height: 32)
        for y in 0..<32 {
            for x in 0..<64 { bitmap[x, y] = y < 16 ? (x < 32 ? red : green) : (x < 32 ? blue : white) }
        }
        return try JPEGEncoder.encode(bitmap, quality: 95, subsampling: .s444)
    }

    /// An APP1 `Exif` segment whose IFD0 holds one entry, Orientation = `value`.
    static func app1(orientation value: Int, littleEndian: Bool = true) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] {
            littleEndian ? [UInt8(v & 255), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 255)]
        }
        func u32(_ v: Int) -> [UInt8] { littleEndian ? u16(v & 0xFFFF) + u16(v >> 16) : u16(v >> 16) + u16(v & 0xFFFF) }
        let tiff =
            (littleEndian ? Array("II".utf8) : Array("MM".utf8)) + u16(42) + u32(8)
            + u16(1) + u16(0x0112) + u16(3) + u32(1) + u16(value) + [0, 0] + u32(0)
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        return [0xFF, 0xE1] + [UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 255)] + payload
    }

    /// `jpeg` with `segment` inserted right after SOI.
    static func inserting(_ segment: [UInt8], into jpeg: [UInt8]) -> [UInt8] {
        Array(jpeg.prefix(2)) + segment + jpeg.dropFirst(2)
    }

    /// The displayed corners (top-left, top-right, bottom-left, bottom-right) for each orientation, from what each
    /// one means (mirror, turn, transpose) rather than from the decoder's own mapping.
    static let displayed: [EXIFOrientation: [RGBA]] = [
        .up: [red, green, blue, white], .upMirrored: [green, red, white, blue], .down: [white, blue, green, red],
        .downMirrored: [blue, white, red, green], .leftMirrored: [red, blue, green, white],
        .right: [blue, red, white, green], .rightMirrored: [white, green, blue, red], .left: [green, white, red, blue],
    ]

    @Test(arguments: EXIFOrientation.allCases)
    func eachOrientationIsReadAndApplied(_ orientation: EXIFOrientation) throws {
        let base = try Self.quadrants()
        for littleEndian in [true, false] {
            let jpeg = Self.inserting(
                Self.app1(orientation: orientation.rawValue, littleEndian: littleEndian), into: base)
            let info = try JPEGDecoder.info(jpeg)
            #expect(info.orientation == orientation)
            #expect(info.width == 64 && info.height == 32)
            let stored = try JPEGDecoder.decode(jpeg)
            #expect(stored.size == PixelSize(width: 64, height: 32))
            let shown = try JPEGDecoder.decode(jpeg, applyingOrientation: true)
            #expect(shown.size == info.displaySize)
            #expect(shown.size == (orientation.swapsSides ? PixelSize(width: 32, height: 64) : stored.size))
            let (w, h) = (shown.width, shown.height)
            let corners = [shown[4, 4], shown[w - 5, 4], shown[4, h - 5], shown[w - 5, h - 5]]
            let expected = try #require(Self.displayed[orientation])
            for (corner, colour) in zip(corners, expected) {
                let off =
                    abs(Int(corner.r) - Int(colour.r)) + abs(Int(corner.g) - Int(colour.g))
                    + abs(Int(corner.b) - Int(colour.b))
                #expect(off < 24, "\(orientation): \(corner) where \(colour) belongs")
            }
        }
    }

    @Test func missingOrDamagedEXIFReadsAsUp() throws {
        let base = try Self.quadrants()
        #expect(EXIFOrientation.of(base) == .up)
        let good = Self.app1(orientation: 6)
        var samples: [[UInt8]] = [
            Self.app1(orientation: 0), Self.app1(orientation: 9), Self.app1(orientation: 0xFFFF),
            Array(good.prefix(12)),  // the segment's length runs past the file
        ]
        var wrongOrder = good
        wrongOrder[10] = 0x49
        wrongOrder[11] = 0x4D  // "IM"
        samples.append(wrongOrder)
        var farOffset = good
        farOffset[14] = 0xFF  // IFD0 beyond the segment
        samples.append(farOffset)
        for segment in samples { #expect(EXIFOrientation.of(Self.inserting(segment, into: base)) == .up) }
        // Random bytes in the segment never trap.
        var generator = SeededGenerator(seed: 0xE61F)
        for _ in 0..<2_000 {
            var segment = good
            for _ in 0..<3 {
                segment[Int.random(in: 4..<segment.count, using: &generator)] = .random(in: 0...255, using: &generator)
            }
            _ = EXIFOrientation.of(Self.inserting(segment, into: base))
        }
        #expect(EXIFOrientation.of([]) == .up && EXIFOrientation.of([0xFF, 0xD8, 0xFF, 0xE1]) == .up)
    }
}
