/// A voice note made from PCM: the Ogg/Opus file and the PCM it encodes.
public struct EncodedVoiceNote: Sendable {
    /// The Ogg/Opus file.
    public let ogg: [UInt8]
    /// The mono PCM at the encoder's rate that went into the file (what the recorder's waveform is computed from).
    public let pcm: [Int16]
    /// Seconds of audio.
    public let duration: Double
}

/// Voice notes as whole files: encoding a WAV file with the recorder's settings, and reading the mono PCM of either
/// container, so that the same audio gives the same waveform whether it arrives as Ogg/Opus or as WAV.
public enum VoiceNote {
    /// The recorder's chunk: 20 ms at 48 kHz.
    public static let chunkSamples = 960

    /// Mixes `wav` to mono, resamples it to `settings.sampleRate` and encodes it in the recorder's 20 ms chunks
    /// (`settings.channels` must be 1: voice notes are mono). `chunk` sees each chunk as it is written, e.g. to feed
    /// a waveform recorder.
    public static func encode(
        _ wav: WAVFile, settings: OpusVoiceSettings = OpusVoiceSettings(), serial: Int32 = .random(in: 1...Int32.max),
        chunk: ([Int16]) -> Void = { _ in }
    ) throws(OpusError) -> EncodedVoiceNote {
        guard settings.channels == 1 else {
            throw .codec(code: -1, "voice notes are mono: settings.channels is \(settings.channels), must be 1")
        }
        let mono = wav.monoResampled(to: Int(settings.sampleRate)).samples
        let writer = try OggOpusWriter(settings: settings, serial: serial)
        var index = 0
        while index < mono.count {
            let piece = Array(mono[index..<min(index + chunkSamples, mono.count)])
            try writer.write(piece)
            chunk(piece)
            index += chunkSamples
        }
        let ogg = try writer.finish()
        return EncodedVoiceNote(ogg: ogg, pcm: mono, duration: writer.duration)
    }

    /// The audio of an Ogg/Opus voice note or a WAV file (told apart by `RIFF`) as 48 kHz mono PCM, channels
    /// averaged the same way for both (`WAVFile.monoResampled`). `maxSamples` caps an Ogg's decoded length as in
    /// `OggOpusReader.decode`.
    public static func monoPCM(_ bytes: [UInt8], maxSamples: Int? = nil) throws(OpusError) -> [Int16] {
        if bytes.starts(with: Array("RIFF".utf8)) {
            return try WAVFile(bytes: bytes).monoResampled(to: 48_000).samples
        }
        let decoded = try OggOpusReader.decode(bytes, maxSamples: maxSamples)
        return WAVFile(sampleRate: 48_000, channels: decoded.head.channels, samples: decoded.samples)
            .monoResampled(to: 48_000).samples
    }
}
