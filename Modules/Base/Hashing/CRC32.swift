/// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), the checksum of zlib, PNG and MTProto's full transport.
///
/// Slicing-by-8: eight 256-entry tables let the loop consume eight bytes per step.
public struct CRC32: Sendable {
    /// The running checksum of everything passed to `update` so far.
    public private(set) var value: UInt32 = 0

    /// A checksum of nothing (0).
    public init() {}

    /// The checksum of `bytes` in one call.
    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }

    /// The checksum of raw memory in one call.
    public static func checksum(_ raw: UnsafeRawBufferPointer) -> UInt32 {
        var crc = CRC32()
        crc.update(raw)
        return crc.value
    }

    /// Adds `bytes` to the checksum.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Adds raw memory to the checksum.
    public mutating func update(_ raw: UnsafeRawBufferPointer) {
        let tables = CRC32Tables.slices
        var crc = ~value
        var index = 0
        let count = raw.count
        tables.withUnsafeBufferPointer { t in
            while count - index >= 8 {
                let one = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt32.self)) ^ crc
                let two = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self))
                crc =
                    t[7 * 256 + Int(one & 0xff)] ^ t[6 * 256 + Int((one >> 8) & 0xff)]
                    ^ t[5 * 256 + Int((one >> 16) & 0xff)] ^ t[4 * 256 + Int(one >> 24)]
                    ^ t[3 * 256 + Int(two & 0xff)] ^ t[2 * 256 + Int((two >> 8) & 0xff)]
                    ^ t[1 * 256 + Int((two >> 16) & 0xff)] ^ t[Int(two >> 24)]
                index += 8
            }
            while index < count {
                crc = t[Int((crc ^ UInt32(raw[index])) & 0xff)] ^ (crc >> 8)
                index += 1
            }
        }
        value = ~crc
    }
}

/// The eight lookup tables of slicing-by-8, flattened: table `k` occupies entries `k*256 ..< (k+1)*256`.
enum CRC32Tables {
    static let slices: [UInt32] = {
        var table = [UInt32](repeating: 0, count: 8 * 256)
        for n in 0..<256 {
            var c = UInt32(n)
            for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            table[n] = c
        }
        for n in 0..<256 {
            for k in 1..<8 {
                let previous = table[(k - 1) * 256 + n]
                table[k * 256 + n] = table[Int(previous & 0xff)] ^ (previous >> 8)
            }
        }
        return table
    }()
}
