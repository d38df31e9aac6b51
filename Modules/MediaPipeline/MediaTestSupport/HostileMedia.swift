import GZip
import Hashing
public import ImageCore
import WebPBinding

/// Small files that claim enormous outputs, assembled byte by byte for the decoders' limit tests: each is a valid
/// file that libwebp, libpng or libopus would decode as it stands.
public enum HostileMedia {
    /// An animated WebP of `frames` lossless 1×1 frames on a `canvas` × `canvas` canvas (VP8X + ANIM + ANMF chunks
    /// as the WebP container specification lays them out): about 46 bytes per frame, yet each decoded frame is a
    /// whole canvas.
    public static func animatedWebP(canvas: Int, frames: Int) throws -> [UInt8] {
        var pixel = Bitmap(width: 1, height: 1)
        pixel[0, 0] = RGBA(r: 255, g: 0, b: 0, a: 255)
        let still = try WebPEncoder.encode(pixel, .lossless)
        // A simple-format lossless file is `RIFF size WEBP` and one `VP8L` chunk: that chunk is the frame's bitstream.
        let frameChunk = Array(still[12...])
        precondition(frameChunk.starts(with: Array("VP8L".utf8)), "libwebp wrote an unexpected layout")
        var body = Array("WEBP".utf8)
        // VP8X: flags (animation 0x02, alpha 0x10), three reserved bytes, canvas width − 1 and height − 1.
        body += chunk("VP8X", [0x12, 0, 0, 0] + le24(canvas - 1) + le24(canvas - 1))
        // ANIM: background colour, loop count 0.
        body += chunk("ANIM", [0, 0, 0, 0, 0, 0])
        for index in 0..<frames {
            // ANMF: x / 2, y / 2, width − 1, height − 1, duration (ms), flags (blend, no dispose), then the frame.
            let x = index % max(1, canvas / 2)
            body += chunk("ANMF", le24(x) + le24(0) + le24(0) + le24(0) + le24(10) + [0] + frameChunk)
        }
        return Array("RIFF".utf8) + le32(body.count) + body
    }

    /// A 1-bit grayscale PNG of `width` × `height` black pixels: the filtered rows are all zero, so deflate packs
    /// them at its ~1000:1 limit (8000 × 8000 takes about 8 KB) while the decoded RGBA takes `width × height × 4`.
    public static func blackPNG(width: Int, height: Int) -> [UInt8] {
        let row = [UInt8](repeating: 0, count: 1 + (width + 7) / 8)  // filter byte 0, then the packed bits
        var raw = [UInt8]()
        raw.reserveCapacity(row.count * height)
        for _ in 0..<height { raw += row }
        // IHDR: width, height, bit depth 1, colour type 0 (gray), compression 0, filter 0, no interlace.
        let header = be32(width) + be32(height) + [1, 0, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + pngChunk("IHDR", header)
            + pngChunk("IDAT", GZip.compress(raw, level: 9, format: .zlib)) + pngChunk("IEND", [])
    }

    /// An Ogg/Opus stream (RFC 7845) of `packets` two-byte Opus packets, each 120 ms of nothing (RFC 6716 §3.2.5:
    /// code 3, six 20 ms CELT frames of length zero, which the decoder conceals as silence): 5,760 samples for
    /// every three bytes of file. 15,000 packets make 30 minutes from about 47 KB.
    public static func silentOggOpus(packets: Int, serial: UInt32 = 7) -> [UInt8] {
        let preSkip = 312
        let head = Array("OpusHead".utf8) + [1, 1] + le16(preSkip) + le32(48_000) + le16(0) + [0]
        let vendor = Array("hostile".utf8)
        let tags = Array("OpusTags".utf8) + le32(vendor.count) + vendor + le32(0)
        var out = oggPage(packets: [head], granule: 0, serial: serial, sequence: 0, flags: 0x02)
        out += oggPage(packets: [tags], granule: 0, serial: serial, sequence: 1, flags: 0)
        let packet: [UInt8] = [31 << 3 | 3, 6]  // TOC: config 31 (CELT fullband 20 ms), mono, code 3; M = 6, CBR
        var written = 0
        var sequence = 2
        while written < packets {
            let count = min(255, packets - written)
            written += count
            let last = written == packets
            out += oggPage(
                packets: [[UInt8]](repeating: packet, count: count), granule: Int64(preSkip + written * 5_760),
                serial: serial, sequence: sequence, flags: last ? 0x04 : 0)
            sequence += 1
        }
        return out
    }

    /// One Ogg page (RFC 3533 §6) holding whole `packets`, with its CRC.
    public static func oggPage(
        packets: [[UInt8]], granule: Int64, serial: UInt32, sequence: Int, flags: UInt8
    ) -> [UInt8] {
        var lacing: [UInt8] = []
        for packet in packets {
            lacing += [UInt8](repeating: 255, count: packet.count / 255) + [UInt8(packet.count % 255)]
        }
        precondition(lacing.count <= 255, "too many segments for one page")
        var page = Array("OggS".utf8) + [0, flags]
        page += (0..<8).map { UInt8(truncatingIfNeeded: UInt64(bitPattern: granule) >> (8 * UInt64($0))) }
        page += le32(Int(serial)) + le32(sequence) + [0, 0, 0, 0] + [UInt8(lacing.count)] + lacing
        page += packets.flatMap { $0 }
        let crc = oggCRC(page[...])
        for i in 0..<4 { page[22 + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
        return page
    }

    /// The Ogg page CRC (polynomial 0x04C11DB7, not reflected, initial 0) over a page with its CRC field zeroed.
    public static func oggCRC(_ page: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0
        for byte in page {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? crc << 1 ^ 0x04C1_1DB7 : crc << 1 }
        }
        return crc
    }

    static func chunk(_ fourCC: String, _ payload: [UInt8]) -> [UInt8] {
        Array(fourCC.utf8) + le32(payload.count) + payload + (payload.count % 2 == 1 ? [0] : [])
    }

    static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        be32(data.count) + Array(type.utf8) + data + be32(Int(CRC32.checksum(Array(type.utf8) + data)))
    }

    static func le16(_ value: Int) -> [UInt8] { (0..<2).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    static func le24(_ value: Int) -> [UInt8] { (0..<3).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    static func be32(_ value: Int) -> [UInt8] {
        (0..<4).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
