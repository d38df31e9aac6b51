public import ImageCore
public import ImageTransform
public import SyncCore

/// How an image is shown: scaled to fit or to fill a box of pixels, then any further steps (corners, circle).
/// The box decides which of the photo's sizes is fetched; the steps are the `TransformArguments` the result is
/// cached under.
public struct ImageRequest: Hashable, Sendable {
    /// How the picture is scaled into the box.
    public enum Scaling: Hashable, Sendable {
        /// The whole picture inside the box, aspect kept (a message bubble).
        case fit
        /// The box covered, aspect kept, the centre kept (an avatar).
        case fill
    }

    /// The box in pixels.
    public let box: PixelSize
    public let scaling: Scaling
    /// Steps after the scaling (rounded corners, the avatar's circle).
    public let steps: [ImageTransformStep]

    /// A request for `box`, scaled by `scaling`, then `steps`.
    public init(box: PixelSize, scaling: Scaling, steps: [ImageTransformStep] = []) {
        self.box = box
        self.scaling = scaling
        self.steps = steps
    }

    /// A photo in a message bubble: fitted into `box`, corners rounded when `cornerRadius` is given.
    public static func bubble(fitting box: PixelSize, cornerRadius: Double? = nil) -> ImageRequest {
        ImageRequest(box: box, scaling: .fit, steps: cornerRadius.map { [.roundCorners(radius: $0)] } ?? [])
    }

    /// The chat list's round avatar: `side` × `side`, aspect-filled, the inscribed circle kept
    /// (`TransformArguments.roundAvatar(side:)`).
    public static func roundAvatar(side: Int) -> ImageRequest {
        ImageRequest(box: PixelSize(width: side, height: side), scaling: .fill, steps: [.circle])
    }

    /// The transform applied to the decoded picture (and the cache key's arguments).
    public var arguments: TransformArguments {
        TransformArguments([scaling == .fit ? .fit(box) : .fill(box)] + steps)
    }

    /// The size in pixels a source of `dimensions`' aspect is scaled to before the further steps (for `.fill`, before
    /// the centre is cut: the smallest size covering the box).
    public func scaledSize(of dimensions: PixelDimensions) -> PixelSize {
        let width = Double(max(1, dimensions.width)), height = Double(max(1, dimensions.height))
        let sx = Double(box.width) / width, sy = Double(box.height) / height
        let scale = scaling == .fit ? min(sx, sy) : max(sx, sy)
        return PixelSize(width: max(1, Int((width * scale).rounded())), height: max(1, Int((height * scale).rounded())))
    }

    /// The representation to fetch, as Telegram-iOS picks one (`imageRepresentationLargerThan`, else
    /// `largestImageRepresentation`; Telegram-iOS `submodules/TelegramCore/Sources/Utils/ImageRepresentationsUtils.swift`):
    /// the smallest size at least as large as what the request scales to on both sides, so nothing is scaled up,
    /// else the largest (Telegram-iOS asks for strictly larger; a size exactly as large is taken here). Nil when
    /// there is none.
    public func representation(
        in representations: [TelegramMediaImageRepresentation]
    ) -> TelegramMediaImageRepresentation? {
        func area(_ r: TelegramMediaImageRepresentation) -> Int64 {
            Int64(r.dimensions.width) * Int64(r.dimensions.height)
        }
        guard let largest = representations.max(by: { area($0) < area($1) }) else { return nil }
        let needed = scaledSize(of: largest.dimensions)
        let large = representations.filter {
            Int($0.dimensions.width) >= needed.width && Int($0.dimensions.height) >= needed.height
        }
        return large.min(by: { area($0) < area($1) }) ?? largest
    }
}
