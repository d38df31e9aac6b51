public import ChatHistory
public import Postbox
import TextLayout

/// One drawn screen of a chat as a command makes it: the pictures fetched, then the screen rendered — at the style's
/// height (scrolled to the bottom, as the chat opens), or with `fitAll` as tall as the whole window needs, so every
/// entry shows (Telegram's screen scrolled through in one image).
public struct ChatScreenSnapshot: Sendable {
    public let screen: RenderedChatScreen
    /// The pictures drawn, and why any is missing.
    public let media: ChatMedia

    /// Loads `entries`' pictures (and `chat`'s photo for the header) through `loader` (each wait at most `timeout`
    /// seconds) and draws them with `renderer`. With `fitAll`, the screen grows in height (never shrinks, at most `maxHeight` points) to hold
    /// every row.
    public static func make(
        _ entries: [ChatHistoryEntry], renderer: ChatScreenRenderer, loader: ChatMediaLoader, timeout: Double = 30,
        fitAll: Bool = false, maxHeight: Double = 4000, chat: (any Peer)? = nil
    ) async -> ChatScreenSnapshot {
        var media = await loader.load(entries, quality: .full, timeout: timeout)
        if let chat { media.avatar = await loader.avatar(of: chat, timeout: timeout) }
        var renderer = renderer
        if fitAll {
            renderer.style = fittedStyle(entries, renderer: renderer, media: media, maxHeight: maxHeight)
        }
        return ChatScreenSnapshot(screen: renderer.render(entries, media: media), media: media)
    }

    /// The style made tall enough that the history area holds all of `entries`' rows.
    static func fittedStyle(
        _ entries: [ChatHistoryEntry], renderer: ChatScreenRenderer, media: ChatMedia, maxHeight: Double
    ) -> ChatScreenStyle {
        var style = renderer.style
        let geometry = renderer.layout(entries, media: media).geometry
        let missing = geometry.contentHeight - geometry.historyArea.height
        guard missing > 0 else { return style }
        style.height = max(style.height, min(maxHeight, style.height + missing / style.scale + style.itemSpacing))
        return style
    }
}
