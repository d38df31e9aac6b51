import AudioWaveform
import Foundation
import MediaResources
import MediaTestSupport
import OpusBinding
import SyncCore
import Testing

/// Recordings made into voice notes: Ogg/Opus that OggOpusReader decodes, the duration, the 63-byte waveform.
@Suite struct OutgoingVoiceNoteTests {
    /// `seconds` of 44.1 kHz stereo: one second of a 440 Hz tone, one of silence, the rest tone again.
    static func recording(seconds: Double) -> WAVFile {
        let rate = 44_100
        let frames = Int(seconds * Double(rate))
        var samples: [Int16] = []
        samples.reserveCapacity(frames * 2)
        for frame in 0..<frames {
            let t = Double(frame) / Double(rate)
            let silent = t >= 1 && t < 2
            let value = silent ? 0 : Int16(12_000 * sin(2 * Double.pi * 440 * t))
            samples.append(value)
            samples.append(value)
        }
        return WAVFile(sampleRate: rate, channels: 2, samples: samples)
    }

    @Test func aWAVRecordingBecomesAVoiceNote() throws {
        let note = try OutgoingVoiceNote.prepare(wav: Self.recording(seconds: 3.5).encoded())
        #expect(abs(note.exactDuration - 3.5) < 0.03)
        #expect(note.duration == 3, "whole seconds, truncated as Telegram-iOS sends them")
        let decoded = try OggOpusReader.decode(note.ogg)
        #expect(decoded.head.channels == 1)
        #expect(abs(decoded.duration - 3.5) < 0.03)
        #expect(note.waveform.count == 63)
        #expect(note.waveform.contains { $0 != 0 })
        // The second of silence shows as a trough: values 30…55 of 100 cover 1.05…1.9 s of 3.5 s.
        let values = AudioWaveform(bitstream: note.waveform).samples
        #expect(values.count == 100)
        #expect(values[31..<55].allSatisfy { $0 <= 2 }, "\(values)")
        #expect(values[5..<25].allSatisfy { $0 >= 20 }, "\(values)")
        if case .audio(let isVoice, let duration, _, _, let waveform) = note.attribute {
            #expect(isVoice && duration == 3 && waveform == note.waveform)
        } else {
            Issue.record("the attribute is \(note.attribute)")
        }
    }

    @Test func speechFromEspeakIsEncoded() throws {
        let folder = Tools.scratch("voice-note")
        defer { try? FileManager.default.removeItem(at: folder) }
        let wav = folder.appendingPathComponent("speech.wav").path
        let status = try Tools.run("espeak-ng", ["-w", wav, "Telegraph sends a voice note to Telethon."])
        try #require(status == 0, "espeak-ng is missing: run `make deps`")
        let note = try OutgoingVoiceNote.prepare(path: wav)
        let seconds = try WAVFile(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: wav)))).duration
        #expect(abs(note.exactDuration - seconds) < 0.03)
        #expect(note.duration == Int32(seconds))
        #expect(abs(try OggOpusReader.duration(note.ogg) - seconds) < 0.03)
        #expect(note.waveform.count == 63 && note.waveform.contains { $0 != 0 })
    }

    @Test func badRecordingsAreRefused() throws {
        #expect(throws: OutgoingVoiceNoteError.self) { try OutgoingVoiceNote.prepare(wav: Array("RIFF....WAVE".utf8)) }
        #expect(throws: OutgoingVoiceNoteError.self) { try OutgoingVoiceNote.prepare(wav: []) }
        let empty = WAVFile(sampleRate: 48_000, channels: 1, samples: []).encoded()
        #expect(throws: OutgoingVoiceNoteError.invalidDuration(seconds: 0)) {
            try OutgoingVoiceNote.prepare(wav: empty)
        }
        #expect(throws: OutgoingVoiceNoteError.self) { try OutgoingVoiceNote.prepare(path: "/nonexistent/voice.wav") }
    }
}
