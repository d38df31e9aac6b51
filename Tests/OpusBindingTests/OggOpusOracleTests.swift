import Foundation
import MediaTestSupport
import OpusBinding
import Testing

/// Our voice notes through opusinfo and opusdec, and opusenc's files through our reader.
@Suite struct OggOpusOracleTests {
    static let sentence = "Telegraph records a voice note and the waveform follows the speech."

    @Test func opusinfoAcceptsAndOpusdecDecodesOurVoiceNote() throws {
        let dir = Tools.scratch("opus")
        defer { try? FileManager.default.removeItem(at: dir) }
        let speech = try Audio.speech(Self.sentence, in: dir)
        let writer = try OggOpusWriter(serial: 0x1234)
        // Feed in the recorder's 960-sample chunks, with an odd tail.
        var index = 0
        while index < speech.samples.count {
            try writer.write(Array(speech.samples[index..<min(index + 960, speech.samples.count)]))
            index += 960
        }
        let ogg = try writer.finish()
        let file = dir.appendingPathComponent("note.ogg")
        try Data(ogg).write(to: file)

        let info = try Tools.runCapturing("opusinfo", [file.path])
        #expect(info.status == 0)
        #expect(!info.output.contains("WARNING") && !info.output.contains("ERROR"), "\(info.output)")
        #expect(info.output.contains("Pre-skip: \(writer.preSkip)"))
        #expect(info.output.contains("Channels: 1"))
        #expect(info.output.contains("Original sample rate: 48000 Hz"))

        // Bitrate near 30 kbit/s (VBR on speech with pauses: lower rather than higher).
        let seconds = speech.duration
        let kbps = Double(ogg.count * 8) / seconds / 1000
        #expect(kbps > 10 && kbps < 40, "\(kbps) kbit/s")

        let decodedURL = dir.appendingPathComponent("dec.wav")
        let dec = try Tools.runCapturing("opusdec", ["--rate", "48000", file.path, decodedURL.path])
        #expect(dec.status == 0, "\(dec.output)")
        let theirs = try WAVFile(bytes: [UInt8](Data(contentsOf: decodedURL)))
        // opusdec honours pre-skip and the final granule: exactly the input length comes back.
        #expect(theirs.frameCount == speech.frameCount)
        #expect(Audio.correlation(speech.samples, theirs.samples) > 0.85)

        let ours = try OggOpusReader.decode(ogg)
        #expect(ours.samples.count == speech.samples.count)
        #expect(ours.head.preSkip == writer.preSkip && ours.head.channels == 1 && ours.head.inputSampleRate == 48_000)
        #expect(Audio.correlation(speech.samples, ours.samples) > 0.85)
        #expect(abs(try OggOpusReader.duration(ogg) - seconds) < 1e-9)
    }

    @Test func granulePositionsCountSamplesFromPreSkip() throws {
        let writer = try OggOpusWriter(serial: 7)
        try writer.write([Int16](repeating: 0, count: 48_000 + 100))
        let ogg = try writer.finish()
        let pages = Audio.pages(ogg)
        #expect(pages.count >= 3)
        func granule(_ page: (offset: Int, length: Int)) -> Int64 {
            (0..<8).reduce(Int64(0)) { $0 | Int64(ogg[page.offset + 6 + $1]) << (8 * $1) }
        }
        // Header pages have granule 0 and each sits alone on its page; the stream flags are set.
        #expect(granule(pages[0]) == 0 && granule(pages[1]) == 0)
        #expect(ogg[pages[0].offset + 5] == 2)  // beginning of stream
        #expect(ogg[pages.last!.offset + 5] & 4 == 4)  // end of stream
        #expect(granule(pages.last!) == Int64(writer.preSkip + 48_100))
        // Granules grow, every audio page ends on a 20 ms boundary except the trimmed last one.
        let audio = pages.dropFirst(2)
        for (a, b) in zip(audio, audio.dropFirst()) { #expect(granule(a) < granule(b)) }
        for page in audio.dropLast() { #expect(granule(page) % 960 == 0) }
    }

    @Test func weDecodeOpusencFiles() throws {
        let dir = Tools.scratch("opus")
        defer { try? FileManager.default.removeItem(at: dir) }
        let tone = dir.appendingPathComponent("tone.wav"), ogg = dir.appendingPathComponent("tone.ogg")
        #expect(
            try Tools.runCapturing(
                "sox",
                [
                    "-n", "-r", "48000", "-c", "1", "-b", "16", tone.path,
                    "synth", "1.5", "sine", "440", "vol", "0.5",
                ]
            ).status == 0)
        #expect(try Tools.runCapturing("opusenc", ["--quiet", "--bitrate", "32", tone.path, ogg.path]).status == 0)
        let source = try WAVFile(bytes: [UInt8](Data(contentsOf: tone)))
        let decoded = try OggOpusReader.decode([UInt8](Data(contentsOf: ogg)))
        #expect(decoded.frameCount == source.frameCount)
        #expect(Audio.correlation(source.samples, decoded.samples, maxLag: 50) > 0.95)
        #expect(decoded.vendor.contains("libopus"))
    }
}
