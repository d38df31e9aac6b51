import CJPEGTurbo
public import ImageCore

/// JPEG decoding through libjpeg-turbo's TurboJPEG API into premultiplied RGBA (every pixel opaque).
///
/// Untrusted bytes never trap and never allocate from an unchecked size: the frame header is read first
/// (`tjDecompressHeader3`), its pixel count is checked against a cap, and only then is the bitmap allocated and the
/// scans decompressed (`tjDecompress2`). libjpeg's warnings (truncated data, damaged scans) are errors here
/// (`TJFLAG_STOPONWARNING`), and a progressive file with an unreasonable number of scans is refused
/// (`TJFLAG_LIMITSCANS`, libjpeg-turbo's defence against scan-count denial of service).
public enum JPEGDecoder {
    /// The most pixels `decode` ever allows by default (64 megapixels, 256 MB of RGBA).
    public static let defaultMaxPixels = 64 << 20
    /// Pixels any input may decode to by default, however small it is (4 megapixels, 16 MB of RGBA).
    public static let smallImagePixels = 4 << 20
    /// Pixels per input byte allowed by default above `smallImagePixels`. A Huffman-coded JPEG (baseline or
    /// progressive) spends at least one bit on the DC coefficient of every 8×8 block of its full-resolution
    /// component, so it cannot describe more than 512 pixels per byte; beyond twice that is arithmetic coding or a
    /// lie, and a caller who expects such a file passes `maxPixels`.
    public static let pixelsPerInputByte = 1024

    /// The pixel cap `decode` applies to an input of `inputSize` bytes when the caller gives none:
    /// `max(smallImagePixels, inputSize × pixelsPerInputByte)`, at most `defaultMaxPixels`.
    public static func defaultMaxPixels(inputSize: Int) -> Int {
        let (relative, overflow) = inputSize.multipliedReportingOverflow(by: pixelsPerInputByte)
        return min(defaultMaxPixels, max(smallImagePixels, overflow ? .max : relative))
    }

    /// Whether `bytes` start like a JPEG file (SOI followed by another marker: `FF D8 FF`).
    public static func isJPEG(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: [0xFF, 0xD8, 0xFF])
    }

    /// Reads dimensions, subsampling and colour space from the header, without decompressing.
    public static func info(_ bytes: [UInt8]) throws(JPEGError) -> JPEGInfo {
        guard let handle = TurboJPEGHandle.decompressor() else {
            throw .corrupt(stage: .header, reason: "TurboJPEG could not create a decompressor")
        }
        return try info(bytes, handle: handle)
    }

    /// Decodes a JPEG (baseline or progressive; gray, YCbCr, RGB, CMYK or YCCK) into an opaque premultiplied
    /// RGBA bitmap.
    ///
    /// `maxPixels` is the most pixels the caller accepts; without it the cap depends on the input's size
    /// (`defaultMaxPixels(inputSize:)`). Either way the header is checked before anything is allocated. With
    /// `applyingOrientation`, the pixels are turned as the EXIF orientation says (`JPEGInfo.displaySize`);
    /// without it they come out as stored.
    public static func decode(
        _ bytes: [UInt8], maxPixels: Int? = nil, applyingOrientation: Bool = false
    ) throws(JPEGError) -> Bitmap {
        guard let handle = TurboJPEGHandle.decompressor() else {
            throw .corrupt(stage: .header, reason: "TurboJPEG could not create a decompressor")
        }
        let header = try info(bytes, handle: handle)
        let limit = maxPixels ?? defaultMaxPixels(inputSize: bytes.count)
        // libjpeg caps each side at 65,500, so the product cannot overflow.
        guard header.width > 0, header.height > 0, header.width * header.height <= limit else {
            throw .tooLarge(width: header.width, height: header.height, limit: limit, inputSize: bytes.count)
        }
        let inkStored = header.colorspace == .cmyk || header.colorspace == .ycck
        // libjpeg cannot turn four ink components into RGB: read them as CMYK and convert below.
        let format = inkStored ? TJPF_CMYK : TJPF_RGBA
        var bitmap = Bitmap(width: header.width, height: header.height)
        let status = bitmap.pixels.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { input in
                tjDecompress2(
                    handle.raw, input.baseAddress, UInt(input.count), out.baseAddress, Int32(header.width),
                    Int32(header.width * 4), Int32(header.height), Int32(format.rawValue), decodeFlags)
            }
        }
        guard status == 0 else { throw .corrupt(stage: .pixels, reason: handle.lastError) }
        if inkStored { convertInvertedCMYKInPlace(&bitmap.pixels) }
        return applyingOrientation ? header.orientation.apply(to: bitmap) : bitmap
    }

    /// Warnings are errors; progressive files with an unreasonable number of scans are refused.
    static let decodeFlags = Int32(TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS)

    static func info(_ bytes: [UInt8], handle: TurboJPEGHandle) throws(JPEGError) -> JPEGInfo {
        guard !bytes.isEmpty else { throw .corrupt(stage: .header, reason: "no bytes") }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let status = bytes.withUnsafeBufferPointer { input in
            tjDecompressHeader3(
                handle.raw, input.baseAddress, UInt(input.count), &width, &height, &subsampling, &colorspace)
        }
        guard status == 0 else { throw .corrupt(stage: .header, reason: handle.lastError) }
        // TurboJPEG 2.x reports no warning here: data that ends before a frame header reads as 0×0.
        guard width > 0, height > 0 else {
            throw .corrupt(stage: .header, reason: "the data ends before a frame header (SOF) gives the size")
        }
        guard let sampling = JPEGSubsampling(rawValue: subsampling), let space = JPEGColorspace(rawValue: colorspace)
        else {
            throw .corrupt(
                stage: .header, reason: "unknown subsampling \(subsampling) or colour space \(colorspace)")
        }
        return JPEGInfo(
            width: Int(width), height: Int(height), subsampling: sampling, colorspace: space,
            orientation: EXIFOrientation.of(bytes))
    }

    /// Adobe-style CMYK (stored inverted: 255 is no ink) to opaque RGB, in place: `R = C × K / 255` and alike, the
    /// conversion libjpeg-turbo's own tools use (`cmyk.h`).
    static func convertInvertedCMYKInPlace(_ pixels: inout [UInt8]) {
        pixels.withUnsafeMutableBufferPointer { buffer in
            for i in stride(from: 0, to: buffer.count, by: 4) {
                let k = UInt32(buffer[i + 3])
                buffer[i] = Bitmap.multiply(buffer[i], k)
                buffer[i + 1] = Bitmap.multiply(buffer[i + 1], k)
                buffer[i + 2] = Bitmap.multiply(buffer[i + 2], k)
                buffer[i + 3] = 255
            }
        }
    }
}
