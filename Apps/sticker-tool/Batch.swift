import AnimatedSticker
import ArgumentParser
import CommandLineOutput
import Foundation
import ImageCore
import WebPBinding

struct Batch: ParsableCommand {
    enum Mode: String, ExpressibleByArgument, CaseIterable { case thumb, render, webp }

    static let configuration = CommandConfiguration(
        abstract: "Process every sticker in a folder; corrupt files are reported and skipped (exit status 3).")
    @Argument(help: "A folder of .tgs / .json / .webp / .webm files.") var input: String
    @Option(name: .long, help: "Output folder.") var out: String
    @Option(name: .long, help: "thumb (PNG per file), render (a folder of PNG frames per file) or webp.") var mode:
        Mode = .thumb
    @Option(name: .long, help: "Side in pixels.") var size: Int?
    @Option(name: .long, help: "Frames per second for render and webp.") var fps: Double?
    @Flag(name: .long, help: "Show progress on standard error even when it is not a terminal.") var progress = false

    func run() throws {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: input)
                .filter { [".tgs", ".json", ".webp", ".webm"].contains(where: $0.lowercased().hasSuffix) }.sorted()
        } catch {
            throw ToolError.badInput("cannot list \(input)", remedy: "give a folder of stickers")
        }
        guard !names.isEmpty else {
            throw ToolError.badInput(
                "\(input): no .tgs, .json, .webp or .webm files", remedy: "give a folder of stickers")
        }
        do { try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true) } catch {
            throw ToolError("cannot create \(out): \(error.localizedDescription)", remedy: "check its parent folder")
        }
        var failures: [(String, String)] = []
        let start = Date()
        let bar = ProgressLine(tool: StickerTool.toolName, total: names.count, mode: progress ? .always : .automatic)
        for (n, name) in names.enumerated() {
            bar.update(done: n, current: name)
            let path = (input as NSString).appendingPathComponent(name)
            let stem = (name as NSString).deletingPathExtension
            do {
                let sticker = try openSticker(path, side: size)
                switch mode {
                case .thumb:
                    let frame = try ToolError.reading(path) { try sticker.frame(at: 0) }
                    try writeAtomically(PNGCodec.encode(frame), to: "\(out)/\(stem).png")
                case .render:
                    _ = try renderFrames(sticker, fps: fps, into: "\(out)/\(stem)", input: path)
                case .webp:
                    let bytes = try ToolError.reading(path) {
                        try sticker.animatedWebP(fps: fps, compression: .lossy(quality: 80))
                    }
                    try writeAtomically(bytes, to: "\(out)/\(stem).webp")
                }
            } catch {
                failures.append((name, "\(error)"))
            }
        }
        bar.finish(done: names.count)
        let seconds = Date().timeIntervalSince(start)
        print(
            "processed \(names.count) file(s) in \(String(format: "%.2f", seconds)) s: "
                + "\(names.count - failures.count) ok, \(failures.count) failed")
        for (name, reason) in failures { print("  skipped \(name): \(reason)") }
        if failures.count == names.count {
            throw ToolError("no file in \(input) could be processed", remedy: "see the reasons above")
        }
        if !failures.isEmpty { throw ExitCode(ToolExitCode.partial.rawValue) }
    }
}
