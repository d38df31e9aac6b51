import ArgumentParser
import CommandLineOutput
import Foundation
import ImageCore
import WebPBinding

struct Batch: ParsableCommand {
    enum Mode: String, ExpressibleByArgument, CaseIterable { case thumb, render, webp }

    static let configuration = CommandConfiguration(
        abstract: "Process every sticker in a folder with a progress bar; corrupt files are reported and skipped.")
    @Argument(help: "A folder of .tgs / .json / .webp files.") var input: String
    @Option(name: .long, help: "Output folder.") var out: String
    @Option(name: .long, help: "thumb (PNG per file), render (a folder of PNG frames per file) or webp.") var mode:
        Mode = .thumb
    @Option(name: .long, help: "Side in pixels.") var size: Int?
    @Option(name: .long, help: "Frames per second for render and webp.") var fps: Double?

    func run() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: input)
            .filter { [".tgs", ".json", ".webp"].contains(where: $0.lowercased().hasSuffix) }.sorted()
        guard !names.isEmpty else { throw ToolError("\(input): no .tgs, .json or .webp files") }
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        var failures: [(String, String)] = []
        let start = Date()
        for (n, name) in names.enumerated() {
            progress(done: n, total: names.count, current: name)
            let path = (input as NSString).appendingPathComponent(name)
            let stem = (name as NSString).deletingPathExtension
            do {
                let sticker = try StickerInput.open(path, size: size)
                switch mode {
                case .thumb:
                    try writeAtomically(PNGCodec.encode(try sticker.frame(0)), to: "\(out)/\(stem).png")
                case .render:
                    _ = try renderFrames(sticker, fps: fps, into: "\(out)/\(stem)")
                case .webp:
                    try writeAtomically(
                        try animatedWebP(sticker, fps: fps, compression: .lossy(quality: 80)), to: "\(out)/\(stem).webp"
                    )
                }
            } catch {
                failures.append((name, "\(error)"))
            }
        }
        progress(done: names.count, total: names.count, current: "")
        printError("")
        let seconds = Date().timeIntervalSince(start)
        print(
            "processed \(names.count) file(s) in \(String(format: "%.2f", seconds)) s: "
                + "\(names.count - failures.count) ok, \(failures.count) failed")
        for (name, reason) in failures { print("  skipped \(name): \(reason)") }
        if failures.count == names.count { throw ExitCode(1) }
    }

    private func progress(done: Int, total: Int, current: String) {
        let width = 30
        let filled = total == 0 ? width : done * width / total
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        printError("\r[\(bar)] \(done)/\(total) \(current.prefix(40))\u{1B}[K", terminator: "")
    }
}
