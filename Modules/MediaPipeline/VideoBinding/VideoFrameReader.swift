import CFFmpeg
public import ImageCore

/// Every frame of a video, in order, one at a time: a decoder session that stays open between reads (what a player
/// or a video sticker pulls from; Telegram-iOS's `SoftwareVideoSource` in `submodules/MediaPlayer` reads video
/// stickers the same way, a packet at a time through FFmpeg).
///
/// A stream whose frames carry alpha (WebM with `AlphaMode`, as Telegram's video stickers have) is decoded by libvpx
/// and its frames keep their alpha, premultiplied; other frames are opaque. Bounded like every decode here
/// (`VideoLimits`): the input's bytes before FFmpeg reads one, each frame's size, the packets read looking for one
/// frame, and the frames delivered in all (`maxFrames`). Hostile bytes end in a `VideoError`, never a trap.
///
/// Not thread-safe: one reader per thread (it holds FFmpeg's contexts and its position in the stream).
public final class VideoFrameReader {
    /// What the headers say.
    public let info: VideoInfo
    /// The decoder FFmpeg uses: `libvpx-vp9` when alpha is kept, else FFmpeg's own (`vp9`, `h264`…).
    public let decoderName: String
    /// Frames delivered so far.
    public private(set) var framesRead = 0
    private let session: DemuxSession
    private let decoder: UnsafeMutablePointer<AVCodecContext>
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var draining = false
    private var finished = false

    /// Opens `bytes` and its video stream's decoder.
    public init(_ bytes: [UInt8], limits: VideoLimits = .standard) throws(VideoError) {
        session = try DemuxSession(.whole(bytes), limits: limits)
        info = try session.info()
        decoder = try session.openDecoder()
        decoderName = session.decoderName ?? ""
        packet = av_packet_alloc()
        frame = av_frame_alloc()
        guard packet != nil, frame != nil else { throw .corrupt(what: "frame", reason: "out of memory") }
    }

    deinit {
        av_packet_free(&packet)
        av_frame_free(&frame)
    }

    /// The next frame in presentation order, or nil at the end of the stream.
    public func next() throws(VideoError) -> VideoFrame? {
        guard !finished, let packet, let frame else { return nil }
        let timeBase = session.stream.pointee.time_base
        var packets = 0
        while true {
            let received = avcodec_receive_frame(decoder, frame)
            if received >= 0 {
                defer { av_frame_unref(frame) }
                guard framesRead < session.limits.maxFrames else {
                    finished = true
                    throw .tooManyFrames(limit: session.limits.maxFrames)
                }
                let converted = try session.convert(frame, timeBase: timeBase)
                framesRead += 1
                return converted
            }
            if received == FFmpegErrors.endOfFile {
                finished = true
                return nil
            }
            if received != FFmpegErrors.again {
                finished = true
                throw .corrupt(what: "frame", reason: FFmpegErrors.message(received))
            }
            if draining {
                // A decoder that asks for more input after the flush has nothing left.
                finished = true
                return nil
            }
            packets += 1
            guard packets <= session.limits.maxPackets else {
                finished = true
                return nil
            }
            let read = av_read_frame(session.format, packet)
            try session.input.checkPresent()
            if read < 0 {
                draining = true
                _ = avcodec_send_packet(decoder, nil)  // flush
                continue
            }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == session.streamIndex else { continue }
            // A damaged packet is skipped, as ffmpeg's own decoder loop does; the packet budget still ends it.
            _ = avcodec_send_packet(decoder, packet)
        }
    }

    /// Reads every remaining frame (at most `maxFrames` in all).
    public func readAll() throws(VideoError) -> [VideoFrame] {
        var frames: [VideoFrame] = []
        while let frame = try next() { frames.append(frame) }
        return frames
    }
}

extension VideoDecoder {
    /// Every frame of the video, in order, with alpha when the stream has it (see `VideoFrameReader`). Each frame
    /// takes `width × height × 4` bytes: pass `limits.maxFrames` to bound the whole.
    public static func frames(_ bytes: [UInt8], limits: VideoLimits = .standard) throws(VideoError) -> [VideoFrame] {
        try VideoFrameReader(bytes, limits: limits).readAll()
    }
}
