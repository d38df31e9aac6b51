/// The box thumbnail types Telegram's servers make from an uploaded photo (core.telegram.org, "Uploading and
/// Downloading Files", image thumbnail types): each is the photo scaled down, aspect kept, to fit a square box.
public enum PhotoSizeType: String, Sendable, CaseIterable, Comparable {
    /// Box 100×100.
    case s
    /// Box 320×320.
    case m
    /// Box 800×800.
    case x
    /// Box 1280×1280.
    case y
    /// Box 2560×2560.
    case w

    /// The side of the square box the picture is scaled down to fit.
    public var box: Int {
        switch self {
        case .s: return 100
        case .m: return 320
        case .x: return 800
        case .y: return 1280
        case .w: return 2560
        }
    }

    public static func < (a: Self, b: Self) -> Bool { a.box < b.box }

    /// The types made for a picture of `size`, smallest first: `s` always; each larger type only when the picture
    /// is larger than the previous type's box (its longer side exceeds it), so the largest type made holds the
    /// whole picture or the biggest box it fills, and no two types are the same unscaled picture.
    public static func types(for size: (width: Int, height: Int)) -> [PhotoSizeType] {
        let long = max(size.width, size.height)
        var made: [PhotoSizeType] = []
        for type in allCases {
            if let previous = made.last, long <= previous.box { break }
            made.append(type)
        }
        return made
    }

    /// `size` scaled down (never up) to fit a `box` × `box` square, aspect kept, each side at least 1: the longer
    /// side becomes `box`, the shorter one is rounded to the nearest pixel.
    public static func fitted(_ size: (width: Int, height: Int), box: Int) -> (width: Int, height: Int) {
        let (w, h) = size
        guard w > box || h > box else { return size }
        if w >= h { return (box, max(1, (h * box + w / 2) / w)) }
        return (max(1, (w * box + h / 2) / h), box)
    }
}
