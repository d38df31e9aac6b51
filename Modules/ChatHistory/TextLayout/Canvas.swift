public import SyncCore

/// A picture being drawn: a list of drawing steps on a `width`×`height` pixel image, carried out by cairo
/// (https://www.cairographics.org/manual/) when `render()` is called. A plain value — copying one copies its steps,
/// and no cairo or Pango object exists outside `render()` — so canvases cross threads freely.
///
/// ```swift
/// var canvas = Canvas(width: 300, height: 200, background: CanvasColor(rgb: 0xD6E4EF))
/// canvas.fillBubble(CanvasRect(x: 20, y: 20, width: 200, height: 60), radii: .all(18), tail: .left,
///                   color: CanvasColor(rgb: 0xFFFFFF))
/// canvas.drawText("hello world", entities: [bold], width: 180, fontSize: 17, at: CanvasPoint(x: 32, y: 30),
///                 color: CanvasColor(rgb: 0x000000))
/// let pixels = canvas.render()          // cairo's ARGB32 image surface, read back
/// pixels.pixel(x: 100, y: 70)           // the bubble's white
/// let png = try pixels.png()          // PNG bytes, cairo's encoder
/// ```
///
/// Text is laid out exactly as `TextLayout.layout` lays it out (same fonts, options, wrapping and entity styles),
/// then drawn by `pango_cairo_show_layout`, so a `LaidOutText`'s lines say where the drawn text is.
public struct Canvas: Sendable {
    /// The image's size in pixels.
    public let width: Int
    public let height: Int
    /// The colour the image starts as.
    public let background: CanvasColor
    /// The steps so far, in drawing order.
    public private(set) var steps: [CanvasStep] = []

    /// The largest side a canvas may have (cairo's limit is 32,767 pixels).
    public static let maxSide = 32_767

    /// A canvas of `width`×`height` pixels (each clamped to 1…`maxSide`) filled with `background`.
    public init(width: Int, height: Int, background: CanvasColor) {
        self.width = min(max(width, 1), Self.maxSide)
        self.height = min(max(height, 1), Self.maxSide)
        self.background = background
    }

    /// Fills `rect`, its corners rounded by `radii`.
    public mutating func fill(_ rect: CanvasRect, radii: CornerRadii = .all(0), color: CanvasColor) {
        steps.append(.fill(rect, radii: radii, color: color))
    }

    /// Fills a circle.
    public mutating func fillCircle(center: CanvasPoint, radius: Double, color: CanvasColor) {
        steps.append(.circle(center: center, radius: radius, color: color))
    }

    /// Fills a message bubble: `rect` with rounded corners and, when `tail` is not `.none`, a tail curving out of
    /// that bottom corner by `tailWidth` pixels (the tail's corner is square inside the bubble, as Telegram's is).
    public mutating func fillBubble(
        _ rect: CanvasRect, radii: CornerRadii, tail: BubbleTail, tailWidth: Double = 18, color: CanvasColor
    ) {
        steps.append(.bubble(rect, radii: radii, tail: tail, tailWidth: tailWidth, color: color))
    }

    /// Fills the polygon through `points` (closed back to the first).
    public mutating func fillPolygon(_ points: [CanvasPoint], color: CanvasColor) {
        steps.append(.polygon(points, color: color))
    }

    /// A straight line `width` pixels wide with round caps.
    public mutating func line(from start: CanvasPoint, to end: CanvasPoint, width: Double, color: CanvasColor) {
        steps.append(.line(from: start, to: end, width: width, color: color))
    }

    /// Draws `image` scaled into `rect` as `mode` says, clipped to `rect` with its corners rounded by `radii`.
    public mutating func draw(
        _ image: CanvasImage, in rect: CanvasRect, mode: CanvasContentMode = .fill, radii: CornerRadii = .all(0)
    ) {
        steps.append(.image(image, rect: rect, mode: mode, radii: radii))
    }

    /// Draws `text` with `entities` laid out as `TextLayout.layout(text, entities:, width:, fontSize:)` lays it out,
    /// the layout box's top left at `origin`, in `color` (links keep the link colour).
    public mutating func drawText(
        _ text: String, entities: [MessageTextEntity] = [], width: Int, fontSize: Double = TextLayout.defaultFontSize,
        at origin: CanvasPoint, color: CanvasColor
    ) {
        steps.append(
            .text(
                CanvasText(
                    text: text, entities: entities, width: width, fontSize: fontSize, origin: origin, color: color)))
    }

    /// Carries out the steps on a cairo ARGB32 image surface and returns its pixels.
    public func render() -> CanvasPixels { CanvasRenderer.render(self) }
}

/// One drawing step of a `Canvas`.
public enum CanvasStep: Sendable {
    case fill(CanvasRect, radii: CornerRadii, color: CanvasColor)
    case circle(center: CanvasPoint, radius: Double, color: CanvasColor)
    case bubble(CanvasRect, radii: CornerRadii, tail: BubbleTail, tailWidth: Double, color: CanvasColor)
    case line(from: CanvasPoint, to: CanvasPoint, width: Double, color: CanvasColor)
    case polygon([CanvasPoint], color: CanvasColor)
    case image(CanvasImage, rect: CanvasRect, mode: CanvasContentMode, radii: CornerRadii)
    case text(CanvasText)
}

/// Text drawn on a canvas: what `TextLayout.layout` takes, where and in what colour.
public struct CanvasText: Sendable {
    public var text: String
    public var entities: [MessageTextEntity]
    public var width: Int
    public var fontSize: Double
    public var origin: CanvasPoint
    public var color: CanvasColor
}
