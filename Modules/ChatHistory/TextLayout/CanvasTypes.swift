/// A rectangle on a canvas, in pixels from its top left (the same type as a text layout's rectangles).
public typealias CanvasRect = TextRect
/// A point on a canvas, in pixels from its top left.
public typealias CanvasPoint = TextPoint

/// A colour with straight (not premultiplied) alpha, each channel 0…1.
public struct CanvasColor: Hashable, Sendable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    /// A colour from its channels, 0…1.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A colour from 0xRRGGBB and an opacity.
    public init(rgb: UInt32, alpha: Double = 1) {
        self.init(
            red: Double((rgb >> 16) & 0xFF) / 255, green: Double((rgb >> 8) & 0xFF) / 255,
            blue: Double(rgb & 0xFF) / 255,
            alpha: alpha)
    }

    /// This colour drawn over an opaque `background`, as 8-bit RGB (what a pixel of the canvas reads back as, to
    /// within rounding).
    public func over(_ background: CanvasColor) -> CanvasPixel {
        func channel(_ top: Double, _ bottom: Double) -> UInt8 {
            UInt8(clamping: Int(((top * alpha + bottom * (1 - alpha)) * 255).rounded()))
        }
        return CanvasPixel(
            red: channel(red, background.red), green: channel(green, background.green),
            blue: channel(blue, background.blue), alpha: 255)
    }

    /// This colour as 8-bit channels (opaque colours read back exactly so).
    public var pixel: CanvasPixel {
        func channel(_ value: Double) -> UInt8 { UInt8(clamping: Int((value * 255).rounded())) }
        return CanvasPixel(red: channel(red), green: channel(green), blue: channel(blue), alpha: channel(alpha))
    }
}

/// One pixel read back from a rendered canvas: 8-bit channels, straight alpha.
public struct CanvasPixel: Hashable, Sendable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// The largest difference of one channel to `other`'s.
    public func distance(to other: CanvasPixel) -> Int {
        max(
            abs(Int(red) - Int(other.red)), abs(Int(green) - Int(other.green)), abs(Int(blue) - Int(other.blue)),
            abs(Int(alpha) - Int(other.alpha)))
    }

    /// Perceived brightness, 0…255 (Rec. 601 weights).
    public var luma: Double { 0.299 * Double(red) + 0.587 * Double(green) + 0.114 * Double(blue) }

    public var description: String {
        "#" + [red, green, blue, alpha].map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}

/// A picture to draw on a canvas: 8-bit RGBA, colour premultiplied by alpha, rows `bytesPerRow` apart (the layout of
/// ImageCore's `Bitmap`, without depending on it).
public struct CanvasImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let bytesPerRow: Int
    public let premultipliedRGBA: [UInt8]

    /// Nil when the bytes are fewer than `height × bytesPerRow` or a row is shorter than `width × 4`.
    public init?(width: Int, height: Int, bytesPerRow: Int, premultipliedRGBA: [UInt8]) {
        guard width > 0, height > 0, bytesPerRow >= width * 4, premultipliedRGBA.count >= bytesPerRow * height else {
            return nil
        }
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.premultipliedRGBA = premultipliedRGBA
    }
}

/// How a picture fills a rectangle.
public enum CanvasContentMode: Hashable, Sendable {
    /// The rectangle covered, aspect kept, the centre kept (a photo cell of an album).
    case fill
    /// The whole picture inside the rectangle, aspect kept, centred (a sticker).
    case fit
}

/// Which bottom corner of a message bubble carries its tail (Telegram's bubbles point at their author's side).
public enum BubbleTail: Hashable, Sendable {
    case none
    /// At the bottom left, pointing left (incoming messages).
    case left
    /// At the bottom right, pointing right (our messages).
    case right
}

/// The corner radii of a rounded rectangle, in pixels (a bubble merged with its neighbour has smaller corners on
/// that side).
public struct CornerRadii: Hashable, Sendable {
    public var topLeft: Double
    public var topRight: Double
    public var bottomRight: Double
    public var bottomLeft: Double

    public init(topLeft: Double, topRight: Double, bottomRight: Double, bottomLeft: Double) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomRight = bottomRight
        self.bottomLeft = bottomLeft
    }

    /// Every corner `radius`.
    public static func all(_ radius: Double) -> CornerRadii {
        CornerRadii(topLeft: radius, topRight: radius, bottomRight: radius, bottomLeft: radius)
    }
}
