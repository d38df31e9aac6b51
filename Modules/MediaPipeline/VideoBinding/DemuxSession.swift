import CFFmpeg
import ImageCore

/// One opened video: the custom I/O over the bytes, the demuxer, the chosen video stream and its decoder, all freed
/// with the session. Each call makes its own session, so nothing is shared between threads. Over bytes that are only
/// partly present, every step that read a missing byte throws `needsBytes` (whatever FFmpeg made of the failed read).
final class DemuxSession {
    let input: RangedInput
    private var io: UnsafeMutablePointer<AVIOContext>?
    private(set) var format: UnsafeMutablePointer<AVFormatContext>?
    private var decoder: UnsafeMutablePointer<AVCodecContext>?
    /// The decoder FFmpeg opened (`vp9`, `libvpx-vp9`, `h264`…), once `openDecoder` ran.
    private(set) var decoderName: String?
    private(set) var streamIndex: Int32 = -1
    let limits: VideoLimits

    /// Opens `bytes` and reads the stream headers; throws for input FFmpeg cannot open, and `needsBytes` when the
    /// headers reach a byte not present.
    init(_ bytes: VideoBytes, limits: VideoLimits) throws(VideoError) {
        _ = FFmpegLog.silence
        guard bytes.count <= limits.maxBytes else {
            throw .tooManyBytes(count: bytes.count, limit: limits.maxBytes)
        }
        self.limits = limits
        input = RangedInput(bytes)
        let bufferSize = 32_768
        guard let buffer = av_malloc(bufferSize)?.assumingMemoryBound(to: UInt8.self) else {
            throw .corrupt(what: "input", reason: "out of memory")
        }
        let opaque = Unmanaged.passUnretained(input).toOpaque()
        io = avio_alloc_context(
            buffer, Int32(bufferSize), 0, opaque,
            { opaque, buffer, size in
                guard let opaque, let buffer else { return FFmpegErrors.invalidArgument }
                return Unmanaged<RangedInput>.fromOpaque(opaque).takeUnretainedValue().read(into: buffer, size: size)
            }, nil,
            { opaque, offset, whence in
                guard let opaque else { return Int64(FFmpegErrors.invalidArgument) }
                return Unmanaged<RangedInput>.fromOpaque(opaque).takeUnretainedValue().seek(
                    offset: offset, whence: whence)
            })
        guard let io else {
            av_free(buffer)
            throw .corrupt(what: "input", reason: "out of memory")
        }
        guard var context = avformat_alloc_context() else { throw .corrupt(what: "input", reason: "out of memory") }
        context.pointee.pb = io
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        var opened: UnsafeMutablePointer<AVFormatContext>? = context
        let status = avformat_open_input(&opened, nil, nil, nil)
        guard status >= 0, let openedContext = opened else {
            // avformat_open_input frees the context on failure.
            try input.checkPresent()
            throw .corrupt(what: "container", reason: FFmpegErrors.message(status))
        }
        context = openedContext
        format = context
        let found = avformat_find_stream_info(context, nil)
        try input.checkPresent()
        guard found >= 0 else { throw .corrupt(what: "stream info", reason: FFmpegErrors.message(found)) }
        streamIndex = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard streamIndex >= 0 else { throw .noVideoStream }
    }

    deinit {
        if decoder != nil { avcodec_free_context(&decoder) }
        if format != nil { avformat_close_input(&format) }
        if let io {
            av_freep(&io.pointee.buffer)
            var context: UnsafeMutablePointer<AVIOContext>? = io
            avio_context_free(&context)
        }
    }

    var stream: UnsafeMutablePointer<AVStream> { format!.pointee.streams[Int(streamIndex)]! }

    /// What the headers say, checked against the limits.
    func info() throws(VideoError) -> VideoInfo {
        let parameters = stream.pointee.codecpar!.pointee
        let width = Int(parameters.width)
        let height = Int(parameters.height)
        try check(width: width, height: height)
        var duration = 0.0
        if format!.pointee.duration != Int64.min, format!.pointee.duration > 0 {
            duration = Double(format!.pointee.duration) / Double(AV_TIME_BASE)
        } else if stream.pointee.duration != Int64.min, stream.pointee.duration > 0 {
            duration = Double(stream.pointee.duration) * av_q2d(stream.pointee.time_base)
        }
        var hasAudio = false
        for index in 0..<Int(format!.pointee.nb_streams) {
            if format!.pointee.streams[index]?.pointee.codecpar?.pointee.codec_type == AVMEDIA_TYPE_AUDIO {
                hasAudio = true
            }
        }
        let codec = String(cString: avcodec_get_name(parameters.codec_id))
        let container = format!.pointee.iformat.map { String(cString: $0.pointee.name) } ?? ""
        var rate = stream.pointee.avg_frame_rate
        if rate.num <= 0 || rate.den <= 0 { rate = stream.pointee.r_frame_rate }
        let frameRate = rate.num > 0 && rate.den > 0 ? av_q2d(rate) : 0
        return VideoInfo(
            duration: duration, width: width, height: height, codec: codec, container: container,
            hasAudio: hasAudio, frameRate: frameRate.isFinite ? frameRate : 0, hasAlpha: hasAlphaTag)
    }

    /// Whether the stream says its frames carry alpha: Matroska's `AlphaMode` element, which FFmpeg's demuxer turns
    /// into the stream tag `alpha_mode=1` (WebM video stickers; the alpha plane travels in each block's
    /// BlockAdditional).
    var hasAlphaTag: Bool {
        guard let entry = av_dict_get(stream.pointee.metadata, "alpha_mode", nil, 0), let value = entry.pointee.value
        else { return false }
        return String(cString: value) == "1"
    }

    func check(width: Int, height: Int) throws(VideoError) {
        guard width > 0, height > 0 else { throw .corrupt(what: "stream", reason: "no frame size") }
        guard width <= limits.maxDimension, height <= limits.maxDimension, width * height <= limits.maxPixels else {
            throw .tooLarge(width: width, height: height, limits: limits)
        }
    }

    /// Opens the video stream's decoder (one thread: frames come out in order, one at a time).
    ///
    /// A VP9 or VP8 stream that says it has alpha is decoded by libvpx (`libvpx-vp9`, `libvpx`) when this FFmpeg has
    /// it: FFmpeg's native VP9 decoder ignores the alpha plane of Matroska's BlockAdditional, libvpx's wrapper decodes
    /// it into `yuva420p` (FFmpeg's `libavcodec/libvpxdec.c`; Telegram-iOS decodes video stickers through FFmpeg too,
    /// `submodules/AnimatedStickerNode/Sources/VideoStickerFrameSource.swift`). Without libvpx the native decoder
    /// gives the frames opaque.
    func openDecoder() throws(VideoError) -> UnsafeMutablePointer<AVCodecContext> {
        if let decoder { return decoder }
        let parameters = stream.pointee.codecpar!
        var chosen: UnsafePointer<AVCodec>?
        if hasAlphaTag {
            switch parameters.pointee.codec_id {
            case AV_CODEC_ID_VP9: chosen = avcodec_find_decoder_by_name("libvpx-vp9")
            case AV_CODEC_ID_VP8: chosen = avcodec_find_decoder_by_name("libvpx")
            default: break
            }
        }
        guard let codec = chosen ?? avcodec_find_decoder(parameters.pointee.codec_id) else { throw .noVideoStream }
        decoderName = String(cString: codec.pointee.name)
        guard let context = avcodec_alloc_context3(codec) else {
            throw .corrupt(what: "decoder", reason: "out of memory")
        }
        decoder = context
        let copied = avcodec_parameters_to_context(context, parameters)
        guard copied >= 0 else { throw .corrupt(what: "decoder", reason: FFmpegErrors.message(copied)) }
        context.pointee.thread_count = 1
        let opened = avcodec_open2(context, codec, nil)
        guard opened >= 0 else { throw .corrupt(what: "decoder", reason: FFmpegErrors.message(opened)) }
        return context
    }

    /// The first decoded frame whose time is at or after `seconds` (nil: the first frame), or the last frame
    /// before the stream ends; converted to RGBA.
    func frame(at seconds: Double?) throws(VideoError) -> VideoFrame {
        _ = try info()
        let decoder = try openDecoder()
        let timeBase = stream.pointee.time_base
        var target = Int64.min
        if let seconds, seconds > 0, timeBase.num > 0, timeBase.den > 0 {
            target = Int64(seconds / av_q2d(timeBase))
            let start = stream.pointee.start_time == Int64.min ? 0 : stream.pointee.start_time
            target += start
            if av_seek_frame(format, streamIndex, target, AVSEEK_FLAG_BACKWARD) >= 0 {
                avcodec_flush_buffers(decoder)
            }
            try input.checkPresent()
        }
        guard let packet = av_packet_alloc() else { throw .corrupt(what: "packet", reason: "out of memory") }
        var packetBox: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&packetBox) }
        guard let frame = av_frame_alloc() else { throw .corrupt(what: "frame", reason: "out of memory") }
        var frameBox: UnsafeMutablePointer<AVFrame>? = frame
        defer { av_frame_free(&frameBox) }
        var kept: VideoFrame?
        var packets = 0
        var draining = false
        while true {
            // Take every frame the decoder has ready.
            while true {
                let received = avcodec_receive_frame(decoder, frame)
                if received == FFmpegErrors.again { break }
                if received == FFmpegErrors.endOfFile {
                    if let kept { return kept }
                    throw .noFrame
                }
                if received < 0 { throw .corrupt(what: "frame", reason: FFmpegErrors.message(received)) }
                let pts = frame.pointee.best_effort_timestamp
                let converted = try convert(frame, timeBase: timeBase)
                av_frame_unref(frame)
                if target == Int64.min || pts == Int64.min || pts >= target { return converted }
                kept = converted
            }
            if draining {
                if let kept { return kept }
                throw .noFrame
            }
            packets += 1
            guard packets <= limits.maxPackets else {
                if let kept { return kept }
                throw .noFrame
            }
            let read = av_read_frame(format, packet)
            try input.checkPresent()
            if read < 0 {
                draining = true
                _ = avcodec_send_packet(decoder, nil)  // flush
                continue
            }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == streamIndex else { continue }
            let sent = avcodec_send_packet(decoder, packet)
            // A damaged packet is skipped, as ffmpeg's own decoder loop does; the packet budget still ends it.
            if sent < 0, sent != FFmpegErrors.again { continue }
        }
    }

    /// `frame` checked against the limits and converted by libswscale to RGBA (premultiplied when the pixel format
    /// has alpha, opaque otherwise).
    func convert(
        _ frame: UnsafeMutablePointer<AVFrame>, timeBase: AVRational
    ) throws(VideoError)
        -> VideoFrame
    {
        let width = Int(frame.pointee.width)
        let height = Int(frame.pointee.height)
        try check(width: width, height: height)
        let source = AVPixelFormat(rawValue: frame.pointee.format)
        guard
            let scaler = sws_getContext(
                Int32(width), Int32(height), source, Int32(width), Int32(height), AV_PIX_FMT_RGBA,
                Int32(SWS_BICUBIC), nil, nil, nil)
        else { throw .corrupt(what: "frame", reason: "libswscale cannot convert pixel format \(source.rawValue)") }
        defer { sws_freeContext(scaler) }
        let rowBytes = width * 4
        var pixels = [UInt8](repeating: 0, count: rowBytes * height)
        let scaled: Int32 = withUnsafePointer(to: &frame.pointee.data) { planes in
            planes.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: Int(AV_NUM_DATA_POINTERS)) { planes in
                withUnsafePointer(to: &frame.pointee.linesize) { strides in
                    strides.withMemoryRebound(to: Int32.self, capacity: Int(AV_NUM_DATA_POINTERS)) { strides in
                        pixels.withUnsafeMutableBufferPointer { out in
                            var destination: UnsafeMutablePointer<UInt8>? = out.baseAddress
                            var destinationStride = Int32(rowBytes)
                            return sws_scale(
                                scaler, planes, strides, 0, Int32(height), &destination, &destinationStride)
                        }
                    }
                }
            }
        }
        guard scaled == Int32(height) else {
            throw .corrupt(what: "frame", reason: "libswscale converted \(scaled) of \(height) rows")
        }
        let pts = frame.pointee.best_effort_timestamp
        let start = stream.pointee.start_time == Int64.min ? 0 : stream.pointee.start_time
        let time = pts == Int64.min ? 0 : Double(pts - start) * av_q2d(timeBase)
        let alphaFlag: UInt64 = 1 << 7  // AV_PIX_FMT_FLAG_ALPHA (libavutil/pixdesc.h)
        let hasAlpha = av_pix_fmt_desc_get(source).map { $0.pointee.flags & alphaFlag != 0 } ?? false
        guard hasAlpha else {
            // No alpha plane: every pixel is opaque, so straight and premultiplied are the same bytes.
            for index in stride(from: 3, to: pixels.count, by: 4) { pixels[index] = 255 }
            return VideoFrame(
                bitmap: Bitmap(width: width, height: height, bytesPerRow: rowBytes, premultipliedRGBA: pixels)!,
                time: time)
        }
        // libswscale gives straight alpha (yuva420p → RGBA); Bitmap keeps it premultiplied.
        return VideoFrame(bitmap: Bitmap(width: width, height: height, straightRGBA: pixels)!, time: time)
    }
}

/// libav*'s log, silenced once: corrupt input is reported through `VideoError`, not stderr.
enum FFmpegLog {
    static let silence: Void = { av_log_set_level(AV_LOG_QUIET) }()
}
