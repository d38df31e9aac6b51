import COgg
import COpus

/// What the OpusHead packet of a stream says (RFC 7845 §5.1).
public struct OpusHead: Sendable, Equatable {
    public let version: UInt8
    public let channels: Int
    public let preSkip: Int
    public let inputSampleRate: Int
    public let outputGain: Int16
    public let mappingFamily: UInt8
}

/// A decoded Ogg/Opus stream: interleaved 16-bit PCM at 48 kHz with pre-skip and end trimming applied.
public struct DecodedOpus: Sendable {
    public let head: OpusHead
    /// The OpusTags vendor string.
    public let vendor: String
    public let samples: [Int16]
    /// Samples per channel.
    public var frameCount: Int { samples.count / max(1, head.channels) }
    /// Seconds of audio.
    public var duration: Double { Double(frameCount) / 48_000 }
}

/// Reads Ogg/Opus streams with libogg (pages, CRC, packets) and libopus (decoding), never trusting a length field.
public enum OggOpusReader {
    /// The most samples per channel `decode` ever allows by default: 30 minutes at 48 kHz.
    public static let defaultMaxSamples = 48_000 * 60 * 30
    /// Samples per channel per input byte allowed by default: one 20 ms frame (960 samples at 48 kHz, the frame
    /// Telegram's recorder and opusenc write) for every two bytes of file, the smallest a coded frame can take: a
    /// one-byte Opus packet (a lone TOC byte, RFC 6716 §3.1) plus its Ogg lacing value (RFC 3533 §6). Encoders stay
    /// below it: digital silence, the cheapest input, comes to about 220 with Telegram's settings and 125 from
    /// opusenc at 6 kbit/s with 60 ms frames, speech to about 12. A stream of empty 120 ms packets
    /// (RFC 6716 §3.2.5) reaches 1,920, i.e. 30 minutes of PCM from 50 KB, and is refused.
    public static let maxSamplesPerInputByte = 480

    /// The cap on samples per channel `decode` applies to an input of `inputSize` bytes when the caller gives none:
    /// `inputSize × maxSamplesPerInputByte`, at most `defaultMaxSamples`.
    public static func defaultMaxSamples(inputSize: Int) -> Int {
        let (relative, overflow) = inputSize.multipliedReportingOverflow(by: maxSamplesPerInputByte)
        return overflow ? defaultMaxSamples : min(defaultMaxSamples, relative)
    }

    /// Duration in seconds from the last page's granule position, without decoding audio.
    public static func duration(_ bytes: [UInt8]) throws(OpusError) -> Double {
        let claim = try claimedSamples(bytes)
        guard claim.complete else { throw .truncated }
        return Double(claim.samples) / 48_000
    }

    /// Samples per channel the stream says it holds (its last granule position minus the pre-skip, RFC 7845 §4),
    /// and whether it reaches its end-of-stream page; read with libogg, no audio decoded.
    static func claimedSamples(_ bytes: [UInt8]) throws(OpusError) -> (samples: Int, complete: Bool) {
        var head: OpusHead?
        var last: Int64 = -1
        var sawEnd = false
        try forEachPacket(bytes) { (packet, granule, eos) throws(OpusError) in
            if head == nil { head = try parseHead(packet) }
            if granule >= 0 { last = granule }
            if eos { sawEnd = true }
            return true
        }
        guard let head else { throw .corrupt("no OpusHead") }
        return (Int(max(0, last - Int64(head.preSkip))), sawEnd)
    }

    /// Decodes the whole stream.
    ///
    /// `maxSamples` (per channel) is the most the caller accepts, e.g. a little over the duration a message
    /// declares; without it the cap depends on the input's size (`defaultMaxSamples(inputSize:)`). A stream whose
    /// last page claims more is refused before any audio is decoded, and decoding stops as soon as the output
    /// passes the cap, whatever the pages claim.
    public static func decode(_ bytes: [UInt8], maxSamples: Int? = nil) throws(OpusError) -> DecodedOpus {
        let maxSamples = maxSamples ?? defaultMaxSamples(inputSize: bytes.count)
        let claim = try claimedSamples(bytes)
        guard claim.samples <= maxSamples else {
            throw .claimsTooLong(claimedSamples: claim.samples, limitSamples: maxSamples, inputSize: bytes.count)
        }
        var head: OpusHead?
        var vendor: String?
        var decoder: OpaquePointer?
        defer { if let decoder { opus_decoder_destroy(decoder) } }
        var samples: [Int16] = []
        var lastGranule: Int64 = -1
        var sawEnd = false
        var pcm = [Int16](repeating: 0, count: 5760 * 2)
        try forEachPacket(bytes) { (packet, granule, eos) throws(OpusError) in
            guard let header = head else {
                let parsed = try parseHead(packet)
                head = parsed
                var error: Int32 = 0
                decoder = opus_decoder_create(48_000, Int32(parsed.channels), &error)
                guard decoder != nil, error == OPUS_OK else { throw .codec(code: error, "decoder create") }
                return true
            }
            guard vendor != nil else {
                vendor = try parseTags(packet)
                return true
            }
            if sawEnd { throw .corrupt("packets after end of stream") }
            guard !packet.isEmpty, let decoder else { throw .corrupt("empty audio packet") }
            let count = packet.withUnsafeBufferPointer { input in
                pcm.withUnsafeMutableBufferPointer {
                    opus_decode(decoder, input.baseAddress, Int32(input.count), $0.baseAddress!, 5760, 0)
                }
            }
            guard count >= 0 else { throw .corrupt("opus packet: \(String(cString: opus_strerror(count)))") }
            guard samples.count / header.channels + Int(count) <= maxSamples + header.preSkip + 5760 else {
                throw .tooLong(limitSamples: maxSamples)
            }
            samples += pcm[0..<Int(count) * header.channels]
            if granule >= 0 { lastGranule = granule }
            if eos { sawEnd = true }
            return true
        }
        guard let head else { throw .corrupt("no OpusHead") }
        guard vendor != nil else { throw .corrupt("no OpusTags") }
        guard sawEnd else { throw .truncated }
        // RFC 7845 §4.2 and §4.5: drop pre-skip, keep up to the final granule.
        let total = Int(max(0, lastGranule - Int64(head.preSkip)))
        let skip = min(head.preSkip, samples.count / head.channels)
        let available = samples.count / head.channels - skip
        let keep = min(total, available)
        guard keep <= maxSamples else { throw .tooLong(limitSamples: maxSamples) }
        let trimmed = Array(samples[skip * head.channels..<(skip + keep) * head.channels])
        return DecodedOpus(head: head, vendor: vendor ?? "", samples: trimmed)
    }

    /// Feeds the bytes through libogg and calls `body` with each packet of the first logical stream.
    static func forEachPacket(
        _ bytes: [UInt8], _ body: ([UInt8], Int64, Bool) throws(OpusError) -> Bool
    ) throws(OpusError) {
        guard bytes.starts(with: Array("OggS".utf8)) else { throw .corrupt("no Ogg capture pattern") }
        var sync = ogg_sync_state()
        ogg_sync_init(&sync)
        defer { ogg_sync_clear(&sync) }
        var stream = ogg_stream_state()
        var streamStarted = false
        defer { if streamStarted { ogg_stream_clear(&stream) } }
        guard let buffer = ogg_sync_buffer(&sync, bytes.count) else { throw .corrupt("cannot buffer") }
        bytes.withUnsafeBufferPointer {
            buffer.update(from: UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), count: $0.count)
        }
        _ = ogg_sync_wrote(&sync, bytes.count)
        var page = ogg_page()
        var serial: Int32 = 0
        var skipped = false
        while true {
            let status = ogg_sync_pageout(&sync, &page)
            if status == 0 { break }
            if status < 0 {
                // libogg skipped bytes: a damaged page (bad CRC) or garbage between pages.
                skipped = true
                continue
            }
            if !streamStarted {
                serial = ogg_page_serialno(&page)
                ogg_stream_init(&stream, serial)
                streamStarted = true
            }
            guard ogg_page_serialno(&page) == serial else { continue }  // another logical stream: ignore
            if skipped { throw .corrupt("damaged page (CRC mismatch or garbage)") }
            guard ogg_stream_pagein(&stream, &page) == 0 else { throw .corrupt("page does not continue the stream") }
            var packet = ogg_packet()
            while true {
                let result = ogg_stream_packetout(&stream, &packet)
                if result == 0 { break }
                if result < 0 { throw .corrupt("gap in the packet sequence") }
                let data = Array(UnsafeBufferPointer(start: packet.packet, count: packet.bytes))
                guard try body(data, packet.granulepos, packet.e_o_s != 0) else { return }
            }
        }
        if skipped { throw .corrupt("damaged page (CRC mismatch or garbage)") }
        if !streamStarted { throw .corrupt("no complete Ogg page") }
    }

    static func parseHead(_ packet: [UInt8]) throws(OpusError) -> OpusHead {
        guard packet.count >= 19, packet.starts(with: Array("OpusHead".utf8)) else { throw .corrupt("no OpusHead") }
        let version = packet[8]
        guard version >> 4 == 0 else { throw .corrupt("unsupported OpusHead version \(version)") }
        let channels = Int(packet[9])
        let mapping = packet[18]
        guard channels == 1 || channels == 2, mapping == 0 else {
            throw .corrupt("unsupported channel layout (\(channels) channels, mapping \(mapping))")
        }
        return OpusHead(
            version: version, channels: channels, preSkip: Int(packet[10]) | Int(packet[11]) << 8,
            inputSampleRate: (0..<4).reduce(0) { $0 | Int(packet[12 + $1]) << (8 * $1) },
            outputGain: Int16(bitPattern: UInt16(packet[16]) | UInt16(packet[17]) << 8), mappingFamily: mapping)
    }

    static func parseTags(_ packet: [UInt8]) throws(OpusError) -> String {
        guard packet.count >= 16, packet.starts(with: Array("OpusTags".utf8)) else { throw .corrupt("no OpusTags") }
        let length = (0..<4).reduce(0) { $0 | Int(packet[8 + $1]) << (8 * $1) }
        guard length <= packet.count - 12 else { throw .corrupt("OpusTags vendor length \(length) beyond the packet") }
        return String(decoding: packet[12..<12 + length], as: UTF8.self)
    }
}
