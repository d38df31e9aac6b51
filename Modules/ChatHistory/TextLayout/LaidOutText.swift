public import SyncCore

/// A point in a layout's coordinates: pixels, origin at the top left of the box `width` pixels wide that the text
/// was laid out in, y growing down.
public struct TextPoint: Hashable, Sendable {
    /// Pixels from the left edge of the layout box.
    public var x: Double
    /// Pixels down from the top of the first line.
    public var y: Double
    /// A point at (`x`, `y`).
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A rectangle in a layout's coordinates (pixels; see `TextPoint`).
public struct TextRect: Hashable, Sendable {
    /// The left edge.
    public var x: Double
    /// The top edge.
    public var y: Double
    /// The width, never negative for rectangles made here.
    public var width: Double
    /// The height.
    public var height: Double
    /// A rectangle with its top left at (`x`, `y`).
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    /// The right edge.
    public var maxX: Double { x + width }
    /// The bottom edge.
    public var maxY: Double { y + height }
    /// Whether `point` is inside: the top and left edges are, the bottom and right edges are not.
    public func contains(_ point: TextPoint) -> Bool {
        point.x >= x && point.x < x + width && point.y >= y && point.y < y + height
    }
}

/// How an entity is drawn (Telegram-iOS `stringWithAppliedEntities` makes the same choices as attributed-string
/// attributes; here they are Pango attributes, `PangoAttrList`).
public struct TextStyle: OptionSet, Hashable, Sendable {
    /// The bits of the set.
    public let rawValue: Int
    /// A set from its bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// `pango_attr_weight_new(PANGO_WEIGHT_BOLD)`.
    public static let bold = TextStyle(rawValue: 1 << 0)
    /// `pango_attr_style_new(PANGO_STYLE_ITALIC)`.
    public static let italic = TextStyle(rawValue: 1 << 1)
    /// Code and pre: `pango_attr_family_new` with `TextLayout.monospaceFamilies`.
    public static let monospace = TextStyle(rawValue: 1 << 2)
    /// `pango_attr_strikethrough_new(TRUE)`.
    public static let strikethrough = TextStyle(rawValue: 1 << 3)
    /// `pango_attr_underline_new(PANGO_UNDERLINE_SINGLE)`.
    public static let underline = TextStyle(rawValue: 1 << 4)
    /// Tappable (URL, text URL, e-mail, mention, text mention, hashtag, cashtag, bot command, phone number, bank
    /// card): `pango_attr_foreground_new` with `TextLayout.linkColor`, and hit areas in `LaidOutText.hitAreas`.
    public static let link = TextStyle(rawValue: 1 << 5)
}

/// One entity as the layout applied it.
public struct StyledEntity: Hashable, Sendable {
    /// The entity as given.
    public var entity: MessageTextEntity
    /// Its range clamped to the text, in UTF-16 offsets, each edge moved to the start of its scalar.
    public var range: Range<Int>
    /// The styles applied (empty for entity types with no look of their own: spoiler, block quote, custom emoji).
    public var styles: TextStyle
}

/// Where a tappable entity is on screen: one rectangle per visual range per line it covers
/// (`pango_layout_line_get_x_ranges` across, the line's logical extents down).
public struct HitArea: Hashable, Sendable {
    /// The entity (as given) the rectangles belong to.
    public var entity: MessageTextEntity
    /// Its clamped UTF-16 range.
    public var range: Range<Int>
    /// One rectangle per visual piece, line by line from the top; the line's full height.
    public var rects: [TextRect]
}

/// Text laid out by `TextLayout.layout`: plain values, no Pango object behind them, safe to send anywhere.
///
/// Every offset is in UTF-16 code units of the text (Telegram's entity offsets), and every coordinate in pixels in
/// the layout's coordinates (`TextPoint`).
public struct LaidOutText: Hashable, Sendable {
    /// A shaped run of one font and direction within a line (a `PangoLayoutRun`).
    public struct Run: Hashable, Sendable {
        /// UTF-16 range of the run's characters.
        public var range: Range<Int>
        /// The number of glyphs HarfBuzz made (a ZWJ emoji sequence shaped by Noto Color Emoji is one).
        public var glyphCount: Int
        /// The family of the font fontconfig chose for the run (`pango_font_describe`).
        public var fontFamily: String
        /// The run's bidi embedding level is odd.
        public var isRightToLeft: Bool
    }

    /// One line (a `PangoLayoutLine`).
    public struct Line: Hashable, Sendable {
        /// UTF-16 range. Consecutive lines' ranges meet and together cover the whole text: a line owns the spaces
        /// it broke after and the paragraph separator that ends it (which Pango leaves out of every line).
        public var range: Range<Int>
        /// The logical extents (`pango_layout_iter_get_line_extents`).
        public var rect: TextRect
        /// The baseline's y (`pango_layout_iter_get_baseline`).
        public var baseline: Double
        /// The paragraph's direction is right to left (`PangoLayoutLine.resolved_dir`): Pango takes it from the
        /// paragraph's first strong character (`pango_layout_set_auto_dir`), and lays such lines out from the right.
        public var isRightToLeft: Bool
        /// The runs in visual order, left to right.
        public var runs: [Run]
    }

    /// A grapheme cluster and where its leading edge is. Clusters are Pango's cursor positions
    /// (`PangoLogAttr.is_cursor_position`: UAX #29 extended grapheme clusters, as a Swift `Character`; the tests check
    /// they agree on every script they lay out, "\r\n", ZWJ sequences, flags and skin tones included).
    public struct Cluster: Hashable, Sendable {
        /// UTF-16 range.
        public var range: Range<Int>
        /// Index into `lines` of the line that holds the cluster's start.
        public var line: Int
        /// The x of the cluster's leading edge, as `pango_layout_index_to_pos` gives it for the cluster's first
        /// byte: its left edge in left-to-right text, its right edge in right-to-left text. Read off the runs'
        /// glyphs, a glyph shared by several characters split evenly among them, remainder to the first, as
        /// `pango_glyph_item_get_logical_widths` splits it; `index_to_pos` splits such a ligature by cursor
        /// positions instead, so inside one (Arabic lam-alef) the two may differ by under 0.01 px.
        public var x: Double
        /// The signed advance from the leading edge, the sum of the cluster's characters' advances: negative for
        /// right-to-left clusters, 0 for the whitespace a line wrapped at (Pango gives it no width). When an entity's
        /// edge falls inside a cluster (between an emoji and its skin tone), Pango shapes the two sides as separate
        /// runs, and the advance covers both (`index_to_pos` gives only the first character's).
        public var advance: Double
    }

    /// The wrap width the text was laid out at, in pixels.
    public var width: Int
    /// The number of UTF-16 code units of the text.
    public var utf16Count: Int
    /// The logical extents of the whole layout (`pango_layout_get_extents`); `bounds.maxY` is the height.
    public var bounds: TextRect
    /// The lines from the top.
    public var lines: [Line]
    /// Every grapheme cluster of the text, in logical order; together they cover the text.
    public var clusters: [Cluster]
    /// The entities that fell inside the text, each with its clamped range and styles, in the order given.
    public var styledEntities: [StyledEntity]
    /// The tappable entities' hit areas, in the order given.
    public var hitAreas: [HitArea]

    /// The number of lines (at least 1: an empty text has one empty line, as in Pango).
    public var lineCount: Int { lines.count }

    /// The size of the laid-out text: the logical extents' width and height.
    public var size: (width: Double, height: Double) { (bounds.width, bounds.height) }

    /// The tappable entity under `point` (Telegram-iOS `TextNode.attributesAtPoint`), the last given when hit areas
    /// overlap; nil over plain text or outside.
    public func entity(at point: TextPoint) -> MessageTextEntity? {
        hitAreas.last { area in area.rects.contains { $0.contains(point) } }?.entity
    }
}
