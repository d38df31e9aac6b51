import BenchmarkSupport
import ChatConversationFixture
import ChatHistory
import ChatRender
import Foundation
import MediaResources
import TelegramCore

/// One 1080×2400 chat screen drawn to PNG: the conversation `ChatConversation` makes through an in-process tg-server
/// (two accounts; texts with entities, a reply, an album of three photos, a sticker, a voice note), read from the
/// receiving account's Postbox into history entries, its pictures fetched through MediaResources once, then timed —
/// layout and drawing (`ChatScreenRenderer.render`: TextLayout measures, cairo draws) apart from PNG encoding (cairo's
/// encoder over libpng). No peer: the figure is milliseconds per screen against a frame budget. `--png PATH` also
/// writes the screen (what `make chat-png` does, with `--runs 0`).
@main
enum ChatRenderBench {
    static func main() async throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.contains("--help") || arguments.contains("-h") {
            print(
                """
                usage: chatrender-bench [--png PATH] [--top-png PATH] [--runs N]
                  Makes a conversation through an in-process tg-server, draws the receiving account's chat as a
                  1080×2400 PNG screen and times layout + drawing and PNG encoding (median of N runs with min–max,
                  default 9).
                  --png PATH      also write the screen (scrolled to the bottom) to PATH
                  --top-png PATH  also write the screen scrolled to the top to PATH
                  --runs N        timed runs (0: only write the PNGs)
                exit codes: 0 ok, 1 failure, 2 usage
                """)
            return
        }
        var pngPath: String?, topPath: String?, runs = 9
        var index = 0
        while index < arguments.count {
            let value = index + 1 < arguments.count ? arguments[index + 1] : nil
            switch (arguments[index], value) {
            case ("--png", let path?): pngPath = path
            case ("--top-png", let path?): topPath = path
            case ("--runs", let count?) where Int(count).map({ $0 >= 0 }) == true: runs = Int(count) ?? runs
            default:
                FileHandle.standardError.write(
                    Data(
                        "chatrender-bench: error: unknown or incomplete argument '\(arguments[index])' — see --help\n"
                            .utf8))
                exit(2)
            }
            index += 2
        }

        registerTelegramCoreTypes()
        let conversation = try await ChatConversation.make(name: "chatrender-bench")
        do {
            try await run(conversation, pngPath: pngPath, topPath: topPath, runs: runs)
        } catch {
            await conversation.close()
            throw error
        }
        await conversation.close()
    }

    static func run(_ conversation: ChatConversation, pngPath: String?, topPath: String?, runs: Int) async throws {
        let entries = try await conversation.entries()
        let loader = ChatMediaLoader(
            images: ImageResources(account: conversation.ann), stickers: StickerResources(account: conversation.ann))
        let media = await loader.load(entries, quality: .full)
        guard media.failures.isEmpty else {
            throw RenderBenchFailure(description: "pictures missing: \(media.failures)")
        }
        let renderer = ChatScreenRenderer(
            accountPeerId: conversation.ann.peerId, names: conversation.names, title: "Bob")
        let screen = renderer.render(entries, media: media)
        for (path, offset) in [(pngPath, 0.0), (topPath, screen.geometry.maxScrollOffset)] {
            guard let path else { continue }
            let png = try renderer.render(entries, media: media, scrollOffset: offset).png()
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(png).write(to: URL(fileURLWithPath: path))
            print(
                "chatrender-bench: wrote \(path) (\(png.count) bytes, \(screen.geometry.width)×\(screen.geometry.height))"
            )
        }
        guard runs > 0 else { return }

        printMachine()
        let drawn = measure("layout + draw", items: 1, unit: "screens", runs: runs) {
            blackHole(renderer.render(entries, media: media))
        }
        let layoutOnly = measure("layout (steps, no pixels)", items: 1, unit: "screens", runs: runs) {
            blackHole(renderer.layout(entries, media: media))
        }
        var size = 0
        let encoded = measure("PNG encode", items: 1, unit: "screens", runs: runs) {
            size = (try? screen.png().count) ?? 0
        }
        /// The median of all runs with the fastest and slowest (BENCHMARKS.md, "Method"): none is dropped or chosen.
        func ms(_ measurement: BenchmarkSupport.Measurement) -> String {
            guard let range = measurement.range, measurement.runs > 1 else {
                return String(format: "%.1f ms", measurement.seconds * 1000)
            }
            return String(
                format: "%.1f ms (%.1f–%.1f)", measurement.seconds * 1000, range.lowerBound * 1000,
                range.upperBound * 1000)
        }
        let load =
            (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3)
            .joined(separator: " ") ?? "unknown"
        print(
            """

            | step (one 1080×2400 screen, \(screen.geometry.items.count) rows) | median of \(drawn.runs) runs (min–max) |
            |---|---:|
            | layout: TextLayout measures, rows placed, drawing steps recorded | \(ms(layoutOnly)) |
            | layout + draw: the steps carried out by cairo into ARGB32 pixels | \(ms(drawn)) |
            | PNG encode (cairo over libpng, \(size / 1024) KB) | \(ms(encoded)) |
            | total per screen (sum of the two medians) | \(String(format: "%.1f ms", (drawn.seconds + encoded.seconds) * 1000)) |

            load average at the end: \(load)
            """)
    }
}

/// A step of the benchmark that could not be carried out.
struct RenderBenchFailure: Error, CustomStringConvertible {
    let description: String
}
