import Foundation
public import ImageCore

/// Why a transform did not finish.
public enum ImageTransformError: Error, Equatable, Sendable {
    /// The request was cancelled; no result is produced.
    case cancelled
    /// A step cannot apply (an empty crop, a zero target size).
    case invalidStep(String)
    /// The source bytes are not a decodable PNG or WebP.
    case undecodable(String)
}

/// Runs `TransformArguments` over a bitmap, checking the cancellation token between steps.
public enum ImageTransformer {
    /// Applies every step in order.
    public static func apply(
        _ arguments: TransformArguments, to bitmap: Bitmap, token: CancellationToken? = nil
    ) throws(ImageTransformError) -> Bitmap {
        var current = bitmap
        for step in arguments.steps {
            if token?.isCancelled == true { throw .cancelled }
            current = try apply(step, to: current)
        }
        return current
    }

    static func apply(_ step: ImageTransformStep, to bitmap: Bitmap) throws(ImageTransformError) -> Bitmap {
        switch step {
        case .resize(let size):
            guard size.width >= 1, size.height >= 1 else { throw .invalidStep("resize to \(size)") }
            return Resampler.resize(bitmap, to: size)
        case .crop(let x, let y, let width, let height):
            return try crop(bitmap, x: x, y: y, width: width, height: height)
        case .fill(let size):
            guard size.width >= 1, size.height >= 1, bitmap.width > 0, bitmap.height > 0 else {
                throw .invalidStep("fill \(bitmap.size) to \(size)")
            }
            // Cut the source to the target's aspect ratio first (fewer pixels to filter), then scale.
            let targetAspect = Double(size.width) / Double(size.height)
            var cropWidth = bitmap.width, cropHeight = bitmap.height
            if Double(bitmap.width) / Double(bitmap.height) > targetAspect {
                cropWidth = max(1, Int((Double(bitmap.height) * targetAspect).rounded()))
            } else {
                cropHeight = max(1, Int((Double(bitmap.width) / targetAspect).rounded()))
            }
            let cropped = try crop(
                bitmap, x: (bitmap.width - cropWidth) / 2, y: (bitmap.height - cropHeight) / 2, width: cropWidth,
                height: cropHeight)
            return Resampler.resize(cropped, to: size)
        case .fit(let size):
            guard size.width >= 1, size.height >= 1, bitmap.width > 0, bitmap.height > 0 else {
                throw .invalidStep("fit \(bitmap.size) into \(size)")
            }
            let scale = min(Double(size.width) / Double(bitmap.width), Double(size.height) / Double(bitmap.height))
            let target = PixelSize(
                width: max(1, Int((Double(bitmap.width) * scale).rounded())),
                height: max(1, Int((Double(bitmap.height) * scale).rounded())))
            return Resampler.resize(bitmap, to: target)
        case .roundCorners(let radius): return Masks.roundCorners(bitmap, radius: radius)
        case .circle: return Masks.circle(bitmap)
        case .blur(let sigma): return GaussianBlur.blur(bitmap, sigma: sigma)
        }
    }

    /// The part of `bitmap` inside the rectangle, clipped to the image; an empty result is an error.
    public static func crop(
        _ bitmap: Bitmap, x: Int, y: Int, width: Int, height: Int
    ) throws(ImageTransformError)
        -> Bitmap
    {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(bitmap.width, x + width), y1 = min(bitmap.height, y + height)
        guard x1 > x0, y1 > y0 else { throw .invalidStep("crop (\(x),\(y),\(width)×\(height)) misses the image") }
        var out = Bitmap(width: x1 - x0, height: y1 - y0)
        let rowBytes = out.width * 4
        for row in 0..<out.height {
            let source = (y0 + row) * bitmap.bytesPerRow + x0 * 4
            out.pixels.replaceSubrange(
                row * rowBytes..<(row + 1) * rowBytes, with: bitmap.pixels[source..<source + rowBytes])
        }
        return out
    }
}
