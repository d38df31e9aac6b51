import Foundation
import ImageCore
import JPEGBinding
import MediaTestSupport
import TestVectors

/// JPEG files for the tests: encoded here, or made with TurboJPEG's C API by `Tests/MediaFixtures/turbojpeg-make.c`
/// (CMYK, progressive, restart markers), compiled once per run.
enum JPEGSamples {
    static func small() throws -> [UInt8] {
        try JPEGEncoder.encode(Photo.drawn(width: 32, height: 24), quality: 85)
    }

    /// `jpeg` with its frame header (SOF0 or SOF2) claiming `width` × `height`; the scans are unchanged.
    static func claiming(width: Int, height: Int, from jpeg: [UInt8]) -> [UInt8]? {
        var bytes = jpeg
        var i = 2
        while i + 9 < bytes.count, bytes[i] == 0xFF {
            let marker = bytes[i + 1]
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            if marker == 0xC0 || marker == 0xC2 {
                bytes[i + 5] = UInt8(height >> 8)
                bytes[i + 6] = UInt8(height & 0xFF)
                bytes[i + 7] = UInt8(width >> 8)
                bytes[i + 8] = UInt8(width & 0xFF)
                return bytes
            }
            i += 2 + length
        }
        return nil
    }

    /// A file made by `turbojpeg-make` (`kind`: cmyk, progressive, restart), compiled with `cc` for the call.
    static func made(_ kind: String, width: Int, height: Int) throws -> [UInt8] {
        let folder = Tools.scratch("turbojpeg-make")
        defer { try? FileManager.default.removeItem(at: folder) }
        let binary = folder.appendingPathComponent("turbojpeg-make")
        let source = Fixtures.repositoryRoot.appendingPathComponent("Tests/MediaFixtures/turbojpeg-make.c")
        let compiled = try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["cc", "-O2", "-o", binary.path, source.path, "-lturbojpeg"],
            timeout: 120)
        guard compiled.succeeded else { throw MakeFailed(output: compiled.output + compiled.errorOutput) }
        let out = folder.appendingPathComponent("\(kind).jpg")
        let result = try ProcessRunner.run(binary, [kind, "\(width)", "\(height)", out.path], timeout: 30)
        guard result.succeeded else { throw MakeFailed(output: result.output + result.errorOutput) }
        return [UInt8](try Data(contentsOf: out))
    }

    struct MakeFailed: Error { let output: String }
}
