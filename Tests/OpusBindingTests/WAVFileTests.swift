import Foundation
import MediaTestSupport
import OpusBinding
import Testing

@Suite struct WAVFileTests {
    @Test func roundTripAndSoxAgrees() throws {
        let dir = Tools.scratch("opus")
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = WAVFile(sampleRate: 16_000, channels: 2, samples: (0..<3200).map { Int16($0 * 7 % 30000 - 15000) })
        #expect(try WAVFile(bytes: wav.encoded()) == wav)
        let file = dir.appendingPathComponent("a.wav")
        try Data(wav.encoded()).write(to: file)
        let stat = try Tools.runCapturing("soxi", ["-s", file.path])
        #expect(stat.output.trimmingCharacters(in: .whitespacesAndNewlines) == "1600")
        // sox converts to 24-bit and float; we read both back to the same 16-bit samples.
        for (name, args) in [
            ("b24.wav", ["-b", "24"]), ("b32.wav", ["-b", "32"]), ("f32.wav", ["-e", "floating-point", "-b", "32"]),
        ] {
            let out = dir.appendingPathComponent(name)
            #expect(try Tools.runCapturing("sox", [file.path] + args + [out.path]).status == 0)
            let back = try WAVFile(bytes: [UInt8](Data(contentsOf: out)))
            #expect(back.channels == 2 && back.sampleRate == 16_000)
            let worst = zip(back.samples, wav.samples).map { abs(Int($0) - Int($1)) }.max() ?? 99
            #expect(back.samples.count == wav.samples.count && worst <= 1)
        }
    }

    @Test func resampleKeepsDurationAndMixesDown() {
        let wav = WAVFile(sampleRate: 22_050, channels: 2, samples: [Int16](repeating: 1000, count: 22_050 * 2))
        let mono = wav.monoResampled(to: 48_000)
        #expect(mono.channels == 1 && mono.frameCount == 48_000 && mono.samples.allSatisfy { $0 == 1000 })
    }

    @Test func damagedHeadersAreErrors() {
        let good = WAVFile(sampleRate: 8000, channels: 1, samples: [1, 2, 3]).encoded()
        var badFmt = good
        badFmt[16] = 0xFF; badFmt[17] = 0xFF  // fmt chunk claims 64 KB
        #expect(throws: OpusError.self) { try WAVFile(bytes: badFmt) }
        #expect(throws: OpusError.self) { try WAVFile(bytes: Array(good.prefix(30))) }
        var hugeData = good
        hugeData[40] = 0xFF; hugeData[41] = 0xFF; hugeData[42] = 0xFF; hugeData[43] = 0x7F  // data claims 2 GB
        #expect((try? WAVFile(bytes: hugeData))?.samples == [1, 2, 3])
    }

    @Test func hundredCorruptVariantsNeverTrapOrOverread() {
        let good = WAVFile(sampleRate: 22_050, channels: 2, samples: (0..<2000).map { Int16($0 % 300) }).encoded()
        var state: UInt64 = 55
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var errors = 0
        for index in 0..<100 {
            var bytes = good
            switch index % 4 {
            case 0: bytes = Array(bytes.prefix(next() % 44))  // cut inside the header
            case 1: bytes[next() % 44] ^= UInt8(1 << (next() % 8))
            case 2:
                // fmt claims 9 channels or 0 Hz.
                if index % 8 == 2 { bytes[22] = 9 } else { bytes[24] = 0; bytes[25] = 0; bytes[26] = 0; bytes[27] = 0 }
            default: for _ in 0..<3 { bytes[next() % 44] = UInt8(truncatingIfNeeded: next()) }
            }
            do {
                let wav = try WAVFile(bytes: bytes)
                // Whatever survives is bounded by the data that is really there.
                #expect(wav.samples.count <= bytes.count - 44 && wav.samples.count % wav.channels == 0)
            } catch {
                errors += 1
            }
        }
        #expect(errors >= 50)
    }
}
