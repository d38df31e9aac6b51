import OpusBinding

extension FuzzHarness {
    /// Ogg/Opus bytes → `OggOpusReader` (libogg pages and CRCs, OpusHead/OpusTags, libopus decoding, pre-skip and
    /// end trimming) with a 2-second cap, so a mutation that claims hours is refused as a caller would refuse it.
    /// What decodes must agree with itself: whole frames of the header's channel count, within the cap.
    public static let oggOpus = FuzzHarness(
        name: "ogg-opus", summary: "Ogg/Opus bytes → OggOpusReader (pages, headers, libopus decode, trimming)"
    ) { input in
        .of {
            let cap = 2 * 48_000
            let decoded = try OggOpusReader.decode(input, maxSamples: cap)
            precondition(decoded.samples.count % decoded.head.channels == 0, "a partial frame of samples")
            precondition(decoded.frameCount <= cap, "decoded past the cap")
            _ = try OggOpusReader.duration(input)
            _ = try VoiceNote.monoPCM(input, maxSamples: cap)
        }
    }
}
