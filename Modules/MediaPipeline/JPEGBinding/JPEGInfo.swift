public import ImageCore

/// What a JPEG's header says, read without decompressing (`tjDecompressHeader3`).
public struct JPEGInfo: Sendable, Equatable {
    /// Width in pixels (the frame header's X).
    public let width: Int
    /// Height in pixels (the frame header's Y).
    public let height: Int
    /// How the chroma components are sampled.
    public let subsampling: JPEGSubsampling
    /// The colour space of the stored components.
    public let colorspace: JPEGColorspace
    /// How the stored pixels are turned for display (EXIF), `.up` without EXIF data.
    public let orientation: EXIFOrientation

    /// Width and height as displayed: swapped when the orientation turns the picture by 90°.
    public var displaySize: PixelSize {
        orientation.swapsSides ? PixelSize(width: height, height: width) : PixelSize(width: width, height: height)
    }
}

/// Chroma subsampling, as TurboJPEG names it (`TJSAMP_*`).
public enum JPEGSubsampling: Int32, Sendable, CaseIterable {
    /// No subsampling.
    case s444 = 0
    /// Chroma halved horizontally.
    case s422 = 1
    /// Chroma halved both ways: what cameras and Telegram's thumbnails use.
    case s420 = 2
    /// Luminance only.
    case gray = 3
    /// Chroma halved vertically.
    case s440 = 4
    /// Chroma quartered horizontally.
    case s411 = 5
}

/// The stored colour space, as TurboJPEG names it (`TJCS_*`).
public enum JPEGColorspace: Int32, Sendable, CaseIterable {
    case rgb = 0
    case yCbCr = 1
    case gray = 2
    /// Four components, stored inverted as Adobe Photoshop writes them.
    case cmyk = 3
    /// CMYK transformed like YCbCr (Adobe's APP14 transform 2).
    case ycck = 4
}
