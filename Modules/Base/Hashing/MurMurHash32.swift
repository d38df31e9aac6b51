/// MurmurHash3, x86 32-bit variant (Austin Appleby's `MurmurHash3_x86_32`).
///
/// Postbox keys its type registry by this hash of a type's name (Telegram-iOS
/// `submodules/Postbox/Sources/Coding.swift`, `declareEncodable` → `murMurHashString32`), so the output must match
/// the reference algorithm bit for bit: little-endian 4-byte blocks, then the tail, then the finalizer.
public enum MurMurHash32 {
    /// The seed Telegram's `MurMurHash32` module uses (`-137723950` as a signed 32-bit integer).
    public static let telegramSeed: UInt32 = 0xF7CA_7FD2

    /// Hashes `bytes` with `seed`.
    public static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt32) -> UInt32 {
        let c1: UInt32 = 0xcc9e_2d51
        let c2: UInt32 = 0x1b87_3593
        var h = seed
        let blockCount = bytes.count / 4
        for block in 0..<blockCount {
            var k = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: block * 4, as: UInt32.self))
            k = k &* c1
            k = k.rotatedLeft(by: 15)
            k = k &* c2
            h ^= k
            h = h.rotatedLeft(by: 13)
            h = h &* 5 &+ 0xe654_6b64
        }
        let tail = blockCount * 4
        var k: UInt32 = 0
        switch bytes.count & 3 {
        case 3:
            k ^= UInt32(bytes[tail + 2]) << 16
            fallthrough
        case 2:
            k ^= UInt32(bytes[tail + 1]) << 8
            fallthrough
        case 1:
            k ^= UInt32(bytes[tail])
            k = k &* c1
            k = k.rotatedLeft(by: 15)
            k = k &* c2
            h ^= k
        default:
            break
        }
        h ^= UInt32(truncatingIfNeeded: bytes.count)
        h ^= h >> 16
        h = h &* 0x85eb_ca6b
        h ^= h >> 13
        h = h &* 0xc2b2_ae35
        h ^= h >> 16
        return h
    }

    /// Hashes a byte array.
    public static func hash(_ bytes: [UInt8], seed: UInt32 = telegramSeed) -> UInt32 {
        bytes.withUnsafeBytes { hash($0, seed: seed) }
    }

    /// Hashes a string's UTF-8 bytes, as Telegram's `murMurHashString32` does; the result is signed like theirs.
    public static func hashString(_ string: String, seed: UInt32 = telegramSeed) -> Int32 {
        var string = string
        let value = string.withUTF8 { hash(UnsafeRawBufferPointer($0), seed: seed) }
        return Int32(bitPattern: value)
    }
}

extension UInt32 {
    @inline(__always)
    fileprivate func rotatedLeft(by count: UInt32) -> UInt32 {
        (self << count) | (self >> (32 - count))
    }
}
