import CPango

/// Carries out a `Canvas`'s steps with cairo on an ARGB32 image surface made and destroyed within one call.
enum CanvasRenderer {
    static func render(_ canvas: Canvas) -> CanvasPixels {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(canvas.width), Int32(canvas.height))!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        set(cr, canvas.background)
        cairo_paint(cr)
        for step in canvas.steps {
            cairo_save(cr)
            draw(step, cr)
            cairo_restore(cr)
        }
        cairo_surface_flush(surface)
        return CanvasPixels(surface: surface, width: canvas.width, height: canvas.height)
    }

    private static func set(_ cr: OpaquePointer, _ color: CanvasColor) {
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
    }

    private static func draw(_ step: CanvasStep, _ cr: OpaquePointer) {
        switch step {
        case .fill(let rect, let radii, let color):
            roundedRect(cr, rect, radii)
            set(cr, color)
            cairo_fill(cr)
        case .circle(let center, let radius, let color):
            cairo_new_sub_path(cr)
            cairo_arc(cr, center.x, center.y, max(0, radius), 0, 2 * Double.pi)
            set(cr, color)
            cairo_fill(cr)
        case .bubble(let rect, let radii, let tail, let tailWidth, let color):
            bubble(cr, rect, radii, tail, max(0, tailWidth), color)
        case .polygon(let points, let color):
            guard let first = points.first else { return }
            cairo_move_to(cr, first.x, first.y)
            for point in points.dropFirst() { cairo_line_to(cr, point.x, point.y) }
            cairo_close_path(cr)
            set(cr, color)
            cairo_fill(cr)
        case .line(let start, let end, let width, let color):
            cairo_set_line_width(cr, max(0, width))
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
            cairo_move_to(cr, start.x, start.y)
            cairo_line_to(cr, end.x, end.y)
            set(cr, color)
            cairo_stroke(cr)
        case .image(let image, let rect, let mode, let radii):
            drawImage(cr, image, rect, mode, radii)
        case .text(let text):
            drawText(cr, text)
        }
    }

    /// A rounded rectangle as the current path; each radius at most half the shorter side.
    private static func roundedRect(_ cr: OpaquePointer, _ r: CanvasRect, _ radii: CornerRadii) {
        guard r.width > 0, r.height > 0 else { return }
        let limit = min(r.width, r.height) / 2
        func clamp(_ value: Double) -> Double { min(max(0, value), limit) }
        let tl = clamp(radii.topLeft), tr = clamp(radii.topRight)
        let br = clamp(radii.bottomRight), bl = clamp(radii.bottomLeft)
        let half = Double.pi / 2
        cairo_new_sub_path(cr)
        cairo_arc(cr, r.maxX - tr, r.y + tr, tr, -half, 0)
        cairo_arc(cr, r.maxX - br, r.maxY - br, br, 0, half)
        cairo_arc(cr, r.x + bl, r.maxY - bl, bl, half, 2 * half)
        cairo_arc(cr, r.x + tl, r.y + tl, tl, 2 * half, 3 * half)
        cairo_close_path(cr)
    }

    /// A bubble: the rounded rectangle with its tail corner square, and the tail sweeping out of that side down to
    /// a point level with the bottom edge, `tailWidth` beyond the side (concave, like Telegram's). The two are filled
    /// one after the other: as one path, the left tail (drawn the other way round) would cancel the body where they
    /// overlap.
    private static func bubble(
        _ cr: OpaquePointer, _ r: CanvasRect, _ radii: CornerRadii, _ tail: BubbleTail, _ tailWidth: Double,
        _ color: CanvasColor
    ) {
        set(cr, color)
        guard tail != .none, r.width > 0, r.height > 0 else {
            roundedRect(cr, r, radii)
            cairo_fill(cr)
            return
        }
        var corners = radii
        if tail == .right { corners.bottomRight = 0 } else { corners.bottomLeft = 0 }
        roundedRect(cr, r, corners)
        cairo_fill(cr)
        let tailHeight = min(r.height * 0.6, tailWidth * 1.8)
        let side = tail == .right ? r.maxX : r.x
        let direction: Double = tail == .right ? 1 : -1
        cairo_move_to(cr, side - direction * 1, r.maxY - tailHeight)  // overlaps the body by a pixel: no seam
        cairo_line_to(cr, side, r.maxY - tailHeight)
        cairo_curve_to(
            cr, side, r.maxY - tailHeight * 0.35, side + direction * tailWidth * 0.4, r.maxY,
            side + direction * tailWidth, r.maxY)
        cairo_line_to(cr, side - direction * 1, r.maxY)
        cairo_close_path(cr)
        cairo_fill(cr)
    }

    /// The image scaled into `rect` (covering it or inside it), clipped to `rect` with rounded corners.
    private static func drawImage(
        _ cr: OpaquePointer, _ image: CanvasImage, _ rect: CanvasRect, _ mode: CanvasContentMode, _ radii: CornerRadii
    ) {
        guard rect.width > 0, rect.height > 0 else { return }
        // cairo's ARGB32 is premultiplied native-endian 32-bit words: B, G, R, A in memory on little-endian machines.
        var native = [UInt8](repeating: 0, count: image.width * image.height * 4)
        image.premultipliedRGBA.withUnsafeBufferPointer { source in
            native.withUnsafeMutableBufferPointer { target in
                for y in 0..<image.height {
                    var s = y * image.bytesPerRow
                    var t = y * image.width * 4
                    for _ in 0..<image.width {
                        let (r, g, b, a) = (source[s], source[s + 1], source[s + 2], source[s + 3])
                        let word = UInt32(a) << 24 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
                        withUnsafeBytes(of: word) { bytes in
                            for index in 0..<4 { target[t + index] = bytes[index] }
                        }
                        s += 4
                        t += 4
                    }
                }
            }
        }
        let scaleX = rect.width / Double(image.width), scaleY = rect.height / Double(image.height)
        let scale = mode == .fill ? max(scaleX, scaleY) : min(scaleX, scaleY)
        let drawnWidth = Double(image.width) * scale, drawnHeight = Double(image.height) * scale
        roundedRect(cr, rect, radii)
        cairo_clip(cr)
        // Fitted pictures leave bands: clip to the picture too (the pattern's padded edges would fill them).
        let left = rect.x + (rect.width - drawnWidth) / 2, top = rect.y + (rect.height - drawnHeight) / 2
        cairo_rectangle(cr, left, top, drawnWidth, drawnHeight)
        cairo_clip(cr)
        native.withUnsafeMutableBytes { bytes in
            let source = cairo_image_surface_create_for_data(
                bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(image.width),
                Int32(image.height), Int32(image.width * 4))
            defer { cairo_surface_destroy(source) }
            cairo_translate(cr, left, top)
            cairo_scale(cr, scale, scale)
            cairo_set_source_surface(cr, source, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
            cairo_paint(cr)
            cairo_set_source_rgba(cr, 0, 0, 0, 0)  // release the source surface before its bytes go
        }
    }

    /// The text laid out as `TextLayout.layout` does and shown by pango_cairo at its origin.
    private static func drawText(_ cr: OpaquePointer, _ text: CanvasText) {
        let offsets = TextOffsets(text.text)
        let styled = TextLayout.resolve(text.entities, offsets)
        let context = TextLayout.makeContext()
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        let layout = pango_layout_new(context)!
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let width = min(max(text.width, 1), Int(Int32.max / PANGO_SCALE))
        TextLayout.configure(
            layout, text: text.text, width: width, fontSize: text.fontSize, styled: styled, offsets: offsets)
        set(cr, text.color)
        cairo_move_to(cr, text.origin.x, text.origin.y)
        pango_cairo_show_layout(cr, layout)
    }
}
