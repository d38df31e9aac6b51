import BenchmarkSupport
import Foundation
import OpusBinding

/// Opus encoding of a 60 s speech WAV into a voice note: ours in process vs the `opusenc` tool with the same settings
/// (30 kbit/s constrained VBR, 20 ms frames, complexity 10); both read the WAV file and write the .ogg.
enum OpusBench {
    static func run(scratch: URL) throws {
        let speechURL = scratch.appendingPathComponent("speech.wav")
        _ = try runTool(
            "espeak-ng",
            [
                "-w", speechURL.path,
                "Telegraph encodes voice notes with the settings of the Telegram recorder, mono at forty eight kilohertz.",
            ])
        let speech = try WAVFile(bytes: [UInt8](try Data(contentsOf: speechURL))).monoResampled(to: 48_000)
        var samples: [Int16] = []
        while samples.count < 48_000 * 60 { samples += speech.samples }
        let wav = WAVFile(sampleRate: 48_000, channels: 1, samples: Array(samples.prefix(48_000 * 60)))
        let input = scratch.appendingPathComponent("minute.wav")
        try Data(wav.encoded()).write(to: input)
        let output = scratch.appendingPathComponent("out.ogg")
        let seconds = 60.0
        let (ours, peer) = interleaved(
            items: seconds, unit: "s audio", runs: 5,
            ours: {
                let pcm = try! WAVFile(bytes: [UInt8](try! Data(contentsOf: input)))
                let writer = try! OggOpusWriter()
                var index = 0
                while index < pcm.samples.count {
                    try! writer.write(Array(pcm.samples[index..<min(index + 960, pcm.samples.count)]))
                    index += 960
                }
                try! Data(try! writer.finish()).write(to: output)
            },
            peer: {
                _ = try! runTool(
                    "opusenc",
                    [
                        "--quiet", "--bitrate", "30.72", "--cvbr", "--framesize", "20", "--comp", "10",
                        input.path, output.path,
                    ])
            })
        printTable(
            title:
                "Opus voice-note encoding, 60 s of speech (seconds of audio per second; alternating runs, fastest of 5)",
            peerName: "opusenc",
            [Comparison("WAV → Ogg/Opus 30 kbit/s CVBR", ours: ours, peer: peer, goal: "≥ 0.9×")])
    }
}
