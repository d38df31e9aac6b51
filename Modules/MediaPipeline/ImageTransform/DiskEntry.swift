import Foundation
import ImageCore

/// One transformed bitmap on disk: `"TGTC"`, key length (`UInt32` LE), the key's text, width, height (`UInt32` LE),
/// then the packed premultiplied RGBA. The key is stored so that a hash collision or a foreign file is a miss.
enum DiskEntry {
    static let magic = Array("TGTC".utf8)
    static let maxSide = 16384

    static func read(from url: URL, key: TransformCacheKey) -> Bitmap? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        let bytes = [UInt8](data)
        let keyBytes = Array(key.description.utf8)
        let headerEnd = 8 + keyBytes.count + 8
        guard bytes.count >= headerEnd, Array(bytes[0..<4]) == magic else { return nil }
        func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        guard u32(4) == keyBytes.count, Array(bytes[8..<8 + keyBytes.count]) == keyBytes else { return nil }
        let width = u32(8 + keyBytes.count), height = u32(12 + keyBytes.count)
        guard (1...maxSide).contains(width), (1...maxSide).contains(height),
            bytes.count == headerEnd + width * height * 4
        else { return nil }
        return Bitmap(
            width: width, height: height, bytesPerRow: width * 4, premultipliedRGBA: Array(bytes[headerEnd...]))
    }

    /// Writes to a temporary file and renames it into place, so readers never see half a file.
    static func write(_ bitmap: Bitmap, key: TransformCacheKey, to url: URL) {
        let keyBytes = Array(key.description.utf8)
        var out = magic
        out += le32(keyBytes.count) + keyBytes + le32(bitmap.width) + le32(bitmap.height)
        out += bitmap.packedRGBA()
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(UUID().uuidString).tmp")
        do {
            try Data(out).write(to: temporary)
            _ = try? FileManager.default.removeItem(at: url)
            try FileManager.default.moveItem(at: temporary, to: url)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
        }
    }

    static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
}
