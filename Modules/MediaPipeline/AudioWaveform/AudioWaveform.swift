/// A voice note's waveform as Telegram sends it in `documentAttributeAudio.waveform`: small unsigned samples
/// packed `bitsPerSample` bits each, LSB-first at bit offset `i × bits` (Telegram-iOS
/// `submodules/TelegramUI/Sources/AudioWaveform.swift`).
public struct AudioWaveform: Sendable, Equatable {
    /// The samples, each in `0...peak`.
    public let samples: [UInt16]
    /// The largest value a sample may take (31 for the 5-bit form).
    public let peak: Int

    /// Samples and their peak; each sample is clamped to the peak.
    public init(samples: [UInt16], peak: Int) {
        self.samples = samples.map { UInt16(min(Int($0), peak)) }
        self.peak = peak
    }

    /// Decodes a packed bitstream (Telegram's `init(bitstream:bitsPerSample:)`); the sample count is
    /// `bytes × 8 / bitsPerSample`.
    public init(bitstream: [UInt8], bitsPerSample: Int = 5) {
        precondition((1...16).contains(bitsPerSample), "bitsPerSample must be 1…16")
        let count = bitstream.count * 8 / bitsPerSample
        var samples = [UInt16](repeating: 0, count: count)
        for i in 0..<count {
            var value = 0
            for bit in 0..<bitsPerSample {
                let position = i * bitsPerSample + bit
                if bitstream[position >> 3] & (1 << (position & 7)) != 0 { value |= 1 << bit }
            }
            samples[i] = UInt16(value)
        }
        self.samples = samples
        self.peak = (1 << bitsPerSample) - 1
    }

    /// Packs the samples `bitsPerSample` bits each, LSB-first; `ceil(count × bits / 8)` bytes (100 × 5 → 63).
    public func makeBitstream(bitsPerSample: Int = 5) -> [UInt8] {
        precondition((1...16).contains(bitsPerSample), "bitsPerSample must be 1…16")
        let maxValue = (1 << bitsPerSample) - 1
        var out = [UInt8](repeating: 0, count: (samples.count * bitsPerSample + 7) / 8)
        for (i, sample) in samples.enumerated() {
            // Telegram scales to the target range: min(max, sample × max / peak).
            let value = peak == maxValue ? Int(sample) : min(maxValue, Int(sample) * maxValue / max(1, peak))
            for bit in 0..<bitsPerSample where value & (1 << bit) != 0 {
                let position = i * bitsPerSample + bit
                out[position >> 3] |= 1 << (position & 7)
            }
        }
        return out
    }
}
