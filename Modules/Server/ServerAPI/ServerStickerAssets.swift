import GZip
import ImageCore
import WebPBinding

/// The stickers tg-server ships in its own set, "Telegraph" (`telegraph`): three animated stickers made from the
/// Lottie JSON below (gzip'ed into `.tgs`: 512×512, 60 fps, at most 3 s, as core.telegram.org "Animated stickers"
/// requires), two still WebP stickers drawn here (512×512) and a video sticker (WebM, VP9 with alpha:
/// `ServerVideoStickerAsset`). Telegram's sets mix formats since 2023 (the layer's `stickerSet` has no `animated` or
/// `videos` flag any more), so the video sticker is the set's sixth.
enum ServerStickerAssets {
    struct Sticker: Sendable {
        let emoji: String
        let fileName: String
        let mime: String
        let bytes: [UInt8]
        /// A video sticker's duration in seconds (its document carries `documentAttributeVideo`); nil otherwise.
        var videoDuration: Double? = nil
    }

    /// Every sticker of the set, in order; made once per process (drawing and encoding the WebP stickers is the
    /// slow part).
    static func all() throws -> [Sticker] { try made.get() }

    private static let made = Result { try make() }

    private static func make() throws -> [Sticker] {
        let animated = [("🔷", "spin.tgs", spin), ("🟠", "pulse.tgs", pulse), ("⚽", "bounce.tgs", bounce)].map {
            emoji, name, json in
            Sticker(
                emoji: emoji, fileName: name, mime: "application/x-tgsticker",
                bytes: GZip.compress(Array(json.utf8), level: 9))
        }
        let still = [
            Sticker(
                emoji: "🟢", fileName: "disc.webp", mime: "image/webp", bytes: try WebPEncoder.encode(disc(), .lossless)),
            Sticker(
                emoji: "🔶", fileName: "diamond.webp", mime: "image/webp",
                bytes: try WebPEncoder.encode(diamond(), .lossless)),
        ]
        let video = Sticker(
            emoji: "🟣", fileName: "disc.webm", mime: "video/webm", bytes: ServerVideoStickerAsset.webm,
            videoDuration: ServerVideoStickerAsset.duration)
        return animated + still + [video]
    }

    // MARK: - Still stickers

    /// A green disc on transparency.
    static func disc() -> Bitmap {
        draw { x, y in
            let dx = Double(x) - 255.5, dy = Double(y) - 255.5
            return dx * dx + dy * dy <= 200 * 200 ? RGBA(r: 40, g: 180, b: 90, a: 255) : nil
        }
    }

    /// An orange diamond on transparency.
    static func diamond() -> Bitmap {
        draw { x, y in abs(x - 256) + abs(y - 256) <= 220 ? RGBA(r: 245, g: 140, b: 30, a: 255) : nil }
    }

    private static func draw(_ color: (Int, Int) -> RGBA?) -> Bitmap {
        var rgba = [UInt8](repeating: 0, count: 512 * 512 * 4)
        for y in 0..<512 {
            for x in 0..<512 {
                guard let pixel = color(x, y) else { continue }
                let offset = (y * 512 + x) * 4
                rgba[offset] = pixel.r
                rgba[offset + 1] = pixel.g
                rgba[offset + 2] = pixel.b
                rgba[offset + 3] = pixel.a
            }
        }
        return Bitmap(width: 512, height: 512, straightRGBA: rgba) ?? Bitmap(width: 512, height: 512)
    }

    // MARK: - Animated stickers (Lottie JSON)

    /// A blue rounded square turning once in two seconds.
    static let spin = """
        {"v":"5.5.2","fr":60,"ip":0,"op":120,"w":512,"h":512,"nm":"spin","ddd":0,"assets":[],"layers":[{"ddd":0,"ind":1,\
        "ty":4,"nm":"square","sr":1,"ks":{"o":{"a":0,"k":100},"r":{"a":1,"k":[{"t":0,"s":[0],"e":[360],\
        "i":{"x":[0.5],"y":[0.5]},"o":{"x":[0.5],"y":[0.5]}},{"t":120}]},"p":{"a":0,"k":[256,256,0]},\
        "a":{"a":0,"k":[0,0,0]},"s":{"a":0,"k":[100,100,100]}},"ao":0,"shapes":[{"ty":"gr","nm":"g","it":[\
        {"ty":"rc","nm":"r","d":1,"s":{"a":0,"k":[260,260]},"p":{"a":0,"k":[0,0]},"r":{"a":0,"k":40}},\
        {"ty":"fl","nm":"f","c":{"a":0,"k":[0.16,0.45,0.9,1]},"o":{"a":0,"k":100},"r":1},\
        {"ty":"tr","p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},\
        "o":{"a":0,"k":100}}]}],"ip":0,"op":120,"st":0,"bm":0}]}
        """

    /// An orange circle growing and shrinking.
    static let pulse = """
        {"v":"5.5.2","fr":60,"ip":0,"op":90,"w":512,"h":512,"nm":"pulse","ddd":0,"assets":[],"layers":[{"ddd":0,"ind":1,\
        "ty":4,"nm":"circle","sr":1,"ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"p":{"a":0,"k":[256,256,0]},\
        "a":{"a":0,"k":[0,0,0]},"s":{"a":1,"k":[{"t":0,"s":[70,70,100],"e":[110,110,100],\
        "i":{"x":[0.5,0.5,0.5],"y":[1,1,1]},"o":{"x":[0.5,0.5,0.5],"y":[0,0,0]}},{"t":45,"s":[110,110,100],\
        "e":[70,70,100],"i":{"x":[0.5,0.5,0.5],"y":[1,1,1]},"o":{"x":[0.5,0.5,0.5],"y":[0,0,0]}},{"t":90}]}},\
        "ao":0,"shapes":[{"ty":"gr","nm":"g","it":[{"ty":"el","nm":"e","d":1,"s":{"a":0,"k":[300,300]},\
        "p":{"a":0,"k":[0,0]}},{"ty":"fl","nm":"f","c":{"a":0,"k":[0.96,0.55,0.12,1]},"o":{"a":0,"k":100},"r":1},\
        {"ty":"tr","p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},\
        "o":{"a":0,"k":100}}]}],"ip":0,"op":90,"st":0,"bm":0}]}
        """

    /// A ball dropping and bouncing back up.
    static let bounce = """
        {"v":"5.5.2","fr":60,"ip":0,"op":60,"w":512,"h":512,"nm":"bounce","ddd":0,"assets":[],"layers":[{"ddd":0,"ind":1,\
        "ty":4,"nm":"ball","sr":1,"ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"p":{"a":1,"k":[{"t":0,"s":[256,120,0],\
        "e":[256,392,0],"i":{"x":0.6,"y":1},"o":{"x":0.4,"y":0}},{"t":30,"s":[256,392,0],"e":[256,120,0],\
        "i":{"x":0.6,"y":1},"o":{"x":0.4,"y":0}},{"t":60}]},"a":{"a":0,"k":[0,0,0]},"s":{"a":0,"k":[100,100,100]}},\
        "ao":0,"shapes":[{"ty":"gr","nm":"g","it":[{"ty":"el","nm":"e","d":1,"s":{"a":0,"k":[200,200]},\
        "p":{"a":0,"k":[0,0]}},{"ty":"fl","nm":"f","c":{"a":0,"k":[0.2,0.2,0.2,1]},"o":{"a":0,"k":100},"r":1},\
        {"ty":"tr","p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},\
        "o":{"a":0,"k":100}}]}],"ip":0,"op":60,"st":0,"bm":0}]}
        """
}
