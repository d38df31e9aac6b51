import AudioWaveform
import Foundation
import ImageCore
import Testing

@Suite struct AudioWaveformTests {
    /// An independent reference packer: builds the bit string explicitly, then cuts it into LSB-first bytes.
    static func referencePack(_ values: [Int]) -> [UInt8] {
        var bits: [Bool] = []
        for value in values { for bit in 0..<5 { bits.append(value >> bit & 1 == 1) } }
        while bits.count % 8 != 0 { bits.append(false) }
        return stride(from: 0, to: bits.count, by: 8).map { start in
            (0..<8).reduce(UInt8(0)) { $0 | (bits[start + $1] ? 1 << $1 : 0) }
        }
    }

    static func tone(amplitude: Double, count: Int, period: Int = 96) -> [Int16] {
        (0..<count).map { Int16((amplitude * sin(Double($0) * 2 * .pi / Double(period))).rounded()) }
    }

    @Test func silenceIsAllZeroAnd63Bytes() {
        let waveform = WaveformRecorder.waveform(of: [Int16](repeating: 0, count: 48_000))
        #expect(waveform.samples == [UInt16](repeating: 0, count: 100))
        #expect(waveform.makeBitstream() == [UInt8](repeating: 0, count: 63))
    }

    @Test func steadyToneIsSeventeenEverywhere() {
        // Every window peaks at 16000; mean 16000; peak = max(2500, 28800); 16000 × 31 / 28800 = 17.
        let samples = Self.tone(amplitude: 16_000, count: 48_000 * 2, period: 4)
        let waveform = WaveformRecorder.waveform(of: samples)
        #expect(waveform.samples == [UInt16](repeating: 17, count: 100))
        #expect(waveform.makeBitstream() == Self.referencePack([Int](repeating: 17, count: 100)))
    }

    @Test func toneBurstSaturatesAgainstHalfMean() {
        // First half silent, second half at 10000: mean 5000, peak 9000, 10000 × 31 / 9000 = 34 → clamped to 31.
        let samples = [Int16](repeating: 0, count: 25_600) + Self.tone(amplitude: 10_000, count: 25_600, period: 4)
        let waveform = WaveformRecorder.waveform(of: samples)
        let expected = [Int](repeating: 0, count: 50) + [Int](repeating: 31, count: 50)
        #expect(waveform.samples.map(Int.init) == expected)
        #expect(waveform.makeBitstream() == Self.referencePack(expected))
    }

    @Test func quietToneUsesTheFloorOf2500() {
        // 1000 × 31 / max(2500, 1800) = 12.
        let waveform = WaveformRecorder.waveform(of: Self.tone(amplitude: 1_000, count: 9_600, period: 4))
        #expect(waveform.samples == [UInt16](repeating: 12, count: 100))
    }

    @Test func streamingInChunksEqualsOneShot() {
        var state: UInt64 = 99
        let samples = (0..<123_457).map { _ -> Int16 in
            state = state &* 6_364_136_223_846_793_005 &+ 1
            return Int16(truncatingIfNeeded: state >> 48)
        }
        var recorder = WaveformRecorder()
        var index = 0
        for size in [1, 959, 960, 1920, 7, 50_000] + [Int](repeating: 3000, count: 30) where index < samples.count {
            recorder.append(Array(samples[index..<min(samples.count, index + size)]))
            index += size
        }
        if index < samples.count { recorder.append(Array(samples[index...])) }
        #expect(recorder.finish() == WaveformRecorder.waveform(of: samples))
    }

    @Test func bitstreamRoundTrips() {
        var state: UInt64 = 5
        let values = (0..<100).map { _ -> UInt16 in
            state = state &* 6_364_136_223_846_793_005 &+ 1
            return UInt16(state >> 59)
        }
        let waveform = AudioWaveform(samples: values, peak: 31)
        let bits = waveform.makeBitstream()
        #expect(bits.count == 63)
        #expect(bits == Self.referencePack(values.map(Int.init)))
        // 63 bytes hold 504 bits: the decoder reads 100 samples of 5 bits (the last 4 bits are padding).
        #expect(Array(AudioWaveform(bitstream: bits).samples.prefix(100)) == values)
    }

    @Test func pngDecodesWithLibpng() throws {
        let waveform = AudioWaveform(samples: (0..<100).map { UInt16($0 % 32) }, peak: 31)
        let bitmap = try PNGCodec.decode(waveform.png(height: 32, barWidth: 2))
        #expect(bitmap.width == 300 && bitmap.height == 32)
        // Column 0 is sample 0 (a 1-pixel bar); column 93 is sample 31 (full height).
        #expect(bitmap[93, 0] == RGBA(r: 0x2A, g: 0x2A, b: 0x2A, a: 255))
        #expect(bitmap[0, 0] == RGBA(r: 255, g: 255, b: 255, a: 255))
    }

    @Test func asciiHasOneColumnPerSample() {
        let text = AudioWaveform(samples: [0, 31, 15], peak: 31).ascii(rows: 2)
        #expect(text == " █ \n █▇")
    }
}
