import COgg
import COpus
import COpusShims

/// Encoder settings; the defaults are Telegram's voice-note recorder (`TGOggOpusWriter`, Telegram-iOS
/// `submodules/OpusBinding`).
public struct OpusVoiceSettings: Sendable, Equatable {
    /// 48 kHz: Opus's native rate; Telegram records at 48 kHz.
    public var sampleRate: Int32 = 48_000
    /// Mono.
    public var channels: Int32 = 1
    /// 30 × 1024 bit/s.
    public var bitrate: Int32 = 30 * 1024
    /// 960 samples = 20 ms at 48 kHz.
    public var frameSize: Int = 960
    /// Constrained VBR (VBR on, constraint on).
    public var constrainedVBR: Bool = true
    /// libopus complexity 0…10 (libopus's default is 10).
    public var complexity: Int32 = 10
    /// Telegram's settings.
    public init() {}
}

/// Writes 16-bit PCM as an Ogg/Opus stream (RFC 7845): OpusHead and OpusTags pages, then audio pages whose
/// granule positions count 48 kHz samples including the encoder's pre-skip, the last one trimmed to the input.
///
/// One writer per recording, used from one thread at a time; it owns libopus and libogg state.
public final class OggOpusWriter {
    public let settings: OpusVoiceSettings
    /// Samples the decoder must drop at the start (the encoder's lookahead, at 48 kHz).
    public let preSkip: Int
    private let encoder: OpaquePointer
    private var stream = ogg_stream_state()
    private var output: [UInt8] = []
    private var pending: [Int16] = []
    private var samplesIn: Int = 0
    private var packetNumber: Int64 = 0
    private var granule: Int64 = 0
    private var finished = false

    /// A writer with the given settings and Ogg serial number (random by default, as Telegram's).
    public init(
        settings: OpusVoiceSettings = OpusVoiceSettings(), serial: Int32 = .random(in: 1...Int32.max)
    )
        throws(OpusError)
    {
        self.settings = settings
        var error: Int32 = 0
        // OPUS_APPLICATION_AUDIO, as opus-tools' opusenc, from which Telegram's TGOggOpusWriter is derived.
        guard let encoder = opus_encoder_create(settings.sampleRate, settings.channels, OPUS_APPLICATION_AUDIO, &error),
            error == OPUS_OK
        else { throw .codec(code: error, Self.message(error)) }
        self.encoder = encoder
        _ = telegraph_opus_set_bitrate(encoder, settings.bitrate)
        _ = telegraph_opus_set_vbr(encoder, 1)
        _ = telegraph_opus_set_vbr_constraint(encoder, settings.constrainedVBR ? 1 : 0)
        _ = telegraph_opus_set_complexity(encoder, settings.complexity)
        var lookahead: Int32 = 0
        _ = telegraph_opus_get_lookahead(encoder, &lookahead)
        preSkip = Int(lookahead) * 48_000 / Int(settings.sampleRate)
        ogg_stream_init(&stream, serial)
        writeHeaders()
    }

    deinit {
        opus_encoder_destroy(encoder)
        ogg_stream_clear(&stream)
    }

    /// Samples per channel written so far.
    public var sampleCount: Int { samplesIn / Int(settings.channels) }

    /// Duration written so far, in seconds.
    public var duration: Double { Double(sampleCount) / Double(settings.sampleRate) }

    /// Appends interleaved 16-bit samples; whole 20 ms frames are encoded at once.
    public func write(_ samples: [Int16]) throws(OpusError) {
        precondition(!finished, "write after finish")
        pending += samples
        samplesIn += samples.count
        let frameSamples = settings.frameSize * Int(settings.channels)
        var consumed = 0
        while pending.count - consumed >= frameSamples {
            try encodeFrame(Array(pending[consumed..<consumed + frameSamples]), last: false)
            consumed += frameSamples
        }
        pending.removeFirst(consumed)
    }

    /// Pads and encodes the rest, ends the stream, and returns the whole Ogg file.
    public func finish() throws(OpusError) -> [UInt8] {
        precondition(!finished, "finish called twice")
        finished = true
        let frameSamples = settings.frameSize * Int(settings.channels)
        let frame48k = Int64(settings.frameSize * 48_000 / Int(settings.sampleRate))
        // Encode until the decoder's output covers the pre-skip plus every input sample.
        let needed = Int64(preSkip + sampleCount * 48_000 / Int(settings.sampleRate))
        var frame = pending + [Int16](repeating: 0, count: frameSamples - pending.count)
        while true {
            let isLast = granule + frame48k >= needed
            try encodeFrame(frame, last: isLast)
            if isLast { break }
            frame = [Int16](repeating: 0, count: frameSamples)
        }
        pending = []
        flushPages(force: true)
        return output
    }

    private func encodeFrame(_ frame: [Int16], last: Bool) throws(OpusError) {
        var packet = [UInt8](repeating: 0, count: 4000)
        let size = frame.withUnsafeBufferPointer { input in
            packet.withUnsafeMutableBufferPointer {
                opus_encode(encoder, input.baseAddress!, Int32(settings.frameSize), $0.baseAddress!, Int32($0.count))
            }
        }
        guard size > 0 else { throw .codec(code: size, Self.message(size)) }
        granule += Int64(settings.frameSize * 48_000 / Int(settings.sampleRate))
        // RFC 7845 §4: the last page's granule marks where the decoded audio ends (end trimming).
        let position = last ? Int64(preSkip + sampleCount * 48_000 / Int(settings.sampleRate)) : granule
        append(Array(packet.prefix(Int(size))), granule: position, bos: false, eos: last)
        flushPages(force: false)
    }

    private func writeHeaders() {
        // RFC 7845 §5.1: OpusHead.
        var head = Array("OpusHead".utf8)
        head.append(1)
        head.append(UInt8(settings.channels))
        head += le16(UInt16(preSkip))
        head += le32(UInt32(settings.sampleRate))
        head += le16(0)  // output gain
        head.append(0)  // channel mapping family 0: mono or stereo
        append(head, granule: 0, bos: true, eos: false)
        flushPages(force: true)
        // RFC 7845 §5.2: OpusTags.
        let vendor = Array(String(cString: opus_get_version_string()).utf8)
        var tags = Array("OpusTags".utf8)
        tags += le32(UInt32(vendor.count)) + vendor
        let comment = Array("ENCODER=Telegraph OpusBinding".utf8)
        tags += le32(1) + le32(UInt32(comment.count)) + comment
        append(tags, granule: 0, bos: false, eos: false)
        flushPages(force: true)
    }

    private func append(_ data: [UInt8], granule: Int64, bos: Bool, eos: Bool) {
        var bytes = data
        bytes.withUnsafeMutableBufferPointer { buffer in
            var packet = ogg_packet()
            packet.packet = buffer.baseAddress
            packet.bytes = buffer.count
            packet.b_o_s = bos ? 1 : 0
            packet.e_o_s = eos ? 1 : 0
            packet.granulepos = granule
            packet.packetno = packetNumber
            _ = ogg_stream_packetin(&stream, &packet)
        }
        packetNumber += 1
    }

    private func flushPages(force: Bool) {
        var page = ogg_page()
        while (force ? ogg_stream_flush(&stream, &page) : ogg_stream_pageout(&stream, &page)) != 0 {
            output += UnsafeBufferPointer(start: page.header, count: page.header_len)
            output += UnsafeBufferPointer(start: page.body, count: page.body_len)
        }
    }

    static func message(_ code: Int32) -> String { String(cString: opus_strerror(code)) }
}

func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
