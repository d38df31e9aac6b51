import CPango
public import SyncCore

/// Message text laid out by Pango (shaping by HarfBuzz, bidi by FriBidi, fonts by fontconfig), the job Telegram-iOS
/// gives Core Text in `submodules/Display/Source/TextNode.swift` (`TextNode.calculateLayout`).
///
/// ```swift
/// let text = TextLayout.layout("Hello, @alice", entities: [.init(range: 7..<13, type: .mention)], width: 200)
/// text.lineCount                            // 1
/// text.entity(at: TextPoint(x: 70, y: 10))  // the mention, if that point is over it
/// ```
///
/// **Fonts.** The family is pinned, so a text lays out the same on every machine that ran `make deps`:
/// `TextLayout.families` (Noto Sans, then Noto Sans Arabic and Noto Sans CJK SC, found by fontconfig among the fonts
/// `fonts-noto-core` and `fonts-noto-cjk` install; emoji come from fontconfig's fallback, which finds Noto Color Emoji
/// from `fonts-noto-color-emoji`), code and pre in `TextLayout.monospaceFamilies`. Noto Color Emoji is left out of
/// the lists on purpose: named there, Pango 1.50 takes it for digits, `#`, `*` and the spaces next to them (keycap
/// bases, which it covers), so "18:10" came out in wide grey emoji digits; the language is pinned to English (not the process locale), hinting is off and
/// glyph positions are not rounded, so positions do not depend on the machine's fontconfig or cairo defaults.
///
/// **Threads.** Each call makes its own `PangoContext` and `PangoLayout` from the calling thread's cairo font map
/// (`pango_cairo_font_map_get_default`, one per thread since Pango 1.32, released when the thread ends), and frees them
/// before it returns: calls on different threads share no Pango object, and the results are plain `Sendable` values.
///
/// **Offsets.** Results count UTF-16 code units, like Telegram's entities; Pango's UTF-8 byte indices are converted
/// both ways through tables built once per call. Never traps: entity ranges outside the text are clamped to it (and
/// dropped when nothing is left), an edge inside a surrogate pair moves to the pair's start, U+0000 (which
/// `pango_layout_set_text` rejects) is laid out as a space, a width below 1 px counts as 1 px, and a font size that is
/// not a finite number from 1 to 1,000 px is clamped to that range (or 17 when not finite).
///
/// See https://docs.gtk.org/Pango/class.Layout.html and https://docs.gtk.org/Pango/struct.AttrList.html.
public enum TextLayout {
    /// The family list of message text (`pango_font_description_set_family` takes a comma-separated list): Noto Sans,
    /// and for what it lacks Noto Sans Arabic and Noto Sans CJK SC, before fontconfig's own fallback (Noto Color Emoji
    /// for emoji; not named, so digits stay in Noto Sans).
    public static let families = "Noto Sans,Noto Sans Arabic,Noto Sans CJK SC"
    /// The family list of code and pre entities.
    public static let monospaceFamilies = "Noto Sans Mono,Noto Sans Mono CJK SC"
    /// The colour of tappable entities, 0xRRGGBB (Telegram's default link blue).
    public static let linkColor: UInt32 = 0x2481CC
    /// Telegram-iOS's message font size, in pixels.
    public static let defaultFontSize: Double = 17

    /// Lays out `text` with `entities` (UTF-16 ranges, as in `TextEntitiesMessageAttribute`) wrapped at `width`
    /// pixels, words kept whole unless one is wider than a line (`PANGO_WRAP_WORD_CHAR`), in `fontSize` pixels.
    public static func layout(
        _ text: String, entities: [MessageTextEntity] = [], width: Int, fontSize: Double = defaultFontSize
    ) -> LaidOutText {
        let offsets = TextOffsets(text)
        let styled = resolve(entities, offsets)
        let context = makeContext()
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        let layout = pango_layout_new(context)!
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let clampedWidth = min(max(width, 1), Int(Int32.max / PANGO_SCALE))
        configure(layout, text: text, width: clampedWidth, fontSize: fontSize, styled: styled, offsets: offsets)
        return read(layout, width: clampedWidth, styled: styled, offsets: offsets)
    }

    /// A context on this thread's font map with the pinned language and font options.
    static func makeContext() -> OpaquePointer {
        let fontMap = pango_cairo_font_map_get_default()
        let context = pango_font_map_create_context(fontMap)!
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        pango_context_set_round_glyph_positions(context, 0)
        pango_context_set_language(context, pango_language_from_string("en"))
        return context
    }

    /// Text, font, width, wrapping and the entities' attributes.
    static func configure(
        _ layout: OpaquePointer, text: String, width: Int, fontSize: Double, styled: [StyledEntity],
        offsets: TextOffsets
    ) {
        // A native string is already NUL-terminated UTF-8: no copy unless it holds U+0000.
        let length = Int32(clamping: offsets.utf8Count)
        if text.utf8.contains(0) {
            var bytes = Array(text.utf8)
            for index in bytes.indices where bytes[index] == 0 { bytes[index] = 0x20 }
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { pango_layout_set_text(layout, $0.baseAddress, length) }
            }
        } else {
            text.withCString { pango_layout_set_text(layout, $0, length) }
        }
        let size = fontSize.isFinite ? min(max(fontSize, 1), 1000) : defaultFontSize
        let description = pango_font_description_new()
        pango_font_description_set_family(description, families)
        pango_font_description_set_absolute_size(description, size * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, description)
        pango_font_description_free(description)
        pango_layout_set_width(layout, Int32(width) * PANGO_SCALE)
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        pango_layout_set_auto_dir(layout, 1)
        guard !styled.isEmpty else { return }
        let list = pango_attr_list_new()
        for entity in styled where !entity.styles.isEmpty {
            let start = UInt32(clamping: offsets.utf8(atUTF16: entity.range.lowerBound))
            let end = UInt32(clamping: offsets.utf8(atUTF16: entity.range.upperBound))
            func insert(_ attribute: UnsafeMutablePointer<PangoAttribute>?) {
                guard let attribute else { return }
                attribute.pointee.start_index = start
                attribute.pointee.end_index = end
                pango_attr_list_insert(list, attribute)
            }
            if entity.styles.contains(.bold) { insert(pango_attr_weight_new(PANGO_WEIGHT_BOLD)) }
            if entity.styles.contains(.italic) { insert(pango_attr_style_new(PANGO_STYLE_ITALIC)) }
            if entity.styles.contains(.monospace) { insert(pango_attr_family_new(monospaceFamilies)) }
            if entity.styles.contains(.strikethrough) { insert(pango_attr_strikethrough_new(1)) }
            if entity.styles.contains(.underline) { insert(pango_attr_underline_new(PANGO_UNDERLINE_SINGLE)) }
            if entity.styles.contains(.link) {
                let channel = { (shift: UInt32) in UInt16((linkColor >> shift) & 0xFF) * 257 }
                insert(pango_attr_foreground_new(channel(16), channel(8), channel(0)))
            }
        }
        pango_layout_set_attributes(layout, list)
        pango_attr_list_unref(list)
    }

    /// Pango units to pixels.
    @inline(__always) static func pixels(_ units: Int32) -> Double { Double(units) / Double(PANGO_SCALE) }

    static func rect(_ rect: PangoRectangle) -> TextRect {
        TextRect(x: pixels(rect.x), y: pixels(rect.y), width: pixels(rect.width), height: pixels(rect.height))
    }

    /// Lines, runs, clusters and hit areas out of a laid-out `PangoLayout`.
    static func read(
        _ layout: OpaquePointer, width: Int, styled: [StyledEntity], offsets: TextOffsets
    ) -> LaidOutText {
        let tappable = styled.filter { $0.styles.contains(.link) }
        var areas = tappable.map { HitArea(entity: $0.entity, range: $0.range, rects: []) }
        var lines: [LaidOutText.Line] = []
        var lineStarts: [Int] = []  // UTF-8 start of each line
        var positions = Positions(layout: layout, utf8Count: offsets.utf8Count)
        let iterator = pango_layout_get_iter(layout)
        defer { pango_layout_iter_free(iterator) }
        repeat {
            guard let line = pango_layout_iter_get_line_readonly(iterator) else { break }
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iterator, nil, &logical)
            let baseline = pixels(pango_layout_iter_get_baseline(iterator))
            let start = Int(line.pointee.start_index)
            let end = start + Int(line.pointee.length)
            let lineRect = rect(logical)
            for (index, entity) in tappable.enumerated() {
                let entityStart = offsets.utf8(atUTF16: entity.range.lowerBound)
                let entityEnd = offsets.utf8(atUTF16: entity.range.upperBound)
                let from = max(entityStart, start)
                let to = min(entityEnd, end)
                guard from < to else { continue }
                var ranges: UnsafeMutablePointer<Int32>?
                var count: Int32 = 0
                pango_layout_line_get_x_ranges(line, Int32(clamping: from), Int32(clamping: to), &ranges, &count)
                if let ranges {
                    for pair in 0..<Int(count) {
                        let x0 = pixels(ranges[2 * pair])
                        let x1 = pixels(ranges[2 * pair + 1])
                        areas[index].rects.append(
                            TextRect(x: x0, y: lineRect.y, width: x1 - x0, height: lineRect.height))
                    }
                    g_free(ranges)
                }
            }
            lines.append(
                LaidOutText.Line(
                    range: offsets.utf16(atUTF8: start)..<offsets.utf16(atUTF8: end), rect: lineRect,
                    baseline: baseline, isRightToLeft: line.pointee.resolved_dir == PANGO_DIRECTION_RTL.rawValue,
                    runs: positions.walk(line, from: logical.x, offsets)))
            lineStarts.append(start)
        } while pango_layout_iter_next_line(iterator) != 0

        // Lines meet and cover the text: each ends where the next begins (the last at the end).
        for index in lines.indices {
            let upper = index + 1 < lines.count ? lines[index + 1].range.lowerBound : offsets.utf16Count
            let lower = index == 0 ? 0 : lines[index].range.lowerBound
            lines[index].range = lower..<max(lower, upper)
        }

        // Grapheme clusters are Pango's cursor positions (`PangoLogAttr.is_cursor_position`, UAX #29 extended
        // grapheme clusters, which Pango computed while laying out): a walk over bytes, no grapheme breaking here.
        var starts: [Int] = []
        var attributeCount: Int32 = 0
        if let attributes = pango_layout_get_log_attrs_readonly(layout, &attributeCount) {
            starts.reserveCapacity(Int(attributeCount))
            let bytes = positions.text
            var byte = 0
            for index in 0..<Int(attributeCount) where byte < offsets.utf8Count {
                if index == 0 || attributes[index].is_cursor_position != 0 { starts.append(byte) }
                byte += Positions.scalarLength(bytes[byte])
            }
        }
        var clusters: [LaidOutText.Cluster] = []
        clusters.reserveCapacity(starts.count)
        var lineIndex = 0
        for (index, utf8) in starts.enumerated() {
            let next = index + 1 < starts.count ? starts[index + 1] : offsets.utf8Count
            let count8 = next - utf8
            let utf16 = offsets.utf16(atUTF8: utf8)
            let count16 = offsets.utf16(atUTF8: next) - utf16
            while lineIndex + 1 < lineStarts.count && lineStarts[lineIndex + 1] <= utf8 { lineIndex += 1 }
            var x = positions.x[utf8]
            var advance = 0.0
            for byte in utf8..<(utf8 + count8) { advance += positions.advance[byte] }
            if x.isNaN {  // in no run: a paragraph separator
                var position = PangoRectangle()
                pango_layout_index_to_pos(layout, Int32(clamping: utf8), &position)
                x = pixels(position.x)
                advance = pixels(position.width)
            }
            clusters.append(
                LaidOutText.Cluster(range: utf16..<(utf16 + count16), line: lineIndex, x: x, advance: advance))
        }

        var extents = PangoRectangle()
        pango_layout_get_extents(layout, nil, &extents)
        return LaidOutText(
            width: width, utf16Count: offsets.utf16Count, bounds: rect(extents), lines: lines, clusters: clusters,
            styledEntities: styled, hitAreas: areas.filter { !$0.rects.isEmpty })
    }

}

/// The leading edge and signed advance of every character, read off the runs' glyph strings in one walk: what
/// `pango_layout_index_to_pos` gives for a character, without its walk from the line's start on every call (and
/// without `pango_glyph_item_get_logical_widths`'s UTF-8 counting per cluster).
struct Positions {
    /// The leading edge's x at each character's first byte, in pixels; NaN where no run holds the byte.
    var x: [Double]
    /// The signed advance at each character's first byte (negative right to left), 0 elsewhere.
    var advance: [Double]
    /// The layout's copy of the text (`pango_layout_get_text`).
    let text: UnsafePointer<CChar>
    /// The families of the fonts met so far, by font.
    private var families: [UnsafeMutableRawPointer: String] = [:]

    init(layout: OpaquePointer, utf8Count: Int) {
        x = Array(repeating: .nan, count: utf8Count + 1)
        advance = Array(repeating: 0, count: utf8Count + 1)
        text = pango_layout_get_text(layout)
    }

    /// A line's runs in visual order (the `runs` list of `PangoLayoutLine`), recording its characters' positions;
    /// `lineX` is the line's left edge in Pango units.
    mutating func walk(
        _ line: UnsafeMutablePointer<PangoLayoutLine>, from lineX: Int32, _ offsets: TextOffsets
    ) -> [LaidOutText.Run] {
        var result: [LaidOutText.Run] = []
        var runX = lineX
        var node = line.pointee.runs
        while let current = node {
            defer { node = current.pointee.next }
            guard let run = current.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self),
                let item = run.pointee.item
            else { continue }
            let start = Int(item.pointee.offset)
            let end = start + Int(item.pointee.length)
            let isRightToLeft = item.pointee.analysis.level % 2 == 1
            let runWidth = place(
                run, start: start, end: min(end, offsets.utf8Count), isRightToLeft: isRightToLeft, at: runX)
            runX &+= runWidth
            result.append(
                LaidOutText.Run(
                    range: offsets.utf16(atUTF8: start)..<offsets.utf16(atUTF8: end),
                    glyphCount: Int(run.pointee.glyphs?.pointee.num_glyphs ?? 0),
                    fontFamily: family(of: item.pointee.analysis.font), isRightToLeft: isRightToLeft))
        }
        return result
    }

    /// Records the leading edge and advance of each character of `run` (bytes `start..<end`), whose left edge is at
    /// `runX`, and returns the run's width (Pango units). HarfBuzz's clusters are monotonic (Pango shapes with the
    /// default cluster level), so a glyph cluster's characters run from its `log_clusters` value to the next
    /// cluster's in logical order. A cluster's width is split evenly among its characters, the remainder to the
    /// first, exactly as `pango_glyph_item_get_logical_widths` and `pango_layout_index_to_pos` split it.
    private mutating func place(
        _ run: UnsafeMutablePointer<PangoGlyphItem>, start: Int, end: Int, isRightToLeft: Bool, at runX: Int32
    ) -> Int32 {
        guard let glyphs = run.pointee.glyphs, let infos = glyphs.pointee.glyphs,
            let logClusters = glyphs.pointee.log_clusters
        else { return 0 }
        let count = Int(glyphs.pointee.num_glyphs)
        let text = self.text
        return x.withUnsafeMutableBufferPointer { x in
            advance.withUnsafeMutableBufferPointer { advance in
                Self.place(
                    infos: infos, logClusters: logClusters, count: count, text: text, start: start, end: end,
                    isRightToLeft: isRightToLeft, at: runX, x: x, advance: advance)
            }
        }
    }

    private static func place(
        infos: UnsafeMutablePointer<PangoGlyphInfo>, logClusters: UnsafeMutablePointer<Int32>, count: Int,
        text: UnsafePointer<CChar>, start: Int, end: Int, isRightToLeft: Bool, at runX: Int32,
        x: UnsafeMutableBufferPointer<Double>, advance: UnsafeMutableBufferPointer<Double>
    ) -> Int32 {
        var clusterX = runX
        var index = 0
        while index < count {
            let cluster = logClusters[index]
            var width: Int32 = 0
            var next = index
            while next < count && logClusters[next] == cluster {
                width &+= infos[next].geometry.width
                next += 1
            }
            // The cluster's bytes: to the next cluster in logical order (right in LTR, left in RTL) or the run's end.
            let clusterStart = start + Int(cluster)
            let following =
                isRightToLeft ? (index > 0 ? logClusters[index - 1] : nil) : (next < count ? logClusters[next] : nil)
            let clusterEnd = following.map { start + Int($0) } ?? end
            if clusterStart >= start && clusterStart < clusterEnd && clusterEnd <= end {
                var characters = 0
                var byte = clusterStart
                while byte < clusterEnd {
                    characters += 1
                    byte += Self.scalarLength(text[byte])
                }
                let share = width / Int32(clamping: characters)
                let first = width &- share &* Int32(clamping: characters - 1)
                var prefix: Int32 = 0
                byte = clusterStart
                while byte < clusterEnd {
                    let own = byte == clusterStart ? first : share
                    x[byte] = TextLayout.pixels(isRightToLeft ? clusterX &+ width &- prefix : clusterX &+ prefix)
                    advance[byte] = TextLayout.pixels(isRightToLeft ? 0 &- own : own)
                    prefix &+= own
                    byte += Self.scalarLength(text[byte])
                }
            }
            clusterX &+= width
            index = next
        }
        return clusterX &- runX
    }

    /// The length of the UTF-8 scalar whose lead byte is `lead`.
    @inline(__always) static func scalarLength(_ lead: CChar) -> Int {
        let byte = UInt8(bitPattern: lead)
        return byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
    }

    private mutating func family(of font: UnsafeMutablePointer<PangoFont>?) -> String {
        guard let font else { return "" }
        if let known = families[UnsafeMutableRawPointer(font)] { return known }
        var family = ""
        if let description = pango_font_describe(font) {
            if let name = pango_font_description_get_family(description) { family = String(cString: name) }
            pango_font_description_free(description)
        }
        families[UnsafeMutableRawPointer(font)] = family
        return family
    }
}
