import CWebP
public import ImageCore

/// What a WebP header says, read without decoding pixels (`WebPGetFeatures`).
public struct WebPInfo: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let hasAlpha: Bool
    public let isAnimated: Bool
    /// Whether the (first) frame is lossless VP8L.
    public let isLossless: Bool
}

/// One frame of an animated WebP: the whole canvas after the frame is composited, and when it starts.
public struct WebPFrame: Sendable, Equatable {
    public let bitmap: Bitmap
    /// Start time in milliseconds from the beginning of the animation.
    public let timestamp: Int
    /// How long this frame shows, in milliseconds.
    public let duration: Int
}

/// An animated WebP decoded into full-canvas frames.
public struct WebPAnimation: Sendable {
    public let width: Int
    public let height: Int
    /// 0 means forever.
    public let loopCount: Int
    public let frames: [WebPFrame]
}

/// Decoding of still and animated WebP through libwebp (decoder, demux) straight into premultiplied RGBA.
public enum WebPDecoder {
    /// The default pixel cap of one frame (16 megapixels; WebP itself stops at 16383×16383).
    public static let defaultMaxPixels = 16 << 20
    /// The default cap on an animation's decoded frames together (`frames × width × height × 4` bytes): 256 MB,
    /// e.g. 256 full frames of 512×512.
    public static let defaultMaxDecodedBytes = 256 << 20

    /// Whether `bytes` start like a WebP file (`RIFF????WEBP`).
    public static func isWebP(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 12 && bytes.starts(with: Array("RIFF".utf8)) && Array(bytes[8..<12]) == Array("WEBP".utf8)
    }

    /// Reads dimensions and flags from the header, without decoding.
    public static func info(_ bytes: [UInt8]) throws(WebPError) -> WebPInfo {
        var features = WebPBitstreamFeatures()
        let status = bytes.withUnsafeBufferPointer { WebPGetFeatures($0.baseAddress, $0.count, &features) }
        guard status == VP8_STATUS_OK else { throw .corrupt(describe(status)) }
        return WebPInfo(
            width: Int(features.width), height: Int(features.height), hasAlpha: features.has_alpha != 0,
            isAnimated: features.has_animation != 0, isLossless: features.format == 2)
    }

    /// Decodes a still WebP (or the first frame of an animated one) into premultiplied RGBA.
    public static func decode(_ bytes: [UInt8], maxPixels: Int = defaultMaxPixels) throws(WebPError) -> Bitmap {
        let header = try info(bytes)
        if header.isAnimated {
            guard let first = try decodeAnimation(bytes, maxPixels: maxPixels, maxFrames: 1).frames.first else {
                throw .corrupt("animation without frames")
            }
            return first.bitmap
        }
        guard header.width > 0, header.height > 0, header.width * header.height <= maxPixels else {
            throw .tooLarge(width: header.width, height: header.height, frames: 1)
        }
        var bitmap = Bitmap(width: header.width, height: header.height)
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else { throw .corrupt("libwebp version mismatch") }
        let status = bitmap.pixels.withUnsafeMutableBufferPointer { out in
            config.output.colorspace = MODE_rgbA
            config.output.is_external_memory = 1
            config.output.u.RGBA.rgba = out.baseAddress
            config.output.u.RGBA.stride = Int32(header.width * 4)
            config.output.u.RGBA.size = out.count
            return bytes.withUnsafeBufferPointer { WebPDecode($0.baseAddress, $0.count, &config) }
        }
        WebPFreeDecBuffer(&config.output)
        guard status == VP8_STATUS_OK else { throw .corrupt(describe(status)) }
        return bitmap
    }

    /// Decodes every frame of an animated (or still) WebP, composited on the canvas as a player shows them.
    ///
    /// Every frame is kept as a full canvas, so before anything is decoded the container's canvas and frame count
    /// (read by libwebp's demuxer) are checked: the canvas against `maxPixels`, and `frames × width × height × 4`
    /// against `maxDecodedBytes` (frames beyond `maxFrames` are not decoded and do not count). A few kilobytes of
    /// 1×1 frames on a 4096×4096 canvas are refused here instead of taking tens of gigabytes.
    public static func decodeAnimation(
        _ bytes: [UInt8], maxPixels: Int = defaultMaxPixels, maxFrames: Int = 10_000,
        maxDecodedBytes: Int = defaultMaxDecodedBytes
    ) throws(WebPError) -> WebPAnimation {
        _ = try info(bytes)
        return try bytes.withUnsafeBufferPointer { (buffer) throws(WebPError) -> WebPAnimation in
            let container = try container(buffer)
            let (width, height) = (container.width, container.height)
            guard width > 0, height > 0, width * height <= maxPixels else {
                throw .tooLarge(width: width, height: height, frames: container.frames)
            }
            let decodedFrames = min(container.frames, max(0, maxFrames))
            let (total, overflow) = (width * height * 4).multipliedReportingOverflow(by: decodedFrames)
            guard !overflow, total <= maxDecodedBytes else {
                throw .tooMuchOutput(
                    width: width, height: height, frames: decodedFrames, bytes: overflow ? .max : total,
                    limit: maxDecodedBytes)
            }
            var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
            var options = WebPAnimDecoderOptions()
            guard WebPAnimDecoderOptionsInit(&options) != 0 else { throw .corrupt("libwebp version mismatch") }
            options.color_mode = MODE_rgbA
            options.use_threads = 0
            guard let decoder = WebPAnimDecoderNew(&data, &options) else { throw .corrupt("demux failed") }
            defer { WebPAnimDecoderDelete(decoder) }
            var animInfo = WebPAnimInfo()
            guard WebPAnimDecoderGetInfo(decoder, &animInfo) != 0 else { throw .corrupt("no animation info") }
            guard Int(animInfo.canvas_width) == width, Int(animInfo.canvas_height) == height else {
                throw .corrupt("the decoder's canvas differs from the container's")
            }
            var frames: [WebPFrame] = []
            frames.reserveCapacity(decodedFrames)
            var previous = 0
            while WebPAnimDecoderHasMoreFrames(decoder) != 0 && frames.count < decodedFrames {
                var pointer: UnsafeMutablePointer<UInt8>?
                var timestamp: Int32 = 0
                guard WebPAnimDecoderGetNext(decoder, &pointer, &timestamp) != 0, let pointer else {
                    throw .corrupt("frame \(frames.count) failed to decode")
                }
                let pixels = Array(UnsafeBufferPointer(start: pointer, count: width * height * 4))
                let bitmap = Bitmap(width: width, height: height, bytesPerRow: width * 4, premultipliedRGBA: pixels)!
                // libwebp reports each frame's end time; the start is the previous frame's end.
                frames.append(WebPFrame(bitmap: bitmap, timestamp: previous, duration: Int(timestamp) - previous))
                previous = Int(timestamp)
            }
            if frames.isEmpty { throw .corrupt("animation without frames") }
            return WebPAnimation(width: width, height: height, loopCount: Int(animInfo.loop_count), frames: frames)
        }
    }

    /// The canvas and frame count the RIFF container declares, read by libwebp's demuxer without decoding pixels
    /// (a still image counts as one frame).
    static func container(
        _ buffer: UnsafeBufferPointer<UInt8>
    ) throws(WebPError) -> (width: Int, height: Int, frames: Int) {
        var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
        guard let demuxer = WebPDemux(&data) else { throw .corrupt("the RIFF container does not parse (demux failed)") }
        defer { WebPDemuxDelete(demuxer) }
        return (
            Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_WIDTH)), Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_HEIGHT)),
            Int(WebPDemuxGetI(demuxer, WEBP_FF_FRAME_COUNT))
        )
    }

    static func describe(_ status: VP8StatusCode) -> String {
        switch status {
        case VP8_STATUS_OUT_OF_MEMORY: return "out of memory"
        case VP8_STATUS_INVALID_PARAM: return "invalid parameter"
        case VP8_STATUS_BITSTREAM_ERROR: return "bitstream error"
        case VP8_STATUS_UNSUPPORTED_FEATURE: return "unsupported feature"
        case VP8_STATUS_SUSPENDED: return "suspended"
        case VP8_STATUS_USER_ABORT: return "aborted"
        case VP8_STATUS_NOT_ENOUGH_DATA: return "not enough data (truncated)"
        default: return "status \(status.rawValue)"
        }
    }
}
