import CWebP
public import ImageCore

/// How to compress: VP8 lossy at a quality, or VP8L lossless.
public enum WebPCompression: Sendable, Equatable {
    /// Lossy at quality 0…100 (Telegram's `convertToWebP:quality:`).
    case lossy(quality: Float)
    /// Lossless (exact straight RGBA; fully transparent pixels keep no color).
    case lossless
}

/// Encoding of still and animated WebP through libwebp (encoder, mux).
public enum WebPEncoder {
    /// Encodes one bitmap.
    public static func encode(_ bitmap: Bitmap, _ compression: WebPCompression) throws(WebPError) -> [UInt8] {
        guard bitmap.width > 0, bitmap.height > 0, bitmap.width <= 16383, bitmap.height <= 16383 else {
            throw .encodingFailed("size \(bitmap.width)×\(bitmap.height) is outside 1…16383")
        }
        let straight = bitmap.straightRGBA()
        var output: UnsafeMutablePointer<UInt8>?
        let size = straight.withUnsafeBufferPointer { input -> Int in
            switch compression {
            case .lossy(let quality):
                return WebPEncodeRGBA(
                    input.baseAddress, Int32(bitmap.width), Int32(bitmap.height), Int32(bitmap.width * 4), quality,
                    &output)
            case .lossless:
                return WebPEncodeLosslessRGBA(
                    input.baseAddress, Int32(bitmap.width), Int32(bitmap.height), Int32(bitmap.width * 4), &output)
            }
        }
        guard size > 0, let output else { throw .encodingFailed("WebPEncode returned nothing") }
        defer { WebPFree(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    /// Encodes frames of one size into an animated WebP; `durations` are milliseconds per frame.
    public static func encodeAnimation(
        _ frames: [Bitmap], durations: [Int], _ compression: WebPCompression, loopCount: Int = 0
    ) throws(WebPError) -> [UInt8] {
        guard let first = frames.first, frames.count == durations.count else {
            throw .encodingFailed("need at least one frame and one duration per frame")
        }
        guard frames.allSatisfy({ $0.width == first.width && $0.height == first.height }) else {
            throw .encodingFailed("frames differ in size")
        }
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0 else { throw .encodingFailed("libwebp version mismatch") }
        options.anim_params.loop_count = Int32(loopCount)
        guard let encoder = WebPAnimEncoderNew(Int32(first.width), Int32(first.height), &options) else {
            throw .encodingFailed("WebPAnimEncoderNew failed")
        }
        defer { WebPAnimEncoderDelete(encoder) }
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else { throw .encodingFailed("libwebp version mismatch") }
        switch compression {
        case .lossy(let quality): config.quality = quality
        case .lossless:
            config.lossless = 1
            config.quality = 75
        }
        var timestamp: Int32 = 0
        for (frame, duration) in zip(frames, durations) {
            var picture = WebPPicture()
            guard WebPPictureInit(&picture) != 0 else { throw .encodingFailed("libwebp version mismatch") }
            picture.use_argb = 1
            picture.width = Int32(frame.width)
            picture.height = Int32(frame.height)
            let straight = frame.straightRGBA()
            let imported = straight.withUnsafeBufferPointer {
                WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(frame.width * 4))
            }
            defer { WebPPictureFree(&picture) }
            guard imported != 0, WebPAnimEncoderAdd(encoder, &picture, timestamp, &config) != 0 else {
                throw .encodingFailed(String(cString: WebPAnimEncoderGetError(encoder)))
            }
            timestamp += Int32(max(1, duration))
        }
        guard WebPAnimEncoderAdd(encoder, nil, timestamp, nil) != 0 else {
            throw .encodingFailed(String(cString: WebPAnimEncoderGetError(encoder)))
        }
        var data = WebPData()
        guard WebPAnimEncoderAssemble(encoder, &data) != 0 else {
            throw .encodingFailed(String(cString: WebPAnimEncoderGetError(encoder)))
        }
        defer { WebPDataClear(&data) }
        return Array(UnsafeBufferPointer(start: data.bytes, count: data.size))
    }
}
