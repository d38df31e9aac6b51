import ArgumentParser
import CommandLineOutput
import Foundation
import ImageCore
import WebPBinding

struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Describe a sticker: format, size, frames, Telegram limits.")
    @Argument(help: "A .tgs, Lottie .json, .webp or .png file.") var input: String

    func run() throws {
        let sticker = try StickerInput.open(input, size: nil)
        print(input)
        for line in sticker.summary { print("  \(line)") }
    }
}

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Render every frame to PNG files in a folder.")
    @Argument(help: "A .tgs, Lottie .json or .webp file.") var input: String
    @Option(name: .long, help: "Output folder (created).") var out: String
    @Option(name: .long, help: "Side of the square frames in pixels (default: the canvas).") var size: Int?
    @Option(name: .long, help: "Frames per second to sample (default: every frame).") var fps: Double?

    func validate() throws {
        if let size, !(1...2048).contains(size) { throw ValidationError("--size must be 1…2048") }
        if let fps, !(fps > 0 && fps <= 240) { throw ValidationError("--fps must be in (0, 240]") }
    }

    func run() throws {
        let sticker = try StickerInput.open(input, size: size)
        let count = try renderFrames(sticker, fps: fps, into: out)
        print("\(input): \(count) frame(s) at \(sticker.size) → \(out)")
    }
}

/// Renders frames into `folder` as frame_0000.png…; all or nothing.
func renderFrames(_ sticker: StickerInput, fps: Double?, into folder: String) throws -> Int {
    var staged = try StagedFiles(directory: folder)
    do {
        for (n, index) in sticker.indices(fps).enumerated() {
            try staged.write(PNGCodec.encode(try sticker.frame(index)), name: String(format: "frame_%04d.png", n))
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
    @Argument(help: "A .tgs, Lottie .json, .webp or .png file.") var input: String
    @Argument(help: "The PNG to write.") var output: String
    @Option(name: .long, help: "Side in pixels (default: the canvas).") var size: Int?

    func run() throws {
        let sticker = try StickerInput.open(input, size: size)
        try writeAtomically(PNGCodec.encode(try sticker.frame(0)), to: output)
        print("\(input): thumbnail \(sticker.size) → \(output)")
    }
}

struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Convert an animated sticker to an animated WebP.")
    @Argument(help: "A .tgs or Lottie .json file.") var input: String
    @Argument(help: "The .webp to write.") var output: String
    @Option(name: .long, help: "Side in pixels (default: 512 or the canvas).") var size: Int?
    @Option(name: .long, help: "Frames per second (default: the sticker's rate, at most 30).") var fps: Double?
    @Option(name: .long, help: "Lossy quality 0…100.") var quality: Float = 80
    @Flag(name: .long, help: "Lossless WebP.") var lossless = false

    func run() throws {
        let sticker = try StickerInput.open(input, size: size)
        let bytes = try animatedWebP(sticker, fps: fps, compression: lossless ? .lossless : .lossy(quality: quality))
        try writeAtomically(bytes, to: output)
        print("\(input): animated WebP \(sticker.size), \(bytes.count) bytes → \(output)")
    }
}

/// The sticker as an animated WebP at `fps` (default: its own rate capped at 30).
func animatedWebP(_ sticker: StickerInput, fps: Double?, compression: WebPCompression) throws -> [UInt8] {
    let rate = fps ?? min(30, sticker.frameRate > 0 ? sticker.frameRate : 30)
    let indices = sticker.indices(rate)
    let frames = try indices.map { try sticker.frame($0) }
    // Millisecond timestamps from exact times, so rounding does not drift over the loop.
    let times = (0...frames.count).map { Int((Double($0) * 1000 / rate).rounded()) }
    let durations = (0..<frames.count).map { times[$0 + 1] - times[$0] }
    return try WebPEncoder.encodeAnimation(frames, durations: durations, compression)
}
