import CZlib

/// gzip and zlib-wrapped deflate over zlib, with a hard cap on the inflated size.
///
/// MTProto's `gzip_packed#3072cfa1` carries a gzip stream (RFC 1952); `.tgs` stickers are gzipped Lottie JSON.
/// Inflating untrusted data never produces more than `limit` bytes: a "zip bomb" fails with `.outputTooLarge`.
public enum GZip {
    /// Compresses `bytes` into a gzip stream (RFC 1952) at `level` (0–9, default 6).
    public static func compress(_ bytes: [UInt8], level: Int32 = 6) throws(GZipError) -> [UInt8] {
        var stream = z_stream()
        // windowBits 15 + 16 selects the gzip wrapper.
        let status = deflateInit2_(
            &stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
            Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw .zlib(status) }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(bytes.count)))
        var output = [UInt8](repeating: 0, count: bound)
        var input = bytes
        let result: Int32 = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard result == Z_STREAM_END else { throw .zlib(result) }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }

    /// Inflates a gzip (or, with `format: .zlib`, zlib) stream; fails when the output would exceed `limit` bytes,
    /// when the stream is corrupt, or when it ends early. Bytes after the end of the stream are ignored.
    public static func decompress(
        _ bytes: [UInt8], limit: Int, format: GZipFormat = .gzip
    ) throws(GZipError) -> [UInt8] {
        var stream = z_stream()
        let status = inflateInit2_(&stream, format.windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw .zlib(status) }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        // Grow the output as data arrives, never to more than the limit (plus one chunk to detect overflow).
        let chunk = 64 * 1024
        var scratch = [UInt8](repeating: 0, count: chunk)
        var input = bytes
        var finished = false
        var failure: GZipError?
        input.withUnsafeMutableBufferPointer { inBuffer in
            stream.next_in = inBuffer.baseAddress
            stream.avail_in = uInt(inBuffer.count)
            scratch.withUnsafeMutableBufferPointer { outBuffer in
                while true {
                    stream.next_out = outBuffer.baseAddress
                    stream.avail_out = uInt(chunk)
                    let result = inflate(&stream, Z_NO_FLUSH)
                    let produced = chunk - Int(stream.avail_out)
                    if output.count + produced > limit {
                        failure = .outputTooLarge(limit: limit)
                        return
                    }
                    output.append(contentsOf: outBuffer[0..<produced])
                    switch result {
                    case Z_STREAM_END:
                        finished = true
                        return
                    case Z_OK:
                        continue
                    case Z_BUF_ERROR:
                        // No progress possible: the input ended before the stream did.
                        if produced == 0 { failure = .truncated; return }
                    default:
                        failure = .zlib(result)
                        return
                    }
                }
            }
        }
        if let failure { throw failure }
        guard finished else { throw .truncated }
        return output
    }
}

/// The wrapper around a deflate stream.
public enum GZipFormat: Sendable {
    /// RFC 1952 gzip (MTProto `gzip_packed`, `.tgs`).
    case gzip
    /// RFC 1950 zlib.
    case zlib
    /// Either, detected from the header.
    case automatic

    var windowBits: Int32 {
        switch self {
        case .gzip: return 15 + 16
        case .zlib: return 15
        case .automatic: return 15 + 32
        }
    }
}

/// Why compression or inflation failed.
public enum GZipError: Error, Equatable, Sendable {
    /// Inflating would produce more than the caller's limit.
    case outputTooLarge(limit: Int)
    /// The stream ended before its end marker.
    case truncated
    /// zlib reported this status (corrupt data, bad header, out of memory).
    case zlib(Int32)
}
