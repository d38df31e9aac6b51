import BenchmarkSupport
import Foundation
import ImageCore
import WebPBinding

/// WebP decode: ours (libwebp into premultiplied RGBA) vs dwebp's own decode timer (`dwebp -v`) on the same file.
enum WebPBench {
    static func picture(_ side: Int) -> Bitmap {
        var straight = [UInt8]()
        straight.reserveCapacity(side * side * 4)
        var state: UInt64 = 1
        for y in 0..<side {
            for x in 0..<side {
                state = state &* 6_364_136_223_846_793_005 &+ 1
                let noise = UInt8(state >> 60)
                straight += [UInt8((x * 255) / side) &+ noise, UInt8((y * 255) / side), UInt8(((x ^ y) & 0xFF)), 255]
            }
        }
        return Bitmap(width: side, height: side, straightRGBA: straight)!
    }

    static func dwebpSeconds(_ path: String) throws -> Double {
        let output = try runTool("dwebp", ["-v", path, "-pam", "-o", "/dev/null"])
        guard let line = output.split(separator: "\n").first(where: { $0.contains("Time to decode picture") }),
            let value = Double(line.split(separator: ":").last!.trimmingCharacters(in: .whitespaces).dropLast())
        else { fatalError("unexpected dwebp output: \(output)") }
        return value
    }

    static func run(scratch: URL) throws {
        var rows: [Comparison] = []
        for (label, compression) in [("lossy q80", WebPCompression.lossy(quality: 80)), ("lossless", .lossless)] {
            let side = 1024
            let bytes = try WebPEncoder.encode(picture(side), compression)
            let path = scratch.appendingPathComponent("bench.webp").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let megapixels = Double(side * side) / 1e6
            // Alternate our decode and a dwebp run (its own decode timer); keep the fastest of each.
            var best = (ours: Double.infinity, peer: Double.infinity)
            blackHole(try WebPDecoder.decode(bytes))
            for _ in 0..<9 {
                let start = now()
                blackHole(try WebPDecoder.decode(bytes))
                best.ours = min(best.ours, now() - start)
                best.peer = min(best.peer, try dwebpSeconds(path))
            }
            let ours = Measurement(name: "ours", seconds: best.ours, items: megapixels, unit: "MP")
            let peer = Measurement(name: "dwebp", seconds: best.peer, items: megapixels, unit: "MP")
            rows.append(
                Comparison("1024² \(label) (\(bytes.count / 1024) KB)", ours: ours, peer: peer, goal: "≥ 0.95×"))
        }
        printTable(
            title: "WebP decode (megapixels/s; dwebp's own decode timer; alternating runs, fastest of 9)",
            peerName: "dwebp", rows)
    }
}
