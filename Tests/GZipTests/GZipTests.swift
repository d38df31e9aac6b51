import Foundation
import GZip
import TestVectors
import Testing

/// Runs a tool (looked up on `PATH`) with stdin bytes and returns its stdout.
func run(_ tool: String, _ arguments: [String], stdin: [UInt8]) throws -> [UInt8] {
    let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), [tool] + arguments, input: Data(stdin))
    try #require(result.succeeded, "\(tool) failed: \(result.errorOutput)")
    return [UInt8](result.stdout)
}

@Suite struct GZipTests {
    static func sample(_ count: Int, seed: UInt64) -> [UInt8] {
        var generator = SeededGenerator(seed: seed)
        // Text-like: compressible, but not trivially.
        let words = ["sticker", "lottie", "frame", " ", "\n", "{\"v\":", "5.5.2", "layers", "0.5", "[", "]"]
        var bytes: [UInt8] = []
        while bytes.count < count { bytes += Array(words[Int(generator.next() % UInt64(words.count))].utf8) }
        return Array(bytes.prefix(count))
    }

    @Test(arguments: [0, 1, 100, 65_536, 300_000])
    func roundTripsBothFormats(size: Int) throws {
        let data = Self.sample(size, seed: UInt64(size))
        for format in [GZip.Format.gzip, .zlib] {
            let packed = GZip.compress(data, level: 6, format: format)
            #expect(GZip.isGZip(packed) == (format == .gzip))
            #expect(try GZip.decompress(packed, maxOutput: size) == data)
        }
    }

    @Test func systemGzipReadsOursAndWeReadItsOutput() throws {
        let data = Self.sample(100_000, seed: 3)
        #expect(try run("gzip", ["-dc"], stdin: GZip.compress(data)) == data)
        let theirs = try run("gzip", ["-9c"], stdin: data)
        #expect(try GZip.decompress(theirs, maxOutput: 1 << 20) == data)
    }

    @Test func knownZlibVector() throws {
        // zlib.compress(b"hello") from CPython, a fixed RFC 1950 stream.
        let stream: [UInt8] = [0x78, 0x9C, 0xCB, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00, 0x06, 0x2C, 0x02, 0x15]
        #expect(try GZip.decompress(stream, maxOutput: 5) == Array("hello".utf8))
    }

    @Test func capIsExactAndBombsStop() throws {
        let data = [UInt8](repeating: 0x41, count: 10_000)
        let packed = GZip.compress(data)
        #expect(try GZip.decompress(packed, maxOutput: 10_000) == data)
        #expect(throws: GZipError.outputLimitExceeded(limit: 9_999)) { try GZip.decompress(packed, maxOutput: 9_999) }
        // 64 MB of zeros packs into ~64 KB; the cap of 8 MB stops it without inflating the rest.
        let bomb = GZip.compress([UInt8](repeating: 0, count: 64 << 20), level: 9)
        #expect(bomb.count < 100_000)
        #expect(throws: GZipError.outputLimitExceeded(limit: 8 << 20)) { try GZip.decompress(bomb, maxOutput: 8 << 20) }
    }

    @Test func hundredCorruptVariantsFailCleanly() throws {
        let data = Self.sample(20_000, seed: 9)
        let packed = GZip.compress(data)
        var generator = SeededGenerator(seed: 1234)
        var failures = 0
        for index in 0..<100 {
            var bytes = packed
            switch index % 4 {
            case 0: bytes = Array(bytes.prefix(Int(generator.next() % UInt64(bytes.count))))
            case 1:
                let position = Int(generator.next() % UInt64(bytes.count))
                bytes[position] ^= UInt8(1 << (generator.next() % 8))
            case 2:
                // The trailer's size field claims far more than the data holds.
                let n = bytes.count
                bytes[n - 1] = 0x7F
            default:
                for _ in 0..<8 {
                    bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
                }
            }
            do {
                let out = try GZip.decompress(bytes, maxOutput: 1 << 20)
                // A flip inside a stored region can still decode; then the checksum must have caught any change.
                #expect(out == data, "variant \(index) decoded to different bytes without an error")
            } catch {
                failures += 1
            }
        }
        #expect(failures >= 90)
    }

    @Test func rejectsNonStreams() {
        #expect(throws: GZipError.self) { try GZip.decompress([], maxOutput: 10) }
        #expect(throws: GZipError.self) { try GZip.decompress(Array("{\"v\":1}".utf8), maxOutput: 10) }
    }
}
