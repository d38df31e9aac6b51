import AnimatedSticker
import ArgumentParser
import CommandLineOutput
import Foundation
import ImageCore
import WebPBinding

/// Opens a sticker file; anything unreadable or undecodable is a bad-input error naming the file.
func openSticker(_ path: String, side: Int?) throws -> StickerFile {
    let bytes = try readFile(path)
    return try ToolError.reading(
        path, remedy: "give a .tgs, Lottie .json, .webp or .webm (those two at most 512×512) or .png file"
    ) {
        try StickerFile(data: bytes, side: side)
    }
}

struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Describe a sticker: format, size, frames, Telegram limits.")
    @Argument(help: "A .tgs, Lottie .json, .webp, .webm or .png file.") var input: String

    func run() throws {
        let sticker = try openSticker(input, side: nil)
        print(input)
        for line in sticker.summary { print("  \(line)") }
    }
}

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Render every frame to PNG files in a folder.")
    @Argument(help: "A .tgs, Lottie .json, .webp or .webm file.") var input: String
    @Option(name: .long, help: "Output folder (created).") var out: String
    @Option(name: .long, help: "Side of the square frames in pixels (default: the canvas).") var size: Int?
    @Option(name: .long, help: "Frames per second to sample (default: every frame).") var fps: Double?

    func validate() throws {
        if let size, !(1...LottieFrameSource.maxSide).contains(size) { throw ValidationError("--size must be 1…2048") }
        if let fps, !(fps > 0 && fps <= 240) { throw ValidationError("--fps must be in (0, 240]") }
    }

    func run() throws {
        let sticker = try openSticker(input, side: size)
        let count = try renderFrames(sticker, fps: fps, into: out, input: input)
        print("\(input): \(count) frame(s) at \(sticker.size) → \(out)")
    }
}

/// Renders frames into `folder` as frame_0000.png…; all or nothing.
func renderFrames(_ sticker: StickerFile, fps: Double?, into folder: String, input: String) throws -> Int {
    var staged = try StagedFolder(directory: folder)
    do {
        for (n, index) in sticker.frameIndices(fps: fps).enumerated() {
            let frame = try ToolError.reading(input) { try sticker.frame(at: index) }
            try staged.write(PNGCodec.encode(frame), name: String(format: "frame_%04d.png", n))
        }
        try staged.commit()
    } catch {
        staged.discard()
        throw error
    }
    return staged.names.count
}

struct Thumb: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Write the first frame as a PNG thumbnail.")
    @Argument(help: "A .tgs, Lottie .json, .webp, .webm or .png file.") var input: String
    @Argument(help: "The PNG to write.") var output: String
    @Option(name: .long, help: "Side in pixels (default: the canvas).") var size: Int?

    func run() throws {
        let sticker = try openSticker(input, side: size)
        let frame = try ToolError.reading(input) { try sticker.frame(at: 0) }
        try writeAtomically(PNGCodec.encode(frame), to: output)
        print("\(input): thumbnail \(sticker.size) → \(output)")
    }
}

struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Convert an animated sticker to an animated WebP.")
    @Argument(help: "A .tgs, Lottie .json or .webm file.") var input: String
    @Argument(help: "The .webp to write.") var output: String
    @Option(name: .long, help: "Side in pixels (default: 512 or the canvas).") var size: Int?
    @Option(name: .long, help: "Frames per second (default: the sticker's rate, at most 30).") var fps: Double?
    @Option(name: .long, help: "Lossy quality 0…100.") var quality: Float = 80
    @Flag(name: .long, help: "Lossless WebP.") var lossless = false

    func run() throws {
        let sticker = try openSticker(input, side: size)
        let bytes = try ToolError.reading(input) {
            try sticker.animatedWebP(fps: fps, compression: lossless ? .lossless : .lossy(quality: quality))
        }
        try writeAtomically(bytes, to: output)
        print("\(input): animated WebP \(sticker.size), \(bytes.count) bytes → \(output)")
    }
}
