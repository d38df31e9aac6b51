import BenchmarkSupport
import Foundation
import OpusBinding

/// Opus encoding of a 60 s speech WAV into a voice note: ours in process vs the `opusenc` tool with the same settings
/// (30 kbit/s constrained VBR, 20 ms frames, complexity 10); both read the WAV file and write the .ogg. The peer's
/// time is the command's whole run, start-up included (what "the opusenc command" costs); ours runs in this process.
///
/// Same work, checked every round: after each side's timer stops, its .ogg is read back with `OggOpusReader` and the
/// side returns the samples per channel its last page claims and the samples it decodes to (both must be the 60 s,
/// 2,880,000 samples at 48 kHz). The encoded bytes themselves differ by design (opusenc's own comment header and
/// its libopusenc page layout), so they are not compared.
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
        let ours = scratch.appendingPathComponent("ours.ogg")
        let peer = scratch.appendingPathComponent("opusenc.ogg")
        let row = compareInterleaved(
            "WAV → Ogg/Opus 30 kbit/s CVBR", items: 60, unit: "s audio", goal: "≥ 0.9×",
            oursTimed: {
                timed({
                    let pcm = try! WAVFile(bytes: [UInt8](try! Data(contentsOf: input)))
                    let writer = try! OggOpusWriter()
                    var index = 0
                    while index < pcm.samples.count {
                        try! writer.write(Array(pcm.samples[index..<min(index + 960, pcm.samples.count)]))
                        index += 960
                    }
                    try! Data(try! writer.finish()).write(to: ours)
                }) { audio(in: ours) }
            },
            peerTimed: {
                timed({
                    _ = try! runTool(
                        "opusenc",
                        [
                            "--quiet", "--bitrate", "30.72", "--cvbr", "--framesize", "20", "--comp", "10",
                            input.path, peer.path,
                        ])
                }) { audio(in: peer) }
            })
        printRows("Opus voice-note encoding, 60 s of speech (seconds of audio per second)", peerName: "opusenc", [row])
        print("\nboth .ogg files, read back every round: \(audio(in: ours))")
    }

    /// What an .ogg voice note holds: the samples per channel its last page claims and those it decodes to.
    static func audio(in url: URL) -> String {
        guard let bytes = try? [UInt8](Data(contentsOf: url)) else { return "no file" }
        do {
            let claimed = try OggOpusReader.duration(bytes) * 48_000
            let decoded = try OggOpusReader.decode(bytes)
            return "\(Int(claimed.rounded())) samples claimed, \(decoded.frameCount) decoded, "
                + "\(decoded.head.channels) channel(s)"
        } catch {
            return "unreadable: \(error)"
        }
    }
}
