import CPango

/// A rendered canvas: cairo ARGB32 pixels (premultiplied, native-endian words) copied out of the surface, read back
/// pixel by pixel or encoded as PNG by cairo (`cairo_surface_write_to_png_stream`).
public struct CanvasPixels: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Bytes from one row to the next.
    public let stride: Int
    /// The surface's bytes, `height × stride`.
    public let bytes: [UInt8]

    init(surface: OpaquePointer, width: Int, height: Int) {
        self.width = width
        self.height = height
        stride = Int(cairo_image_surface_get_stride(surface))
        let count = stride * height
        if let data = cairo_image_surface_get_data(surface) {
            bytes = Array(UnsafeBufferPointer(start: data, count: count))
        } else {
            bytes = [UInt8](repeating: 0, count: count)
        }
    }

    /// The pixel at (`x`, `y`) with straight alpha; nil outside the image.
    public func pixel(x: Int, y: Int) -> CanvasPixel? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let offset = y * stride + x * 4
        var word: UInt32 = 0
        withUnsafeMutableBytes(of: &word) { target in
            for index in 0..<4 { target[index] = bytes[offset + index] }
        }
        let alpha = UInt8(word >> 24)
        func straight(_ shift: UInt32) -> UInt8 {
            let value = UInt32((word >> shift) & 0xFF)
            guard alpha != 0 else { return 0 }
            return UInt8(min(255, (value * 255 + UInt32(alpha) / 2) / UInt32(alpha)))
        }
        return CanvasPixel(red: straight(16), green: straight(8), blue: straight(0), alpha: alpha)
    }

    /// The pixel nearest to `point` (rounded down).
    public func pixel(at point: CanvasPoint) -> CanvasPixel? {
        guard point.x.isFinite, point.y.isFinite, abs(point.x) < 1e9, abs(point.y) < 1e9 else { return nil }
        return pixel(x: Int(point.x.rounded(.down)), y: Int(point.y.rounded(.down)))
    }

    /// The image as PNG bytes (8-bit RGBA, cairo's encoder over libpng).
    public func png() throws(CanvasError) -> [UInt8] {
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        var copy = bytes
        let status = copy.withUnsafeMutableBytes { buffer -> cairo_status_t in
            let surface = cairo_image_surface_create_for_data(
                buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(width),
                Int32(height), Int32(stride))
            defer { cairo_surface_destroy(surface) }
            let closure = Unmanaged.passUnretained(sink).toOpaque()
            return cairo_surface_write_to_png_stream(
                surface,
                { closure, data, length in
                    guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
                    let sink = Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue()
                    sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                    return CAIRO_STATUS_SUCCESS
                }, closure)
        }
        guard status == CAIRO_STATUS_SUCCESS else {
            throw .encoding(String(cString: cairo_status_to_string(status)))
        }
        return sink.bytes
    }
}

/// Why a canvas could not be encoded.
public enum CanvasError: Error, Equatable, Sendable, CustomStringConvertible {
    /// cairo's PNG encoder failed (its status text).
    case encoding(String)

    public var description: String {
        switch self {
        case .encoding(let reason): return "the canvas could not be encoded as PNG: \(reason)"
        }
    }
}
