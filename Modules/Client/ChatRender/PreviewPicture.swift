import Postbox
import SyncCore

/// A link preview's picture in a bubble (Telegram-iOS `ChatMessageAttachedContentNode`, sized as
/// `defaultWebpageImageSizeIsSmall` says): a "photo" page's (or a video's, an embed's…) as wide as the text column,
/// at its own aspect within 1:2 and 4:3 upright; an article's as a small square. Both sit under the preview's lines,
/// at the text's left edge; the time goes on its own line under them. Sizes are pixels.
struct PreviewPicture {
    let messageId: MessageId
    let large: Bool
    let width: Double
    let height: Double

    /// The side of an article's small square, in points (Telegram-iOS draws it at about this size).
    static let smallSide = 60.0

    /// The picture of `message`'s preview in a text column `textMax` wide, or `nil` when the page has none.
    init?(_ message: Message, textMax: Double, style: ChatScreenStyle) {
        guard let page = message.media.lazy.compactMap({ $0 as? TelegramMediaWebpage }).first, !page.isPending,
            let image = page.image
        else { return nil }
        messageId = message.id
        large = page.hasLargeImage
        if large {
            var aspect = 4.0 / 3.0
            if let size = image.largestRepresentation?.dimensions, size.width > 0, size.height > 0 {
                aspect = Double(size.width) / Double(size.height)
            }
            width = textMax
            height = (textMax / min(2, max(0.75, aspect))).rounded()
        } else {
            width = style.px(Self.smallSide)
            height = width
        }
    }
}
