/// Builds the waveform Telegram attaches to a voice note while PCM streams in, in bounded memory.
///
/// As `ManagedAudioRecorder.processWaveformPreview` (Telegram-iOS
/// `submodules/TelegramUI/Sources/ManagedAudioRecorder.swift`): absolute sample peaks are
/// max-pooled into windows of `factor` samples; when 200 window peaks have gathered, neighbours are merged by
/// max into 100 and the window doubles, so memory stays ≤ 200 values for any length. `finish()` max-resamples
/// the peaks to exactly 100 values, normalizes them against `peak = max(2500, 1.8 × mean)`, clamps to 0…31.
public struct WaveformRecorder: Sendable {
    /// Values in the final waveform.
    public static let sampleCount = 100
    /// Peaks gathered before they are halved.
    static let bufferLimit = 200

    private(set) var peaks: [Int] = []
    private var factor = 1
    private var windowPeak = 0
    private var windowFill = 0

    /// An empty recorder.
    public init() {}

    /// Feeds 16-bit samples (mono; for interleaved stereo, every sample counts).
    public mutating func append(_ samples: [Int16]) {
        for sample in samples {
            let magnitude = sample == Int16.min ? 32768 : Int(abs(sample))
            if magnitude > windowPeak { windowPeak = magnitude }
            windowFill += 1
            if windowFill == factor { closeWindow() }
        }
    }

    private mutating func closeWindow() {
        peaks.append(windowPeak)
        windowPeak = 0
        windowFill = 0
        if peaks.count == Self.bufferLimit {
            peaks = (0..<Self.bufferLimit / 2).map { max(peaks[2 * $0], peaks[2 * $0 + 1]) }
            factor *= 2
        }
    }

    /// The 100 normalized values (0…31) of everything appended.
    public func finish() -> AudioWaveform {
        var all = peaks
        if windowFill > 0 { all.append(windowPeak) }
        let values = Self.maxResample(all, to: Self.sampleCount)
        let mean = values.reduce(0, +) / Self.sampleCount
        let peak = max(2500, mean * 18 / 10)
        return AudioWaveform(samples: values.map { UInt16(min(31, $0 * 31 / peak)) }, peak: 31)
    }

    /// Exactly `count` values, each the maximum of its share of `values` (a value is repeated when there are fewer).
    static func maxResample(_ values: [Int], to count: Int) -> [Int] {
        guard !values.isEmpty else { return [Int](repeating: 0, count: count) }
        return (0..<count).map { i in
            let start = i * values.count / count
            let end = max(start + 1, (i + 1) * values.count / count)
            return values[start..<end].max()!
        }
    }

    /// The Telegram waveform of a whole recording in one call.
    public static func waveform(of samples: [Int16]) -> AudioWaveform {
        var recorder = WaveformRecorder()
        recorder.append(samples)
        return recorder.finish()
    }
}
