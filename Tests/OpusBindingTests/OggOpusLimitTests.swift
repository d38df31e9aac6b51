import Foundation
import MediaTestSupport
import OpusBinding
import Testing

/// Decoded audio is bounded by the input's size (or by what the caller asks for): a few kilobytes of empty packets
/// cannot become half an hour of PCM.
@Suite struct OggOpusLimitTests {
    @Test func fiftyKilobytesClaimingThirtyMinutesAreRefusedBeforeDecoding() throws {
        let ogg = HostileMedia.silentOggOpus(packets: 15_000)
        #expect(ogg.count < 50_000)
        // The stream is well formed: its pages say 30 minutes.
        #expect(try OggOpusReader.duration(ogg) == 1_800)
        let start = Date()
        let limit = OggOpusReader.defaultMaxSamples(inputSize: ogg.count)
        #expect(limit == ogg.count * OggOpusReader.maxSamplesPerInputByte)
        #expect(
            thrownError { try OggOpusReader.decode(ogg) } as? OpusError
                == .claimsTooLong(claimedSamples: 86_400_000, limitSamples: limit, inputSize: ogg.count))
        #expect(Date().timeIntervalSince(start) < 2)
        let message = OpusError.claimsTooLong(claimedSamples: 86_400_000, limitSamples: limit, inputSize: ogg.count)
            .description
        #expect(message.contains("30:00.0") && message.contains("last page") && message.contains("maxSamples"))
    }

    @Test func aStreamWhosePagesUnderstateItsLengthStopsAtTheCap() throws {
        // 400 empty 120 ms packets decode to 48 s, but the last page is rewritten to claim 1 s.
        var ogg = HostileMedia.silentOggOpus(packets: 400)
        let lastPage = try #require(Audio.pages(ogg).last)
        let claim = Int64(312 + 48_000)
        for i in 0..<8 { ogg[lastPage.offset + 6 + i] = UInt8(truncatingIfNeeded: claim >> (8 * Int64(i))) }
        Audio.fixCRC(&ogg, page: lastPage)
        #expect(try OggOpusReader.duration(ogg) == 1)
        #expect(
            thrownError { try OggOpusReader.decode(ogg, maxSamples: 96_000) } as? OpusError
                == .tooLong(limitSamples: 96_000))
        // With a cap that covers the real length it decodes, trimmed to the claimed end (RFC 7845 §4.5).
        #expect(try OggOpusReader.decode(ogg, maxSamples: 48 * 48_000).frameCount == 48_000)
    }

    @Test func realVoiceNotesStayFarBelowThePerByteBound() throws {
        // Digital silence is the cheapest thing an encoder writes (libopus sends ~3-byte packets: about 220 samples
        // per byte with Telegram's settings); speech costs 20 times more.
        let writer = try OggOpusWriter(serial: 3)
        try writer.write([Int16](repeating: 0, count: 48_000 * 10))
        let silence = try writer.finish()
        let perByte = Double(48_000 * 10) / Double(silence.count)
        #expect(perByte < Double(OggOpusReader.maxSamplesPerInputByte) / 2)
        #expect(try OggOpusReader.decode(silence).frameCount == 48_000 * 10)
    }
}

