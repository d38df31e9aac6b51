import ImageCore
import JPEGBinding
import MediaTestSupport
import Testing

/// Encode → decode through TurboJPEG keeps the picture within JPEG's loss, reports what the header says, and
/// flattens transparency onto the background.
@Suite struct JPEGRoundTripTests {
    @Test(arguments: [(95, JPEGSubsampling.s444, 1.5), (87, .s420, 3.0), (20, .s420, 8.0)])
    func roundTripStaysWithinTheLossOfItsQuality(quality: Int, subsampling: JPEGSubsampling, tolerance: Double) throws {
        let picture = Photo.drawn(width: 160, height: 120)
        let jpeg = try JPEGEncoder.encode(picture, quality: quality, subsampling: subsampling)
        #expect(JPEGDecoder.isJPEG(jpeg))
        let info = try JPEGDecoder.info(jpeg)
        #expect(info.width == 160 && info.height == 120)
        #expect(info.subsampling == subsampling && info.colorspace == .yCbCr)
        let decoded = try JPEGDecoder.decode(jpeg)
        #expect(decoded.size == picture.size)
        let difference = try #require(Photo.meanAbsoluteDifference(decoded, picture))
        #expect(difference < tolerance, "quality \(quality): mean difference \(difference)")
        #expect(difference > 0, "JPEG is lossy: an identical picture means nothing was encoded")
        // Every decoded pixel is opaque.
        #expect(decoded.pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 })
    }

    @Test func higherQualityMeansMoreBytesAndLessLoss() throws {
        let picture = Photo.drawn(width: 200, height: 200)
        var previous: (bytes: Int, difference: Double)?
        for quality in [10, 40, 70, 95] {
            let jpeg = try JPEGEncoder.encode(picture, quality: quality)
            let difference = try #require(Photo.meanAbsoluteDifference(try JPEGDecoder.decode(jpeg), picture))
            if let previous {
                #expect(jpeg.count > previous.bytes)
                #expect(difference < previous.difference)
            }
            previous = (jpeg.count, difference)
        }
    }

    @Test func grayscaleWritesOneComponent() throws {
        let picture = Photo.drawn(width: 64, height: 48)
        let jpeg = try JPEGEncoder.encode(picture, quality: 90, subsampling: .gray)
        let info = try JPEGDecoder.info(jpeg)
        #expect(info.colorspace == .gray && info.subsampling == .gray)
        let decoded = try JPEGDecoder.decode(jpeg)
        let p = decoded[10, 10]
        #expect(p.r == p.g && p.g == p.b && p.a == 255)
    }

    @Test func transparencyIsFlattenedOntoTheBackground() throws {
        // Left half: transparent; right half: red at half alpha (premultiplied 128, 0, 0, 128).
        var picture = Bitmap(width: 32, height: 16)
        for y in 0..<16 { for x in 16..<32 { picture[x, y] = RGBA(r: 128, g: 0, b: 0, a: 128) } }
        let white = try JPEGDecoder.decode(JPEGEncoder.encode(picture, quality: 95, subsampling: .s444))
        #expect(close(white[4, 8], RGBA(r: 255, g: 255, b: 255, a: 255)))
        #expect(close(white[28, 8], RGBA(r: 255, g: 127, b: 127, a: 255)))
        let blue = RGBA(r: 0, g: 0, b: 255, a: 255)
        let onBlue = try JPEGDecoder.decode(
            JPEGEncoder.encode(picture, quality: 95, subsampling: .s444, background: blue))
        #expect(close(onBlue[4, 8], blue))
        #expect(close(onBlue[28, 8], RGBA(r: 128, g: 0, b: 127, a: 255)))
    }

    @Test func badArgumentsAreErrorsThatSayWhy() {
        let picture = Photo.drawn(width: 8, height: 8)
        let quality = thrownError { try JPEGEncoder.encode(picture, quality: 0) } as? JPEGError
        #expect(quality == .encodeFailed(width: 8, height: 8, reason: "quality 0 is outside 1…100"))
        let empty = thrownError { try JPEGEncoder.encode(Bitmap(width: 0, height: 5), quality: 80) } as? JPEGError
        #expect(empty?.description.contains("at least 1×1") == true)
    }

    @Test func aStrideLongerThanTheRowIsHonoured() throws {
        let packed = Photo.drawn(width: 30, height: 20)
        var padded = Bitmap(width: 30, height: 20, bytesPerRow: 30 * 4 + 12)
        for y in 0..<20 { for x in 0..<30 { padded[x, y] = packed[x, y] } }
        let a = try JPEGEncoder.encode(packed, quality: 90)
        let b = try JPEGEncoder.encode(padded, quality: 90)
        #expect(a == b)
    }

    func close(_ a: RGBA, _ b: RGBA, within tolerance: Int = 4) -> Bool {
        abs(Int(a.r) - Int(b.r)) <= tolerance && abs(Int(a.g) - Int(b.g)) <= tolerance
            && abs(Int(a.b) - Int(b.b)) <= tolerance && a.a == b.a
    }
}
