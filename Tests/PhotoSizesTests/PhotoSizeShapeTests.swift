import ImageCore
import JPEGBinding
import MediaTestSupport
import PhotoSizes
import Testing

/// Which sizes a picture gets and how large each is, for the shapes a server sees: tiny, square, wide, a 12 MP
/// portrait photo, the tallest allowed strip.
@Suite struct PhotoSizeShapeTests {
    struct Shape: Sendable, CustomStringConvertible {
        let width: Int, height: Int
        /// (type, width, height) expected, smallest first.
        let sizes: [(PhotoSizeType, Int, Int)]
        /// The stripped thumbnail's width and height.
        let stripped: (Int, Int)
        var description: String { "\(width)×\(height)" }
    }

    static let shapes: [Shape] = [
        Shape(width: 30, height: 20, sizes: [(.s, 30, 20)], stripped: (30, 20)),
        Shape(width: 90, height: 90, sizes: [(.s, 90, 90)], stripped: (40, 40)),
        Shape(
            width: 1000, height: 500, sizes: [(.s, 100, 50), (.m, 320, 160), (.x, 800, 400), (.y, 1000, 500)],
            stripped: (40, 20)),
        Shape(
            width: 3000, height: 4000,
            sizes: [(.s, 75, 100), (.m, 240, 320), (.x, 600, 800), (.y, 960, 1280), (.w, 1920, 2560)],
            stripped: (30, 40)),
        Shape(
            width: 200, height: 4000,
            sizes: [(.s, 5, 100), (.m, 16, 320), (.x, 40, 800), (.y, 64, 1280), (.w, 128, 2560)], stripped: (2, 40)),
    ]

    /// Each size is a JPEG of the stated dimensions and byte count, and shows the same picture (its mean colour
    /// stays within a few levels of the source's).
    @Test(arguments: shapes)
    func everySizeHasTheRightDimensions(_ shape: Shape) throws {
        let source = Photo.drawn(width: shape.width, height: shape.height)
        let upload = try JPEGEncoder.encode(source, quality: 92)
        let set = try PhotoSizes.make(from: upload)
        #expect(set.format == .jpeg && set.width == shape.width && set.height == shape.height)
        #expect(set.sizes.map(\.type) == shape.sizes.map(\.0))
        let sourceMean = Photo.meanColor(try JPEGDecoder.decode(upload))
        for (size, expected) in zip(set.sizes, shape.sizes) {
            #expect(size.width == expected.1 && size.height == expected.2, "\(shape) \(size.type)")
            #expect(size.byteSize == size.jpeg.count)
            let decoded = try JPEGDecoder.decode(size.jpeg)
            #expect(decoded.size == PixelSize(width: size.width, height: size.height))
            if min(size.width, size.height) >= 8 {
                let mean = Photo.meanColor(decoded)
                for channel in 0..<3 {
                    #expect(abs(mean[channel] - sourceMean[channel]) < 6, "\(shape) \(size.type) channel \(channel)")
                }
            }
        }
        #expect(set.stripped.width == shape.stripped.0 && set.stripped.height == shape.stripped.1)
        #expect(set.stripped.bytes[0] == 1 && max(set.stripped.width, set.stripped.height) <= 40)
    }

    @Test func aSizeIsMadeOnlyWhenThePictureIsLargerThanThePreviousBox() {
        func types(_ width: Int, _ height: Int) -> String {
            PhotoSizeType.types(for: (width, height)).map(\.rawValue).joined()
        }
        #expect(types(1, 1) == "s")
        #expect(types(100, 40) == "s")
        #expect(types(101, 40) == "sm")
        #expect(types(40, 320) == "sm")
        #expect(types(40, 321) == "smx")
        #expect(types(800, 800) == "smx")
        #expect(types(1280, 100) == "smxy")
        #expect(types(1281, 100) == "smxyw")
        #expect(types(5000, 5000) == "smxyw")
    }

    @Test func fittingScalesDownNeverUpAndKeepsTheAspect() {
        func fitted(_ width: Int, _ height: Int, _ box: Int) -> String {
            let size = PhotoSizeType.fitted((width, height), box: box)
            return "\(size.width)x\(size.height)"
        }
        #expect(fitted(50, 20, 100) == "50x20")
        #expect(fitted(100, 100, 100) == "100x100")
        #expect(fitted(1280, 853, 320) == "320x213")
        #expect(fitted(853, 1280, 320) == "213x320")
        #expect(fitted(1000, 3, 100) == "100x1")
        #expect(fitted(4000, 1, 100) == "100x1")
        #expect(fitted(1001, 1000, 100) == "100x100")
    }
}
