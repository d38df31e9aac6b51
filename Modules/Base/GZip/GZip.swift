import CZlib

/// gzip (RFC 1952) and zlib (RFC 1950) streams over zlib: inflate with an output cap, deflate to either format.
///
/// Telegram gunzips `.tgs` stickers with `TGGUnzipData(data, 8 MB)` and TL `gzip_packed` payloads the same way; a
/// decompressor of untrusted bytes must stop at a cap instead of believing the stream, so `decompress` grows its
/// output in steps and fails with `GZipError.outputLimitExceeded` the moment the cap is passed.
public enum GZip {
    /// The container around a deflate stream.
    public enum Format: Sendable {
        /// RFC 1952: `1f 8b` header, CRC-32 and size trailer (what `.tgs` and `gzip_packed` use).
        case gzip
        /// RFC 1950: two-byte header, Adler-32 trailer (what PNG's IDAT uses).
        case zlib
    }

    /// Whether `bytes` start like a gzip stream (magic `1f 8b`, method 8).
    public static func isGZip(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 3 && bytes[0] == 0x1F && bytes[1] == 0x8B && bytes[2] == 8
    }

    /// Whether `bytes` start like a zlib stream (method 8, window ≤ 32 KB, header checksum divisible by 31).
    public static func isZlib(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 2 else { return false }
        let cmf = bytes[0], flg = bytes[1]
        return cmf & 0x0F == 8 && cmf >> 4 <= 7 && (UInt16(cmf) << 8 | UInt16(flg)) % 31 == 0
    }

    /// Inflates one gzip or zlib stream (detected from its header) into at most `maxOutput` bytes.
    ///
    /// Throws `GZipError.corrupt` for bad headers, bad deflate data, checksum mismatches and truncation,
    /// `GZipError.outputLimitExceeded` as soon as the output would pass `maxOutput`. Memory stays within
    /// `maxOutput` plus one growth step whatever the input claims.
    public static func decompress(_ bytes: [UInt8], maxOutput: Int) throws(GZipError) -> [UInt8] {
        guard maxOutput >= 0 else { throw .invalidArgument("maxOutput \(maxOutput) is negative") }
        guard !bytes.isEmpty else { throw .corrupt("empty input") }
        guard isGZip(bytes) || isZlib(bytes) else { throw .corrupt("neither a gzip nor a zlib header") }
        // 16 + MAX_WBITS: gzip only; MAX_WBITS: zlib only. The header was checked above, so pick exactly one.
        let windowBits: Int32 = isGZip(bytes) ? 15 + 16 : 15
        var stream = z_stream()
        let initStatus = inflateInit2_(&stream, windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard initStatus == Z_OK else { throw .zlib(code: initStatus, "inflateInit2 failed") }
        defer { inflateEnd(&stream) }

        var output = [UInt8]()
        var capacity = min(maxOutput, max(4096, bytes.count * 4))
        var produced = 0
        var status: Int32 = Z_OK
        var input = bytes
        try input.withUnsafeMutableBufferPointer { (inputBuffer) throws(GZipError) in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = uInt(inputBuffer.count)
            while true {
                if produced == capacity {
                    if capacity >= maxOutput {
                        // One probe byte tells "exactly at the cap" apart from "more than the cap".
                        var probe: UInt8 = 0
                        let more = withUnsafeMutablePointer(to: &probe) { pointer -> Int32 in
                            stream.next_out = pointer
                            stream.avail_out = 1
                            return inflate(&stream, Z_NO_FLUSH)
                        }
                        if more == Z_STREAM_END && stream.avail_out == 1 { status = Z_STREAM_END; break }
                        if stream.avail_out == 0 { throw .outputLimitExceeded(limit: maxOutput) }
                        status = more
                        if status != Z_OK { break }
                        continue
                    }
                    capacity = min(maxOutput, max(capacity * 2, 4096))
                }
                if output.count < capacity { output += [UInt8](repeating: 0, count: capacity - output.count) }
                status = output.withUnsafeMutableBufferPointer { out -> Int32 in
                    stream.next_out = out.baseAddress! + produced
                    stream.avail_out = uInt(capacity - produced)
                    let result = inflate(&stream, Z_NO_FLUSH)
                    produced = capacity - Int(stream.avail_out)
                    return result
                }
                if status == Z_STREAM_END { break }
                if status == Z_BUF_ERROR && stream.avail_in == 0 { throw .corrupt("truncated stream") }
                if status != Z_OK && status != Z_BUF_ERROR {
                    throw .corrupt(stream.msg.map { String(cString: $0) } ?? "inflate error \(status)")
                }
            }
        }
        if status != Z_STREAM_END {
            throw .corrupt(stream.msg.map { String(cString: $0) } ?? "inflate error \(status)")
        }
        output.removeSubrange(produced...)
        return output
    }

    /// Deflates `bytes` into one stream of `format` at `level` (0 = store … 9 = smallest; -1 = zlib's default, 6).
    public static func compress(_ bytes: [UInt8], level: Int = -1, format: Format = .gzip) -> [UInt8] {
        var stream = z_stream()
        let windowBits: Int32 = format == .gzip ? 15 + 16 : 15
        let clamped = Int32(max(-1, min(9, level)))
        let initStatus = deflateInit2_(
            &stream, clamped, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
            Int32(MemoryLayout<z_stream>.size))
        precondition(initStatus == Z_OK, "deflateInit2 failed with valid arguments: \(initStatus)")
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(bytes.count))) + 32
        var output = [UInt8](repeating: 0, count: bound)
        var input = bytes
        let written = input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { out -> Int in
                stream.next_in = inputBuffer.baseAddress
                stream.avail_in = uInt(inputBuffer.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                let status = deflate(&stream, Z_FINISH)
                precondition(status == Z_STREAM_END, "deflate into deflateBound bytes did not finish: \(status)")
                return out.count - Int(stream.avail_out)
            }
        }
        output.removeSubrange(written...)
        return output
    }
}
