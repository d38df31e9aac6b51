import BenchmarkSupport
import Foundation
import ImageCore
import ImageTransform

/// Round 40×40 chat-list avatars from 640×640 PNG sources: the transform alone, the memory tier and the disk tier,
/// each against the cold pipeline (PNG decode + fill + circle, nothing cached) in interleaved rounds.
///
/// Same work, checked every round: each side keeps the avatars it produced and returns the checksum of all their
/// pixels (taken after its timer stops), so a tier that answered with another picture than the cold path would stop
/// the benchmark.
enum AvatarBench {
    static func run(scratch: URL) throws {
        // Ten distinct sources, each requested under `count / 10` resource ids: every request is a miss when cold.
        // A cold avatar costs milliseconds (libpng's decode of 640×640), so a round makes 100 (20 under bench-check).
        let count = BenchmarkMethod.isCheck ? 20 : 100
        let sources = (0..<10).map { k -> [UInt8] in
            var straight = [UInt8]()
            for y in 0..<640 {
                for x in 0..<640 { straight += [UInt8((x + k * 20) & 0xFF), UInt8(y & 0xFF), UInt8(k * 25), 255] }
            }
            return PNGCodec.encode(Bitmap(width: 640, height: 640, straightRGBA: straight)!)
        }
        let arguments = TransformArguments.roundAvatar(side: 40)
        let decoded = try sources.map { try PNGCodec.decode($0) }
        /// Times `make` for every avatar of a round; returns the checksum of all the avatars it made.
        func avatars(_ make: (Int) -> Bitmap) -> TimedRun<String> {
            var produced: [Bitmap] = []
            produced.reserveCapacity(count)
            return timed({ for i in 0..<count { produced.append(make(i)) } }) {
                "\(produced.count) avatars, pixels \(String(checksum(produced.flatMap(\.pixels)), radix: 16))"
            }
        }
        let cold = {
            let pipeline = ImagePipeline(cache: TransformCache())
            return avatars { i in try! pipeline.image(for: "user:\(i)", arguments: arguments) { sources[i % 10] } }
        }
        let warm = ImagePipeline(cache: TransformCache())
        for i in 0..<count { _ = try warm.image(for: "user:\(i)", arguments: arguments) { sources[i % 10] } }
        let folder = scratch.appendingPathComponent("avatars")
        let diskWarm = ImagePipeline(cache: TransformCache(directory: folder))
        for i in 0..<count { _ = try diskWarm.image(for: "user:\(i)", arguments: arguments) { sources[i % 10] } }
        let items = Double(count)
        let rows = [
            compareInterleaved(
                "transform only (decoded source)", items: items, unit: "avatars",
                oursTimed: { avatars { i in try! ImageTransformer.apply(arguments, to: decoded[i % 10]) } },
                peerTimed: cold),
            compareInterleaved(
                "transform cache, memory tier", items: items, unit: "avatars",
                oursTimed: {
                    avatars { i in try! warm.image(for: "user:\(i)", arguments: arguments) { fatalError("miss") } }
                }, peerTimed: cold),
            compareInterleaved(
                "transform cache, disk tier (a fresh memory tier each round)", items: items, unit: "avatars",
                oursTimed: {
                    let pipeline = ImagePipeline(cache: TransformCache(directory: folder))
                    return avatars { i in
                        try! pipeline.image(for: "user:\(i)", arguments: arguments) { fatalError("miss") }
                    }
                }, peerTimed: cold),
        ]
        printRows(
            "\(count) round 40×40 avatars from 640×640 PNG (avatars/s)",
            peerName: "cold pipeline: PNG decode + fill + circle", rows)
    }
}
