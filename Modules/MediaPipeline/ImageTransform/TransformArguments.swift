public import ImageCore

/// One step of an image transform; steps run in order and compose.
public enum ImageTransformStep: Hashable, Sendable, CustomStringConvertible {
    /// Scale to exactly this size (aspect ratio not kept), Lanczos-3 on premultiplied pixels.
    case resize(PixelSize)
    /// Keep the rectangle at (x, y) of the given size (clipped to the image).
    case crop(x: Int, y: Int, width: Int, height: Int)
    /// Scale to cover `size` keeping the aspect ratio, then cut the centre: a chat-list avatar's "aspect fill".
    case fill(PixelSize)
    /// Scale to fit inside `size` keeping the aspect ratio ("aspect fit"; the result may be smaller on one side).
    case fit(PixelSize)
    /// Round the corners with this radius in pixels (anti-aliased).
    case roundCorners(radius: Double)
    /// Keep the inscribed circle (anti-aliased): the chat-list avatar.
    case circle
    /// Gaussian blur with this standard deviation in pixels.
    case blur(sigma: Double)

    /// A stable text form, used in cache keys.
    public var description: String {
        switch self {
        case .resize(let s): return "resize(\(s.width)x\(s.height))"
        case .crop(let x, let y, let w, let h): return "crop(\(x),\(y),\(w)x\(h))"
        case .fill(let s): return "fill(\(s.width)x\(s.height))"
        case .fit(let s): return "fit(\(s.width)x\(s.height))"
        case .roundCorners(let r): return "round(\(r))"
        case .circle: return "circle"
        case .blur(let sigma): return "blur(\(sigma))"
        }
    }
}

/// The arguments of a transform (Telegram's `TransformImageArguments`, reduced to what changes pixels).
public struct TransformArguments: Hashable, Sendable, CustomStringConvertible {
    public var steps: [ImageTransformStep]

    /// Steps applied in order.
    public init(_ steps: [ImageTransformStep]) { self.steps = steps }

    /// The round avatar of the chat list: aspect-fill to `side` × `side`, then the inscribed circle.
    public static func roundAvatar(side: Int) -> TransformArguments {
        TransformArguments([.fill(PixelSize(width: side, height: side)), .circle])
    }

    public var description: String { steps.map(\.description).joined(separator: "|") }
}
