import BenchmarkSupport
import Foundation
import ImageCore
import ImageTransform

/// 1,000 round 40×40 chat-list avatars from 640×640 PNG sources: cold (decode + fill + circle), from the memory
/// tier, from the disk tier.
enum AvatarBench {
    static func run(scratch: URL) throws {
        let count = 1_000
        // Ten distinct sources, each requested under 100 resource ids: every request is a cache miss when cold.
        let sources = (0..<10).map { k -> [UInt8] in
            var straight = [UInt8]()
            for y in 0..<640 {
                for x in 0..<640 { straight += [UInt8((x + k * 20) & 0xFF), UInt8(y & 0xFF), UInt8(k * 25), 255] }
            }
            return PNGCodec.encode(Bitmap(width: 640, height: 640, straightRGBA: straight)!)
        }
        let arguments = TransformArguments.roundAvatar(side: 40)
        let decoded = try sources.map { try PNGCodec.decode($0) }
        let transformOnly = measure("transform", items: Double(count), unit: "avatars", runs: 3) {
            for i in 0..<count { blackHole(try! ImageTransformer.apply(arguments, to: decoded[i % 10])) }
        }
        let cold = measure("cold", items: Double(count), unit: "avatars", runs: 3) {
            let pipeline = ImagePipeline(cache: TransformCache())
            for i in 0..<count {
                blackHole(try! pipeline.image(for: "user:\(i)", arguments: arguments) { sources[i % 10] })
            }
        }
        let warm = ImagePipeline(cache: TransformCache())
        for i in 0..<count { _ = try warm.image(for: "user:\(i)", arguments: arguments) { sources[i % 10] } }
        let memory = measure("memory", items: Double(count), unit: "avatars", runs: 5) {
            for i in 0..<count {
                blackHole(try! warm.image(for: "user:\(i)", arguments: arguments) { fatalError("miss") })
            }
        }
        let folder = scratch.appendingPathComponent("avatars")
        let diskWarm = ImagePipeline(cache: TransformCache(directory: folder))
        for i in 0..<count { _ = try diskWarm.image(for: "user:\(i)", arguments: arguments) { sources[i % 10] } }
        let disk = measure("disk", items: Double(count), unit: "avatars", runs: 5) {
            // A fresh memory tier each run: every hit comes from the files.
            let pipeline = ImagePipeline(cache: TransformCache(directory: folder))
            for i in 0..<count {
                blackHole(try! pipeline.image(for: "user:\(i)", arguments: arguments) { fatalError("miss") })
            }
        }
        printTable(
            title: "1,000 round 40×40 avatars from 640×640 PNG (avatars/s)", peerName: "cold pipeline",
            [
                Comparison("cold: PNG decode + fill + circle", ours: cold, peer: cold),
                Comparison("transform only (decoded source)", ours: transformOnly, peer: cold),
                Comparison("transform cache, memory tier", ours: memory, peer: cold),
                Comparison("transform cache, disk tier", ours: disk, peer: cold),
            ])
    }
}
