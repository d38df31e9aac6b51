import Foundation
import Synchronization

/// WebM VP9 videos shaped like Telegram's video stickers, made on the spot by the `ffmpeg` command (libvpx-vp9,
/// `yuva420p`): a purple disc of radius `side × 0.3` on a transparent canvas, moving left and right once a second, so
/// the corners are transparent, the centre opaque and frames differ. Made once per set of arguments and process.
public enum WebMStickers {
    /// The disc's colour (straight RGB), as `ffmpeg`'s `color` source draws it.
    public static let discColor: (r: UInt8, g: UInt8, b: UInt8) = (0x7E, 0x3F, 0xD0)

    private static let made = Mutex<[String: [UInt8]]>([:])
    private static let folder = Tools.scratch("webm-stickers")

    /// A sticker of `width`×`height` at `fps` lasting `seconds`; with an alpha plane unless `alpha` is false, with a
    /// 440 Hz Opus track when `audio` is true. Traps when `ffmpeg` fails (run `make deps`).
    public static func make(
        width: Int = 512, height: Int = 512, fps: Int = 30, seconds: Double = 1, alpha: Bool = true,
        audio: Bool = false
    ) -> [UInt8] {
        let name = "disc-\(width)x\(height)-\(fps)-\(seconds)-\(alpha)-\(audio).webm"
        if let bytes = made.withLock({ $0[name] }) { return bytes }
        let radius = min(width, height) * 3 / 10
        let shape =
            "color=c=0x7E3FD0:s=\(width)x\(height):r=\(fps):d=\(seconds),format=yuva420p,"
            + "geq=lum='p(X,Y)':cb='p(X,Y)':cr='p(X,Y)':"
            + "a='if(lt(hypot(X-W/2-\(radius / 2)*sin(2*PI*T),Y-H/2),\(radius)),255,0)'"
        var arguments = ["-f", "lavfi", "-i", shape]
        if audio { arguments += ["-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds)", "-c:a", "libopus"] }
        arguments += [
            "-c:v", "libvpx-vp9", "-pix_fmt", alpha ? "yuva420p" : "yuv420p", "-b:v", "0", "-crf", "50",
            "-deadline", "good", "-cpu-used", "4", "-threads", "1",
        ]
        if !audio { arguments += ["-an"] }
        // A file of this call's own: two tests asking for the same sticker at once each run ffmpeg, and neither reads
        // a file the other is still writing.
        let url = folder.appendingPathComponent(UUID().uuidString + "-" + name)
        defer { try? FileManager.default.removeItem(at: url) }
        let status = try? Tools.run("ffmpeg", ["-v", "error", "-y"] + arguments + [url.path])
        precondition(status == 0, "ffmpeg could not make \(name) (run `make deps`)")
        let bytes = [UInt8](try! Data(contentsOf: url))
        made.withLock { $0[name] = bytes }
        return bytes
    }
}
