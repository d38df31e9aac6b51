import BenchmarkSupport
import Foundation
import ImageCore
import WebPBinding

/// WebP decode: ours (libwebp into premultiplied RGBA) vs dwebp's own decode timer (`dwebp -v`) on the same file.
///
/// Same work, checked every round: dwebp writes its picture to a scratch PAM file (straight RGBA; the writing is
/// outside its timer), and our bitmap is turned back into straight RGBA after our timer stops; each side returns the
/// picture's size and the checksum of its pixels. The test picture is opaque, so premultiplied and straight RGBA are
/// the same bytes, and both decoders are the same libwebp with its default (fancy) upsampling.
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

    /// One `dwebp -v FILE -pam -o OUT` run: its own decode time, and the picture it wrote.
    static func dwebp(_ path: String, output: String) -> TimedRun<String> {
        let log = try! runTool("dwebp", ["-v", path, "-pam", "-o", output])
        guard let line = log.split(separator: "\n").first(where: { $0.contains("Time to decode picture") }),
            let seconds = Double(line.split(separator: ":").last!.trimmingCharacters(in: .whitespaces).dropLast())
        else { fatalError("unexpected dwebp output: \(log)") }
        return TimedRun(
            seconds: seconds, output: pamPicture(try! [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))))
    }

    /// "W×H, pixels CHECKSUM" of a PAM file (dwebp's RGB_ALPHA output: a text header, then straight RGBA rows).
    static func pamPicture(_ bytes: [UInt8]) -> String {
        guard let end = bytes.firstRange(of: Array("ENDHDR\n".utf8)) else { return "no PAM header" }
        let header = String(decoding: bytes[..<end.lowerBound], as: UTF8.self)
        var fields: [String: String] = [:]
        for line in header.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        let pixels = Array(bytes[end.upperBound...])
        return "\(fields["WIDTH"] ?? "?")×\(fields["HEIGHT"] ?? "?") \(fields["TUPLTYPE"] ?? "?"), "
            + "pixels \(String(checksum(pixels), radix: 16))"
    }

    /// The same description of our decoded bitmap, as straight RGBA.
    static func ourPicture(_ bitmap: Bitmap) -> String {
        "\(bitmap.width)×\(bitmap.height) RGB_ALPHA, pixels \(String(checksum(bitmap.straightRGBA()), radix: 16))"
    }

    static func run(scratch: URL) throws {
        var rows: [Comparison] = []
        for (label, compression) in [("lossy q80", WebPCompression.lossy(quality: 80)), ("lossless", .lossless)] {
            let side = 1024
            let bytes = try WebPEncoder.encode(picture(side), compression)
            let path = scratch.appendingPathComponent("bench.webp").path
            let pam = scratch.appendingPathComponent("dwebp.pam").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let megapixels = Double(side * side) / 1e6
            var decoded = Bitmap(width: 0, height: 0)
            rows.append(
                compareInterleaved(
                    "1024² \(label) (\(bytes.count / 1024) KB)", items: megapixels, unit: "MP", rounds: 9,
                    goal: "≥ 0.95×",
                    oursTimed: {
                        timed({ decoded = try! WebPDecoder.decode(bytes) }) { ourPicture(decoded) }
                    },
                    peerTimed: { dwebp(path, output: pam) }))
        }
        printRows("WebP decode (megapixels/s; dwebp's own decode timer)", peerName: "dwebp", rows)
    }
}
