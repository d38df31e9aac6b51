import Buffers

/// PCM audio in a RIFF/WAVE file: read 8/16/24/32-bit integer or 32-bit float, write 16-bit.
public struct WAVFile: Sendable, Equatable {
    public var sampleRate: Int
    public var channels: Int
    /// Interleaved 16-bit samples.
    public var samples: [Int16]

    /// PCM from its parts.
    public init(sampleRate: Int, channels: Int, samples: [Int16]) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.samples = samples
    }

    /// Samples per channel.
    public var frameCount: Int { samples.count / max(1, channels) }
    /// Seconds of audio.
    public var duration: Double { Double(frameCount) / Double(max(1, sampleRate)) }

    /// Parses a WAV file; chunk sizes are checked against the data before anything is copied.
    public init(bytes: [UInt8]) throws(OpusError) {
        var reader = ReadBuffer(bytes)
        do {
            guard try reader.readBytes(4) == Array("RIFF".utf8) else { throw OpusError.unsupportedWAV("no RIFF") }
            _ = try reader.readLittleEndian(UInt32.self)
            guard try reader.readBytes(4) == Array("WAVE".utf8) else { throw OpusError.unsupportedWAV("no WAVE") }
            var format: (tag: UInt16, channels: Int, rate: Int, bits: Int)?
            while reader.remaining >= 8 {
                let id = String(decoding: try reader.readBytes(4), as: UTF8.self)
                let size = Int(try reader.readLittleEndian(UInt32.self))
                if id == "fmt " {
                    guard size >= 16, size <= reader.remaining else { throw OpusError.unsupportedWAV("bad fmt chunk") }
                    var tag = try reader.readLittleEndian(UInt16.self)
                    let channels = Int(try reader.readLittleEndian(UInt16.self))
                    let rate = Int(try reader.readLittleEndian(UInt32.self))
                    try reader.skip(6)
                    let bits = Int(try reader.readLittleEndian(UInt16.self))
                    var rest = size - 16
                    if tag == 0xFFFE && rest >= 10 {  // WAVE_FORMAT_EXTENSIBLE: the subformat's first two bytes
                        try reader.skip(8)
                        tag = try reader.readLittleEndian(UInt16.self)
                        rest -= 10
                    }
                    try reader.skip(rest + (size & 1))
                    format = (tag, channels, rate, bits)
                } else if id == "data" {
                    guard let format else { throw OpusError.unsupportedWAV("data before fmt") }
                    // Writers that stream leave the size at 0 or 0xFFFFFFFF: take what is there.
                    let length = min(size, reader.remaining)
                    let data = try reader.readBytes(length)
                    self = try Self.convert(data, format: format)
                    return
                } else {
                    try reader.skip(min(reader.remaining, size + (size & 1)))
                }
            }
            throw OpusError.unsupportedWAV("no data chunk")
        } catch let error as OpusError {
            throw error
        } catch {
            throw .unsupportedWAV("truncated: \(error)")
        }
    }

    static func convert(
        _ data: [UInt8], format: (tag: UInt16, channels: Int, rate: Int, bits: Int)
    ) throws(OpusError) -> WAVFile {
        guard (1...8).contains(format.channels), (1_000...384_000).contains(format.rate) else {
            throw .unsupportedWAV("\(format.channels) channels at \(format.rate) Hz")
        }
        let samples: [Int16]
        switch (format.tag, format.bits) {
        case (1, 8): samples = data.map { Int16(Int($0) - 128) << 8 }
        case (1, 16):
            samples = stride(from: 0, to: data.count - 1, by: 2).map {
                Int16(bitPattern: UInt16(data[$0]) | UInt16(data[$0 + 1]) << 8)
            }
        case (1, 24):
            samples = stride(from: 0, to: data.count - 2, by: 3).map {
                Int16(bitPattern: UInt16(data[$0 + 1]) | UInt16(data[$0 + 2]) << 8)
            }
        case (1, 32):
            samples = stride(from: 0, to: data.count - 3, by: 4).map {
                Int16(bitPattern: UInt16(data[$0 + 2]) | UInt16(data[$0 + 3]) << 8)
            }
        case (3, 32):
            samples = stride(from: 0, to: data.count - 3, by: 4).map { i in
                let bits =
                    UInt32(data[i]) | UInt32(data[i + 1]) << 8 | UInt32(data[i + 2]) << 16
                    | UInt32(data[i + 3]) << 24
                let value = Float(bitPattern: bits)
                return value.isNaN ? 0 : Int16(max(-32768, min(32767, (value * 32767).rounded())))
            }
        default: throw .unsupportedWAV("format tag \(format.tag) with \(format.bits) bits")
        }
        let whole = samples.count - samples.count % format.channels
        return WAVFile(sampleRate: format.rate, channels: format.channels, samples: Array(samples.prefix(whole)))
    }

    /// A 16-bit PCM WAV file.
    public func encoded() -> [UInt8] {
        var out = WriteBuffer(capacity: 44 + samples.count * 2)
        out.write(contentsOf: "RIFF".utf8)
        out.writeLittleEndian(UInt32(36 + samples.count * 2))
        out.write(contentsOf: "WAVEfmt ".utf8)
        out.writeLittleEndian(UInt32(16))
        out.writeLittleEndian(UInt16(1))
        out.writeLittleEndian(UInt16(channels))
        out.writeLittleEndian(UInt32(sampleRate))
        out.writeLittleEndian(UInt32(sampleRate * channels * 2))
        out.writeLittleEndian(UInt16(channels * 2))
        out.writeLittleEndian(UInt16(16))
        out.write(contentsOf: "data".utf8)
        out.writeLittleEndian(UInt32(samples.count * 2))
        for sample in samples { out.writeLittleEndian(sample) }
        return out.bytes
    }

    /// Mono at `rate`: channels averaged, then resampled by linear interpolation (enough for speech into Opus,
    /// whose encoder low-passes what it cannot code anyway).
    public func monoResampled(to rate: Int) -> WAVFile {
        var mono = [Int16](repeating: 0, count: frameCount)
        for i in 0..<frameCount {
            var sum = 0
            for c in 0..<channels { sum += Int(samples[i * channels + c]) }
            mono[i] = Int16(sum / channels)
        }
        guard rate != sampleRate, !mono.isEmpty else { return WAVFile(sampleRate: rate, channels: 1, samples: mono) }
        let outCount = Int((Int64(mono.count) * Int64(rate)) / Int64(sampleRate))
        var out = [Int16](repeating: 0, count: outCount)
        let step = Double(sampleRate) / Double(rate)
        for i in 0..<outCount {
            let position = Double(i) * step
            let index = Int(position)
            let fraction = position - Double(index)
            let a = Double(mono[min(index, mono.count - 1)]), b = Double(mono[min(index + 1, mono.count - 1)])
            out[i] = Int16((a + (b - a) * fraction).rounded())
        }
        return WAVFile(sampleRate: rate, channels: 1, samples: out)
    }
}
