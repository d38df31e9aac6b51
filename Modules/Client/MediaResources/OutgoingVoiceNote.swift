import AudioWaveform
public import OpusBinding
public import SyncCore

/// A voice note ready to upload: the Ogg/Opus file, its duration and Telegram's 63-byte waveform.
public struct PreparedVoiceNote: Sendable, Equatable {
    /// The Ogg/Opus file (48 kHz mono, Telegram's recorder settings).
    public let ogg: [UInt8]
    /// Seconds of audio, exactly.
    public let exactDuration: Double
    /// Whole seconds, as the voice attribute carries them (truncated, as Telegram-iOS's recorder sends
    /// `Int(data.duration)`).
    public let duration: Int32
    /// The waveform: 100 values of 5 bits packed LSB-first (`AudioWaveform.makeBitstream`), 63 bytes.
    public let waveform: [UInt8]

    /// The document attribute that makes the file a voice note: voice flag, duration, waveform.
    public var attribute: TelegramMediaFileAttribute {
        .audio(isVoice: true, duration: duration, title: nil, performer: nil, waveform: waveform)
    }
}

/// Why a WAV file cannot become a voice note.
public enum OutgoingVoiceNoteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be read, or is larger than `OutgoingVoiceNote.maxInputBytes`.
    case unreadableFile(path: String, reason: String)
    /// The WAV file is damaged or unsupported, or the encoder failed (OpusBinding's error).
    case audio(OpusError)
    /// No samples at all, or longer than `OutgoingVoiceNote.maxDuration` seconds.
    case invalidDuration(seconds: Double)
    /// The account could not store the prepared file (what went wrong).
    case storage(String)

    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason): return "cannot read the recording at \(path): \(reason)"
        case .audio(let error): return "cannot encode the recording: \(error)"
        case .invalidDuration(let seconds):
            return
                "a voice note must last more than 0 and at most \(OutgoingVoiceNote.maxDuration) s; this one is \(seconds) s"
        case .storage(let reason): return "cannot store the voice note in the account: \(reason)"
        }
    }
}

/// A recording (WAV) made into the voice note Telegram clients send: Ogg/Opus with the recorder's settings
/// (OpusBinding's `VoiceNote.encode`, 20 ms chunks), the waveform computed from the same chunks as the recorder
/// does (`WaveformRecorder`), and the duration; the `Account` convenience stores it as an `audio/ogg` document with
/// the voice attribute.
public enum OutgoingVoiceNote {
    /// The longest recording accepted, in seconds (OggOpusReader's default cap: 30 minutes).
    public static let maxDuration: Double = 30 * 60
    /// The largest WAV file read: 30 minutes of 48 kHz 16-bit stereo, plus room for headers.
    public static let maxInputBytes = 48_000 * 2 * 2 * 30 * 60 + 4096

    /// Encodes WAV bytes.
    public static func prepare(wav bytes: [UInt8]) throws(OutgoingVoiceNoteError) -> PreparedVoiceNote {
        let wav: WAVFile
        do throws(OpusError) { wav = try WAVFile(bytes: bytes) } catch { throw .audio(error) }
        guard wav.frameCount > 0, wav.duration <= maxDuration else { throw .invalidDuration(seconds: wav.duration) }
        var recorder = WaveformRecorder()
        let encoded: EncodedVoiceNote
        do throws(OpusError) { encoded = try VoiceNote.encode(wav) { recorder.append($0) } } catch {
            throw .audio(error)
        }
        return PreparedVoiceNote(
            ogg: encoded.ogg, exactDuration: encoded.duration, duration: Int32(encoded.duration),
            waveform: recorder.finish().makeBitstream())
    }

    /// Encodes the WAV file at `path`.
    public static func prepare(path: String) throws(OutgoingVoiceNoteError) -> PreparedVoiceNote {
        let bytes: [UInt8]
        do throws(LocalFiles.Failure) { bytes = try LocalFiles.read(path, maxBytes: maxInputBytes) } catch {
            switch error {
            case .tooLarge(let size):
                throw .unreadableFile(path: path, reason: "\(size) bytes, over the limit of \(maxInputBytes)")
            case .unreadable(let reason): throw .unreadableFile(path: path, reason: reason)
            }
        }
        return try prepare(wav: bytes)
    }
}
