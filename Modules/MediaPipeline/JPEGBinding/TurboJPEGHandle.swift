import CJPEGTurbo

/// One TurboJPEG instance (`tjhandle`), destroyed with its owner. Each call makes its own, so nothing is shared
/// between threads.
final class TurboJPEGHandle {
    let raw: tjhandle

    private init(_ raw: tjhandle) { self.raw = raw }

    static func decompressor() -> TurboJPEGHandle? { tjInitDecompress().map(TurboJPEGHandle.init) }
    static func compressor() -> TurboJPEGHandle? { tjInitCompress().map(TurboJPEGHandle.init) }

    deinit { tjDestroy(raw) }

    /// The last error's text (`tjGetErrorStr2`): libjpeg's message, never pixel data.
    var lastError: String {
        guard let text = tjGetErrorStr2(raw) else { return "unknown TurboJPEG error" }
        return String(cString: text)
    }
}
