import ArgumentParser
import AudioWaveform
import CommandLineOutput
import Foundation
import OpusBinding

func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

func describe(_ waveform: AudioWaveform) -> String {
    "waveform (\(waveform.makeBitstream().count) bytes): \(hex(waveform.makeBitstream()))\n\(waveform.ascii())"
}

struct Encode: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Encode a WAV file into an Ogg/Opus voice note.")
    @Argument(help: "WAV input (8/16/24-bit or float; any rate and channel count: mixed to mono, resampled to 48 kHz).")
    var input: String
    @Argument(help: "The .ogg to write.") var output: String
    @Option(name: .long, help: "Bitrate in bit/s (Telegram: 30720).") var bitrate: Int32 = 30 * 1024

    func run() throws {
        let wav = try WAVFile(bytes: try readFile(input)).monoResampled(to: 48_000)
        var settings = OpusVoiceSettings()
        settings.bitrate = bitrate
        let writer = try OggOpusWriter(settings: settings)
        var recorder = WaveformRecorder()
        // The recorder's 960-sample (20 ms) chunks.
        var index = 0
        while index < wav.samples.count {
            let chunk = Array(wav.samples[index..<min(index + 960, wav.samples.count)])
            try writer.write(chunk)
            recorder.append(chunk)
            index += 960
        }
        let ogg = try writer.finish()
        try writeAtomically(ogg, to: output)
        print(
            "\(output): \(String(format: "%.2f", writer.duration)) s, \(ogg.count) bytes, "
                + "\(String(format: "%.1f", Double(ogg.count * 8) / max(writer.duration, 0.001) / 1000)) kbit/s")
        print(describe(recorder.finish()))
    }
}

struct Decode: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Decode an Ogg/Opus file into a 16-bit 48 kHz WAV file.")
    @Argument(help: "The .ogg / .opus input.") var input: String
    @Argument(help: "The .wav to write.") var output: String

    func run() throws {
        let decoded = try OggOpusReader.decode(try readFile(input))
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
        let samples: [Int16]
        if bytes.starts(with: Array("RIFF".utf8)) {
            samples = try WAVFile(bytes: bytes).monoResampled(to: 48_000).samples
        } else {
            let decoded = try OggOpusReader.decode(bytes)
            samples =
                decoded.head.channels == 1
                ? decoded.samples : stride(from: 0, to: decoded.samples.count - 1, by: 2).map { decoded.samples[$0] }
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
        let decoded = try OggOpusReader.decode(bytes)
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
