public import SyncCore
import TextLayout

/// What a video's picture is marked with (Telegram-iOS `ChatMessageInteractiveMediaNode`: a video shows its
/// duration in a pill at the top left and a play button; a GIF shows "GIF"; a round video is drawn as a circle,
/// `ChatMessageInstantVideoItemNode`).
public struct VideoBadge: Equatable, Sendable {
    /// Which kind of video.
    public enum Kind: Equatable, Sendable { case video, round, gif }

    public let kind: Kind
    /// Whole seconds.
    public let seconds: Int

    /// The badge of `file`, nil when it is not a video.
    public init?(_ file: TelegramMediaFile) {
        var kind: Kind?
        var seconds = 0
        for attribute in file.attributes {
            switch attribute {
            case .video(let duration, _, let round, _, _):
                seconds = Int(duration.rounded())
                if kind != .gif { kind = round ? .round : .video }
            case .animated: kind = .gif
            default: continue
            }
        }
        guard let kind else { return nil }
        self.kind = kind
        self.seconds = seconds
    }

    /// `m:ss`.
    public var duration: String { "\(seconds / 60):" + (seconds % 60 < 10 ? "0" : "") + "\(seconds % 60)" }

    /// The pill's text: `▶ 0:02`, `GIF`, or the round video's duration.
    public var text: String {
        switch kind {
        case .video: return "▶ \(duration)"
        case .round: return "● \(duration)"
        case .gif: return "GIF"
        }
    }

    /// The terminal's label: `[▶ video 0:02 320×240]`, `[● round video 0:05]`, `[GIF 160×160]`.
    func terminalLabel(_ file: TelegramMediaFile) -> String {
        var size = ""
        for case .video(_, let dimensions, _, _, _) in file.attributes {
            size = " \(dimensions.width)×\(dimensions.height)"
        }
        switch kind {
        case .video: return "[▶ video \(duration)\(size)]"
        case .round: return "[● round video \(duration)]"
        case .gif: return "[GIF\(size)]"
        }
    }

    /// Draws the pill at the top left of `rect` and, for a video, a play button in its centre; returns the pill.
    func draw(_ canvas: inout Canvas, in rect: CanvasRect, style s: ChatScreenStyle) -> CanvasRect {
        let size = s.px(s.timeSize)
        let laid = TextLayout.layout(text, width: s.pixelWidth, fontSize: size)
        let width = laid.bounds.width + s.px(12), height = laid.bounds.height + s.px(4)
        let inset = kind == .round ? rect.width * 0.15 : s.px(6)
        let pill = CanvasRect(x: rect.x + inset, y: rect.y + inset, width: width, height: height)
        canvas.fill(pill, radii: .all(height / 2), color: CanvasColor(rgb: 0x000000, alpha: 0.5))
        canvas.drawText(
            text, width: s.pixelWidth, fontSize: size, at: CanvasPoint(x: pill.x + s.px(6), y: pill.y + s.px(2)),
            color: s.pillText)
        if kind == .video {
            let radius = min(s.px(22), min(rect.width, rect.height) / 4)
            let cx = rect.x + rect.width / 2, cy = rect.y + rect.height / 2
            canvas.fillCircle(
                center: CanvasPoint(x: cx, y: cy), radius: radius, color: CanvasColor(rgb: 0x000000, alpha: 0.5))
            let t = radius * 0.45
            canvas.fillPolygon(
                [
                    CanvasPoint(x: cx - t * 0.6, y: cy - t), CanvasPoint(x: cx + t * 0.95, y: cy),
                    CanvasPoint(x: cx - t * 0.6, y: cy + t),
                ],
                color: s.pillText)
        }
        return pill
    }
}
