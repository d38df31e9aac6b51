public import Postbox
public import TextLayout

/// Where everything of a drawn chat screen is, in pixels from the image's top left: what the tests check instead of
/// whole golden images.
public struct ChatScreenGeometry: Sendable {
    /// The image's size.
    public var width: Int
    public var height: Int
    /// The area between the navigation bar and the input panel that items are drawn in.
    public var historyArea: CanvasRect
    /// The items drawn, top to bottom (those wholly outside the history area are left out).
    public var items: [ChatScreenItem]
    /// The height of every row with the spacing between them (all of the history, drawn or not).
    public var contentHeight: Double
    /// How far the history is scrolled up from the bottom.
    public var scrollOffset: Double
    /// The pinned-message bar, when the screen has one.
    public var pinnedBar: PinnedBarGeometry? = nil
    /// The subtitle under the title (a user's presence) and the colour it is drawn in, when there is one.
    public var subtitle: (frame: CanvasRect, color: CanvasColor)? = nil

    /// The largest scroll offset: the oldest row just under the navigation bar.
    public var maxScrollOffset: Double { max(0, contentHeight - historyArea.height) }
}

/// One drawn row.
public struct ChatScreenItem: Sendable {
    /// What the row shows.
    public enum Content: Hashable, Sendable {
        case dateHeader(day: Int32)
        case unread
        case loading
        /// A service message, centred.
        case service(MessageId)
        /// A bubble with one message or an album's messages.
        case bubble([MessageId])
        case sticker(MessageId)
        case largeEmoji(MessageId)
    }

    /// Which side the row is on.
    public enum Side: Hashable, Sendable {
        case incoming, outgoing, centre
    }

    public var content: Content
    public var side: Side
    /// The bubble's body (without its tail), the pill, the separator bar, the sticker's square.
    public var frame: CanvasRect
    /// The colour `frame` is filled with (over the background), when it is filled.
    public var fill: CanvasColor?
    /// Whether the bubble has its tail (the last bubble of a run from one author).
    public var hasTail: Bool
    /// The top left of the message text's layout box, and its line count.
    public var textOrigin: CanvasPoint?
    public var textLines: Int
    /// A forward's "Forwarded from NAME" line (one line, possibly shortened) and where it is drawn.
    public var forwardText: String?
    public var forwardOrigin: CanvasPoint?
    /// The reply header: its bar, where the author's name and the quoted text are drawn.
    public var reply: ReplyHeaderGeometry?
    /// Photo cells (one, or an album's grid), each with its message and what was drawn in it.
    public var mediaCells: [MediaCellGeometry]
    /// A voice note's waveform bars, left to right, and the colour they are drawn in.
    public var waveformBars: [CanvasRect]
    public var waveformColor: CanvasColor?
    /// Where the time is drawn.
    public var timeOrigin: CanvasPoint?
    /// Our message's status after the time (one check sent, two read, …) and the box its marks are drawn in; `nil`
    /// for incoming messages and a channel's posts.
    public var status: OutgoingStatus?
    public var statusFrame: CanvasRect?
    /// The name heading the bubble (a group member's, a channel's on its post), where and in which colour it is drawn.
    public var authorName: String?
    public var authorOrigin: CanvasPoint?
    public var authorColor: CanvasColor?
    /// The line with the time: a post's views and signature before it (`👁 1.2K  Ann  12:00`).
    public var timeText: String?
    /// The reactions under the message, left to right (`ReactionChips`); empty without any.
    public var reactions: [ReactionChipGeometry]

    init(content: Content, side: Side, frame: CanvasRect, fill: CanvasColor?) {
        self.content = content
        self.side = side
        self.frame = frame
        self.fill = fill
        hasTail = false
        textLines = 0
        mediaCells = []
        waveformBars = []
        reactions = []
    }
}

/// A reply header inside a bubble.
public struct ReplyHeaderGeometry: Sendable {
    public var bar: CanvasRect
    public var authorOrigin: CanvasPoint
    public var quoteOrigin: CanvasPoint
    /// The name and the (one-line, possibly shortened) quote drawn.
    public var author: String
    public var quote: String
}

/// One photo cell.
public struct MediaCellGeometry: Sendable {
    public var messageId: MessageId
    public var rect: CanvasRect
    /// What filled the cell.
    public var drawn: ChatPicture.Stage?
    /// A video's badge (duration, "GIF") and where its pill is.
    public var badge: VideoBadge?
    public var badgeFrame: CanvasRect?
}
