import Foundation
import MediaTestSupport
import OpusBinding

/// Test helpers: speech from espeak-ng, signal comparison and Ogg page surgery (tools and scratch folders come from
/// MediaTestSupport).
enum Audio {
    /// Speech from espeak-ng, mono 48 kHz (espeak writes 22.05 kHz; we resample).
    static func speech(_ text: String, in dir: URL) throws -> WAVFile {
        let url = dir.appendingPathComponent("speech.wav")
        let result = try Tools.runCapturing("espeak-ng", ["-w", url.path, text])
        precondition(result.status == 0, "espeak-ng failed: \(result.output)")
        return try WAVFile(bytes: [UInt8](Data(contentsOf: url))).monoResampled(to: 48_000)
    }

    /// The best normalized cross-correlation of `b` against `a` over lags in `-maxLag...maxLag`.
    static func correlation(_ a: [Int16], _ b: [Int16], maxLag: Int = 48) -> Double {
        var best = -1.0
        for lag in stride(from: -maxLag, through: maxLag, by: 1) {
            var dot = 0.0, na = 0.0, nb = 0.0
            var i = max(0, -lag)
            let end = min(a.count, b.count - lag)
            while i < end {
                let x = Double(a[i]), y = Double(b[i + lag])
                dot += x * y
                na += x * x
                nb += y * y
                i += 3  // every third sample is plenty for a similarity measure
            }
            if na > 0, nb > 0 { best = max(best, dot / (na * nb).squareRoot()) }
        }
        return best
    }

    /// Offsets of each page ("OggS") and its total length.
    static func pages(_ bytes: [UInt8]) -> [(offset: Int, length: Int)] {
        var result: [(Int, Int)] = []
        var offset = 0
        while offset + 27 <= bytes.count {
            let segments = Int(bytes[offset + 26])
            let body = bytes[(offset + 27)..<(offset + 27 + segments)].reduce(0) { $0 + Int($1) }
            result.append((offset, 27 + segments + body))
            offset += 27 + segments + body
        }
        return result
    }

    /// Recomputes the CRC of the page at `offset` so a deliberate change inside it passes libogg's check.
    static func fixCRC(_ bytes: inout [UInt8], page: (offset: Int, length: Int)) {
        for i in 22..<26 { bytes[page.offset + i] = 0 }
        let crc = HostileMedia.oggCRC(bytes[page.offset..<page.offset + page.length])
        for i in 0..<4 { bytes[page.offset + 22 + i] = UInt8(truncatingIfNeeded: crc >> (8 * i)) }
    }
}
