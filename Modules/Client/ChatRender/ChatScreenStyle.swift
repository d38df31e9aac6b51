public import TextLayout

/// The size, scale, metrics and colours of a drawn chat screen. Metrics are in points (Telegram-iOS's, roughly:
/// `ChatMessageBubbleItemNode`, `ChatMessageDateHeader`, the default "Day" theme) and drawn × `scale` pixels.
public struct ChatScreenStyle: Sendable {
    /// The screen in points; the image is `width × scale` by `height × scale` pixels.
    public var width: Double
    public var height: Double
    public var scale: Double

    // Metrics, points.
    public var navigationBarHeight = 56.0
    public var inputPanelHeight = 50.0
    /// From the screen's edge to a bubble's tail.
    public var sideMargin = 6.0
    public var tailWidth = 7.0
    /// The widest bubble, as a share of the screen's width.
    public var maxBubbleShare = 0.8
    public var bubblePadding = (horizontal: 11.0, vertical: 6.0)
    public var bubbleRadius = 16.0
    /// A corner that meets the author's next or previous bubble.
    public var mergedRadius = 6.0
    public var itemSpacing = 8.0
    public var mergedSpacing = 2.0
    public var textSize = 17.0
    public var timeSize = 12.0
    public var headerSize = 14.0
    public var replySize = 14.0
    /// A photo's (or an album's) inset from the bubble's edge.
    public var mediaInset = 2.0
    public var albumSpacing = 2.0
    public var stickerSide = 140.0
    public var largeEmojiSize = 50.0
    public var voiceButton = 42.0
    public var waveformBar = (width: 2.0, gap: 1.5, maxHeight: 22.0, minHeight: 2.0)

    // Colours.
    public var background = CanvasColor(rgb: 0xD3E2EC)
    public var incomingBubble = CanvasColor(rgb: 0xFFFFFF)
    public var outgoingBubble = CanvasColor(rgb: 0xE1FFC7)
    public var text = CanvasColor(rgb: 0x000000)
    public var incomingAccent = CanvasColor(rgb: 0x2481CC)
    public var outgoingAccent = CanvasColor(rgb: 0x3FAA3C)
    public var incomingTime = CanvasColor(rgb: 0x8D8E93)
    public var outgoingTime = CanvasColor(rgb: 0x3FAA3C)
    /// The disc of a message that failed to send (Telegram-iOS's day theme's destructive red).
    public var failedMark = CanvasColor(rgb: 0xFF3B30)
    /// Date headers, service messages and the time over a photo or sticker: white text on a translucent pill.
    public var pill = CanvasColor(rgb: 0x000000, alpha: 0.22)
    public var pillText = CanvasColor(rgb: 0xFFFFFF)
    public var unreadBar = CanvasColor(rgb: 0xFFFFFF, alpha: 0.85)
    public var unreadText = CanvasColor(rgb: 0x6D8596)
    public var bars = CanvasColor(rgb: 0xF7F7F7)
    public var barLine = CanvasColor(rgb: 0xC8C7CC)
    public var placeholder = CanvasColor(rgb: 0xB8C6D1)
    /// Reactions under a bubble (Telegram-iOS `ReactionButtonAsyncNode`): others' on a translucent chip, ours filled
    /// with the accent.
    public var reactionChip = CanvasColor(rgb: 0x000000, alpha: 0.12)
    public var reactionText = CanvasColor(rgb: 0x000000)
    public var reactionChosen = CanvasColor(rgb: 0x2481CC)
    public var reactionChosenText = CanvasColor(rgb: 0xFFFFFF)
    public var reactionSize = 14.0

    /// The chat header's avatar radius in points (Telegram-iOS draws a 37-point circle in the navigation bar).
    public static let headerAvatarRadius = 18.0

    /// A phone screen: 360 × 800 points at 3×, a 1080 × 2400 image.
    public static let phone = ChatScreenStyle(width: 360, height: 800, scale: 3)

    public init(width: Double, height: Double, scale: Double) {
        self.width = width
        self.height = height
        self.scale = scale
    }

    /// Points to pixels.
    @inline(__always) public func px(_ points: Double) -> Double { points * scale }
    /// The image's size in pixels.
    public var pixelWidth: Int { Int((width * scale).rounded()) }
    public var pixelHeight: Int { Int((height * scale).rounded()) }
    /// The widest bubble, pixels.
    var maxBubbleWidth: Double { px(width * maxBubbleShare) }
}
