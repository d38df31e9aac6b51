import Foundation
import TestVectors
import Testing

/// sticker-tool and voice-tool run as processes: their errors, exit codes, help and progress come from
/// CommandLineOutput, and voice-tool's waveform is the same for a stereo Ogg and the same audio as WAV.
@Suite struct MediaToolsTests {
    let dir: URL

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("media-tools-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    func tool(_ name: String, _ arguments: [String]) throws -> ProcessRunner.Result {
        let executable = ProcessRunner.builtExecutable(name)
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "build \(name) first")
        return try ProcessRunner.run(executable, arguments, timeout: 120)
    }

    /// An oracle tool from `make deps` (sox, opusenc), looked up on PATH.
    func oracle(_ arguments: [String]) throws {
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), arguments, timeout: 60)
        try #require(result.succeeded, "\(arguments[0]) failed: \(result.errorOutput)")
    }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func write(_ bytes: [UInt8], _ name: String) throws -> String {
        try Data(bytes).write(to: dir.appendingPathComponent(name))
        return path(name)
    }

    /// A good sticker: the square test animation, plain JSON.
    func goodSticker() throws -> String {
        let json = try Data(
            contentsOf: Fixtures.repositoryRoot.appendingPathComponent("Tests/MediaFixtures/lottie/square.json"))
        return try write([UInt8](json), "good.json")
    }

    @Test func helpListsTheExitCodes() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["sticker-tool", "voice-tool"] {
            let result = try tool(name, ["--help"])
            #expect(result.status == 0)
            #expect(result.output.contains("EXIT CODES:"))
            #expect(result.output.contains("  2  usage error or unusable input"))
            #expect(result.output.contains("  3  partial"))
        }
    }

    @Test func badInputIsOneLineOnStandardErrorAndExitsTwo() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let corrupt = try write(Array("{\"w\": 512".utf8), "corrupt.json")
        let cases: [(String, [String], String)] = [
            ("sticker-tool", ["info", corrupt], "sticker-tool: error: \(corrupt): "),
            (
                "sticker-tool", ["info", path("missing.tgs")],
                "sticker-tool: error: \(path("missing.tgs")) does not exist"
            ),
            ("sticker-tool", ["render", corrupt, "--out", path("x"), "--size", "0"], "sticker-tool: error: "),
            ("sticker-tool", ["info", corrupt, "--bogus"], "sticker-tool: error: "),
            ("voice-tool", ["decode", corrupt, path("x.wav")], "voice-tool: error: \(corrupt): corrupt Ogg/Opus"),
            ("voice-tool", ["encode", corrupt, path("x.ogg")], "voice-tool: error: \(corrupt): unsupported WAV"),
        ]
        for (name, arguments, prefix) in cases {
            let result = try tool(name, arguments)
            #expect(result.status == 2, "\(name) \(arguments): \(result.errorOutput)")
            let lines = result.errorOutput.split(separator: "\n")
            #expect(lines.count == 1, "\(name) \(arguments): \(result.errorOutput)")
            #expect(result.errorOutput.hasPrefix(prefix), "\(name) \(arguments): \(result.errorOutput)")
            #expect(result.errorOutput.contains(" — "), "no remedy: \(result.errorOutput)")
        }
        #expect(try contents() == ["corrupt.json"])
    }

    @Test func anOutputThatCannotBeWrittenExitsOne() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try tool(
            "sticker-tool", ["thumb", try goodSticker(), path("no-folder/thumb.png"), "--size", "32"])
        #expect(result.status == 1)
        #expect(result.errorOutput.hasPrefix("sticker-tool: error: cannot write \(path("no-folder/thumb.png"))"))
    }

    @Test func aBatchThatSkipsAFileExitsThreeAndShowsProgressWhenAsked() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: try goodSticker(), toPath: folder.appendingPathComponent("a.json").path)
        try Data("{\"w\":".utf8).write(to: folder.appendingPathComponent("b.json"))
        let quiet = try tool("sticker-tool", ["batch", folder.path, "--out", path("out"), "--size", "32"])
        #expect(quiet.status == 3)
        #expect(quiet.errorOutput.isEmpty)
        #expect(quiet.output.contains("1 ok, 1 failed") && quiet.output.contains("skipped b.json"))
        #expect(FileManager.default.fileExists(atPath: path("out/a.png")))
        let asked = try tool(
            "sticker-tool", ["batch", folder.path, "--out", path("out2"), "--size", "32", "--progress"])
        #expect(asked.status == 3)
        #expect(
            asked.errorOutput.contains("sticker-tool: 0/2 a.json\n")
                && asked.errorOutput.contains("sticker-tool: 2/2\n"))
    }

    @Test func aHostileVoiceNoteIsRefusedWithAClearError() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        // 600 empty 120 ms packets claim 72 s from about 2 KB: more than 480 samples per byte.
        let ogg = try Self.silentOgg(packets: 600)
        let result = try tool("voice-tool", ["info", try write(ogg, "hostile.ogg")])
        #expect(result.status == 2)
        #expect(result.errorOutput.contains("claims 1:12.0 of audio") && result.errorOutput.contains(" — "))
    }

    /// Stereo whose channels differ (a loud tone on the left that stops half-way, a quiet tone on the right):
    /// the Ogg and its decoded WAV must give the same waveform.
    @Test func theWaveformOfAStereoOggEqualsThatOfTheSameAudioAsWAV() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        try oracle([
            "sox", "-n", "-r", "48000", "-c", "1", "-b", "16", path("l.wav"), "synth", "1", "sine", "300",
            "vol", "0.8", "pad", "0", "1",
        ])
        try oracle([
            "sox", "-n", "-r", "48000", "-c", "1", "-b", "16", path("r.wav"), "synth", "2", "sine", "2000",
            "vol", "0.2",
        ])
        try oracle(["sox", "-M", path("l.wav"), path("r.wav"), path("stereo.wav")])
        try oracle(["opusenc", "--quiet", path("stereo.wav"), path("stereo.ogg")])
        let info = try tool("voice-tool", ["info", path("stereo.ogg")])
        #expect(info.status == 0 && info.output.contains("channels: 2"))
        #expect(try tool("voice-tool", ["decode", path("stereo.ogg"), path("decoded.wav")]).status == 0)
        let fromOgg = try tool("voice-tool", ["waveform", path("stereo.ogg")])
        let fromWAV = try tool("voice-tool", ["waveform", path("decoded.wav")])
        #expect(fromOgg.status == 0 && fromWAV.status == 0)
        #expect(fromOgg.output.hasPrefix("waveform (63 bytes): "))
        #expect(fromOgg.output == fromWAV.output)
    }

    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    }

    /// `packets` Opus packets of 120 ms of nothing in Ogg pages (RFC 7845, RFC 6716 §3.2.5), built here because
    /// this target links no media module.
    static func silentOgg(packets: Int) throws -> [UInt8] {
        func le(_ value: UInt64, _ count: Int) -> [UInt8] {
            (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
        }
        func page(_ packets: [[UInt8]], granule: UInt64, sequence: UInt64, flags: UInt8) -> [UInt8] {
            let lacing = packets.map { UInt8($0.count) }
            var bytes = Array("OggS".utf8) + [0, flags] + le(granule, 8) + le(7, 4) + le(sequence, 4) + [0, 0, 0, 0]
            bytes += [UInt8(lacing.count)] + lacing + packets.flatMap { $0 }
            var crc: UInt32 = 0
            for byte in bytes {
                crc ^= UInt32(byte) << 24
                for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? crc << 1 ^ 0x04C1_1DB7 : crc << 1 }
            }
            for i in 0..<4 { bytes[22 + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
            return bytes
        }
        let head = Array("OpusHead".utf8) + [1, 1] + le(312, 2) + le(48_000, 4) + [0, 0, 0]
        let tags = Array("OpusTags".utf8) + le(0, 4) + le(0, 4)
        var out = page([head], granule: 0, sequence: 0, flags: 2) + page([tags], granule: 0, sequence: 1, flags: 0)
        var written = 0, sequence: UInt64 = 2
        while written < packets {
            let count = min(255, packets - written)
            written += count
            out += page(
                [[UInt8]](repeating: [31 << 3 | 3, 6], count: count), granule: UInt64(312 + written * 5_760),
                sequence: sequence, flags: written == packets ? 4 : 0)
            sequence += 1
        }
        return out
    }
}
