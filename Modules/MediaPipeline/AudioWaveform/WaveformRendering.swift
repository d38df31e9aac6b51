import GZip
import Hashing

extension AudioWaveform {
    /// A text picture `rows` high, one column per sample, bars drawn with block characters from the bottom.
    public func ascii(rows: Int = 8) -> String {
        let blocks: [Character] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        let levels = samples.map { Int($0) * rows * 8 / max(1, peak) }
        var lines: [String] = []
        for row in stride(from: rows - 1, through: 0, by: -1) {
            lines.append(
                String(
                    levels.map { level -> Character in
                        let inRow = level - row * 8
                        return blocks[max(0, min(8, inRow))]
                    }))
        }
        return lines.joined(separator: "\n")
    }

    /// A grayscale PNG of the waveform: `barWidth` pixels per sample with a one-pixel gap, bars centred vertically.
    ///
    /// Written by hand (IHDR, IDAT through GZip's zlib format, IEND, CRC-32 from Hashing) so that voice-tool
    /// needs no image module.
    public func png(height: Int = 64, barWidth: Int = 3) -> [UInt8] {
        let width = max(1, samples.count * (barWidth + 1))
        var raw = [UInt8]()
        raw.reserveCapacity((width + 1) * height)
        for y in 0..<height {
            raw.append(0)  // filter: none
            for x in 0..<width {
                let index = x / (barWidth + 1)
                let inGap = x % (barWidth + 1) == barWidth || index >= samples.count
                let barHeight = inGap ? 0 : max(1, Int(samples[index]) * height / max(1, peak))
                let top = (height - barHeight) / 2
                raw.append(!inGap && y >= top && y < top + barHeight ? 0x2A : 0xFF)
            }
        }
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header = be32(UInt32(width)) + be32(UInt32(height))
        header += [8, 0, 0, 0, 0]  // 8-bit grayscale, deflate, adaptive filtering, no interlace
        out += chunk("IHDR", header)
        out += chunk("IDAT", GZip.compress(raw, level: 9, format: .zlib))
        out += chunk("IEND", [])
        return out
    }

    private func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(CRC32.checksum(body))
    }

    private func be32(_ value: UInt32) -> [UInt8] {
        (0..<4).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
