import Foundation
import OpusBinding
import Testing

@Suite struct VoiceNoteTests {
    /// Stereo whose channels differ: a loud 300 Hz tone on the left that fades out, a quiet 2 kHz tone on the right
    /// that fades in.
    static func stereo(seconds: Double) -> WAVFile {
        let count = Int(seconds * 48_000)
        var samples: [Int16] = []
        samples.reserveCapacity(count * 2)
        for i in 0..<count {
            let t = Double(i) / 48_000, fade = Double(i) / Double(count)
            samples.append(Int16(20_000 * (1 - fade) * sin(2 * .pi * 300 * t)))
            samples.append(Int16(6_000 * fade * sin(2 * .pi * 2_000 * t)))
        }
        return WAVFile(sampleRate: 48_000, channels: 2, samples: samples)
    }

    @Test func encodeMixesResamplesAndFeedsEveryChunk() throws {
        let wav = Self.stereo(seconds: 0.5)
        var chunks: [[Int16]] = []
        let note = try VoiceNote.encode(wav, serial: 5) { chunks.append($0) }
        #expect(note.pcm == wav.monoResampled(to: 48_000).samples)
        #expect(chunks.flatMap { $0 } == note.pcm)
        #expect(chunks.dropLast().allSatisfy { $0.count == VoiceNote.chunkSamples })
        #expect(note.duration == 0.5)
        let decoded = try OggOpusReader.decode(note.ogg)
        #expect(decoded.head.channels == 1 && decoded.frameCount == 24_000)
    }

    @Test func voiceNotesAreMono() throws {
        var settings = OpusVoiceSettings()
        settings.channels = 2
        #expect(throws: OpusError.self) { try VoiceNote.encode(Self.stereo(seconds: 0.1), settings: settings) }
    }

    /// The same audio as Ogg and as WAV gives the same PCM, so the same waveform: both average the channels.
    @Test func aStereoOggAndItsWAVGiveTheSameMonoPCM() throws {
        var settings = OpusVoiceSettings()
        settings.channels = 2
        let writer = try OggOpusWriter(settings: settings, serial: 9)
        try writer.write(Self.stereo(seconds: 1).samples)
        let ogg = try writer.finish()
        let decoded = try OggOpusReader.decode(ogg)
        #expect(decoded.head.channels == 2)
        let wav = WAVFile(sampleRate: 48_000, channels: 2, samples: decoded.samples).encoded()
        let fromOgg = try VoiceNote.monoPCM(ogg)
        #expect(fromOgg == (try VoiceNote.monoPCM(wav)))
        #expect(fromOgg.count == 48_000)
        // Averaging matters here: the left channel alone is a different signal.
        let left = stride(from: 0, to: decoded.samples.count, by: 2).map { decoded.samples[$0] }
        #expect(left != fromOgg)
    }
}
