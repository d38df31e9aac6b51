public import ImageCore
public import Postbox
public import TextLayout

/// A picture ready to draw: a photo (its stripped thumbnail or the fetched size) or a sticker's first frame.
public struct ChatPicture: Sendable {
    /// Which picture of the media this is.
    public enum Stage: Hashable, Sendable {
        /// The photo's stripped thumbnail, blurred (MediaResources' `StrippedThumbnailImage`).
        case strippedThumbnail
        /// The fetched size, or a sticker's first frame.
        case full
    }

    public var image: CanvasImage
    public var stage: Stage

    public init(image: CanvasImage, stage: Stage) {
        self.image = image
        self.stage = stage
    }

    /// ImageCore's bitmap (premultiplied RGBA) as a canvas picture; nil when it is empty.
    public init?(_ bitmap: Bitmap, stage: Stage) {
        guard
            let image = CanvasImage(
                width: bitmap.width, height: bitmap.height, bytesPerRow: bitmap.bytesPerRow,
                premultipliedRGBA: bitmap.pixels)
        else { return nil }
        self.init(image: image, stage: stage)
    }
}

/// The pixels a screen's media needs, by message: what `ChatMediaLoader` fetched, or anything a caller has. A message
/// with no picture here is drawn as a placeholder (a photo cell's grey, a sticker's empty square).
public struct ChatMedia: Sendable {
    public var pictures: [MessageId: ChatPicture]
    /// Why a message's picture is missing (the fetch's or decoder's error), for reports.
    public var failures: [MessageId: String]
    /// The chat's round photo for the header (`nil`: its initial on a coloured circle, as Telegram draws a chat
    /// without a photo).
    public var avatar: ChatPicture?

    public init(
        pictures: [MessageId: ChatPicture] = [:], failures: [MessageId: String] = [:], avatar: ChatPicture? = nil
    ) {
        self.pictures = pictures
        self.failures = failures
        self.avatar = avatar
    }

    /// No pictures: every photo and sticker as a placeholder.
    public static let none = ChatMedia()
}
