import ArgumentParser
import AudioWaveform
import CommandLineOutput
import Foundation
import OpusBinding

func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

func describe(_ waveform: AudioWaveform) -> String {
    "waveform (\(waveform.makeBitstream().count) bytes): \(hex(waveform.makeBitstream()))\n\(waveform.ascii())"
}

let oggRemedy = "give an Ogg/Opus voice note (.ogg, .opus)"
let wavRemedy = "give a PCM WAV file (8/16/24-bit integer or 32-bit float)"

struct Encode: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Encode a WAV file into an Ogg/Opus voice note.")
    @Argument(help: "WAV input (8/16/24-bit or float; any rate and channel count: mixed to mono, resampled to 48 kHz).")
    var input: String
    @Argument(help: "The .ogg to write.") var output: String
    @Option(name: .long, help: "Bitrate in bit/s (Telegram: 30720).") var bitrate: Int32 = 30 * 1024

    func validate() throws {
        if !(6_000...510_000).contains(bitrate) { throw ValidationError("--bitrate must be 6000…510000") }
    }

    func run() throws {
        let bytes = try readFile(input)
        var settings = OpusVoiceSettings()
        settings.bitrate = bitrate
        var recorder = WaveformRecorder()
        let note = try ToolError.reading(input, remedy: wavRemedy) {
            try VoiceNote.encode(try WAVFile(bytes: bytes), settings: settings) { recorder.append($0) }
        }
        try writeAtomically(note.ogg, to: output)
        print(
            "\(output): \(String(format: "%.2f", note.duration)) s, \(note.ogg.count) bytes, "
                + "\(String(format: "%.1f", Double(note.ogg.count * 8) / max(note.duration, 0.001) / 1000)) kbit/s")
        print(describe(recorder.finish()))
    }
}

struct Decode: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Decode an Ogg/Opus file into a 16-bit 48 kHz WAV file.")
    @Argument(help: "The .ogg / .opus input.") var input: String
    @Argument(help: "The .wav to write.") var output: String

    func run() throws {
        let bytes = try readFile(input)
        let decoded = try ToolError.reading(input, remedy: oggRemedy) { try OggOpusReader.decode(bytes) }
        let wav = WAVFile(sampleRate: 48_000, channels: decoded.head.channels, samples: decoded.samples)
        try writeAtomically(wav.encoded(), to: output)
        print("\(output): \(String(format: "%.2f", decoded.duration)) s, \(decoded.head.channels) channel(s), 48000 Hz")
    }
}

struct Waveform: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Compute the Telegram waveform of a voice note.")
    @Argument(help: "The .ogg (or .wav) input.") var input: String
    @Option(name: .long, help: "Also write the waveform as a PNG.") var png: String?

    func run() throws {
        let bytes = try readFile(input)
        let samples = try ToolError.reading(input, remedy: "\(oggRemedy), or a WAV file") {
            try VoiceNote.monoPCM(bytes)
        }
        let waveform = WaveformRecorder.waveform(of: samples)
        print(describe(waveform))
        if let png {
            try writeAtomically(waveform.png(), to: png)
            print("PNG → \(png)")
        }
    }
}

struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show an Ogg/Opus file's header, duration and bitrate.")
    @Argument(help: "The .ogg / .opus input.") var input: String

    func run() throws {
        let bytes = try readFile(input)
        let decoded = try ToolError.reading(input, remedy: oggRemedy) { try OggOpusReader.decode(bytes) }
        let head = decoded.head
        print(input)
        print(
            "  channels: \(head.channels), pre-skip: \(head.preSkip), input rate: \(head.inputSampleRate) Hz, "
                + "gain: \(head.outputGain)")
        print("  vendor: \(decoded.vendor)")
        print(
            "  duration: \(String(format: "%.3f", decoded.duration)) s, \(bytes.count) bytes, "
                + "\(String(format: "%.1f", Double(bytes.count * 8) / max(decoded.duration, 0.001) / 1000)) kbit/s")
    }
}
