import ArgumentParser
import CommandLineOutput

/// `sticker-tool`: .tgs, .webp and .webm stickers to PNG frames, animated WebP and thumbnails, one file or a folder.
@main
struct StickerTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sticker-tool",
        abstract:
            "Render Telegram stickers (.tgs Lottie, .webp, .webm video) to PNG frames, animated WebP and thumbnails.",
        discussion: ToolExitCode.helpText,
        subcommands: [Info.self, Render.self, Thumb.self, Convert.self, Batch.self])

    static func main() { runAsTool() }
}
