import CZstd

/// Zstandard with reusable contexts: the frame cache's codec.
///
/// Telegram compresses cached frames with LZFSE (Apple's `Compression`, not on Linux). Zstandard is the Linux
/// equivalent in spirit and practice: like LZFSE an LZ77 coder with a finite-state-entropy (tANS) back end,
/// decoding 256×256 frames at 2–4 GB/s of output on one core here (media-bench), compressing frames and the XOR
/// deltas of mostly-still frames to a few percent, packaged in every distribution (libzstd). LZ4 decodes
/// faster but has no entropy stage, so it packs worse; zlib has one (Huffman) but decodes several times slower.
///
/// Not thread-safe: one compressor per thread (the contexts are mutable).
final class FrameCompressor {
    private let cctx: OpaquePointer
    private let dctx: OpaquePointer
    let level: Int32

    init(level: Int32 = 3) {
        cctx = ZSTD_createCCtx()
        dctx = ZSTD_createDCtx()
        self.level = level
        // A 32-bit xxHash per frame: a damaged cache file is an error, never a silently wrong frame.
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level)
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1)
    }

    deinit {
        ZSTD_freeCCtx(cctx)
        ZSTD_freeDCtx(dctx)
    }

    func compress(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: ZSTD_compressBound(bytes.count))
        let written = out.withUnsafeMutableBytes { target in
            bytes.withUnsafeBytes { ZSTD_compress2(cctx, target.baseAddress, target.count, $0.baseAddress, $0.count) }
        }
        precondition(ZSTD_isError(written) == 0, "zstd compress: \(String(cString: ZSTD_getErrorName(written)))")
        out.removeSubrange(written...)
        return out
    }

    /// Decompresses into `target`, which must come out exactly full; false on any error or size mismatch.
    func decompress(_ source: UnsafeRawBufferPointer, into target: UnsafeMutableRawBufferPointer) -> Bool {
        let written = ZSTD_decompressDCtx(dctx, target.baseAddress, target.count, source.baseAddress, source.count)
        return ZSTD_isError(written) == 0 && written == target.count
    }
}
