import CPangoPeer
import SyncCore

/// Pango called directly on the same strings, with the same font, options and attributes TextLayout sets, reading
/// what a caller needs to size a bubble: the line count, each line's extents and baseline, the layout's height.
/// Nothing else: no offset tables, no clusters, no runs, no hit areas.
enum PangoPeer {
    static func layout(
        _ text: String, entities: [MessageTextEntity], width: Int
    ) -> (lines: Int, height: Int32, checksum: Int32) {
        let context = pango_font_map_create_context(pango_cairo_font_map_get_default())!
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        pango_context_set_round_glyph_positions(context, 0)
        pango_context_set_language(context, pango_language_from_string("en"))
        let layout = pango_layout_new(context)!
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        pango_layout_set_text(layout, text, -1)
        let description = pango_font_description_new()
        pango_font_description_set_family(description, "Noto Sans,Noto Sans Arabic,Noto Sans CJK SC")
        pango_font_description_set_absolute_size(description, 17 * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, description)
        pango_font_description_free(description)
        pango_layout_set_width(layout, Int32(width) * PANGO_SCALE)
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        let list = pango_attr_list_new()
        // Entities to byte offsets through the standard library's own index (breadcrumbs for UTF-16, O(1) UTF-8
        // distance on native strings); the bench's entities are all inside their texts.
        func byteOffset(_ offset: Int) -> UInt32 {
            let index = text.utf16.index(text.utf16.startIndex, offsetBy: min(offset, text.utf16.count))
            return UInt32(text.utf8.distance(from: text.utf8.startIndex, to: index))
        }
        for entity in entities {
            let attribute: UnsafeMutablePointer<PangoAttribute>?
            switch entity.type {
            case .bold: attribute = pango_attr_weight_new(PANGO_WEIGHT_BOLD)
            case .italic: attribute = pango_attr_style_new(PANGO_STYLE_ITALIC)
            case .code: attribute = pango_attr_family_new("Noto Sans Mono,Noto Sans Mono CJK SC")
            case .url, .mention, .hashtag: attribute = pango_attr_foreground_new(0x2424, 0x8181, 0xCCCC)
            default: attribute = nil
            }
            guard let attribute else { continue }
            attribute.pointee.start_index = byteOffset(entity.range.lowerBound)
            attribute.pointee.end_index = byteOffset(entity.range.upperBound)
            pango_attr_list_insert(list, attribute)
        }
        pango_layout_set_attributes(layout, list)
        pango_attr_list_unref(list)
        var lines = 0
        var sum: Int32 = 0
        let iterator = pango_layout_get_iter(layout)
        repeat {
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iterator, nil, &logical)
            sum &+= logical.width &+ pango_layout_iter_get_baseline(iterator)
            lines += 1
        } while pango_layout_iter_next_line(iterator) != 0
        pango_layout_iter_free(iterator)
        var extents = PangoRectangle()
        pango_layout_get_extents(layout, nil, &extents)
        return (lines, extents.height, sum)
    }
}
