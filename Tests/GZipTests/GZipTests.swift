import Foundation
import GZip
import Testing

@Suite struct GZipTests {
    @Test func roundTrip() throws {
        let text = Array(String(repeating: "Telegraph gzip_packed ", count: 500).utf8)
        let packed = try GZip.compress(text)
        #expect(packed.count < text.count / 10)
        #expect(Array(packed[0..<2]) == [0x1f, 0x8b])  // RFC 1952 magic
        #expect(try GZip.decompress(packed, limit: text.count) == text)
        #expect(try GZip.decompress(packed, limit: 1 << 20, format: .automatic) == text)
        #expect(try GZip.decompress(try GZip.compress([]), limit: 0) == [])
    }

    /// The real `gzip` tool's output inflates (interoperability with a third-party implementation).
    @Test func inflatesGzipToolOutput() throws {
        let input = Array((0..<20000).map { UInt8(truncatingIfNeeded: $0 &* 7 % 251) })
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-c", "-9"]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        stdin.fileHandleForWriting.write(Data(input))
        try stdin.fileHandleForWriting.close()
        let packed = Array(stdout.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        #expect(try GZip.decompress(packed, limit: input.count) == input)
    }

    /// A small stream that inflates to 10 MB fails at the cap without producing more than the cap.
    @Test func capStopsBombs() throws {
        let bomb = try GZip.compress([UInt8](repeating: 0, count: 10 << 20), level: 9)
        #expect(bomb.count < 20_000)
        #expect(throws: GZipError.outputTooLarge(limit: 1 << 20)) { try GZip.decompress(bomb, limit: 1 << 20) }
    }

    @Test func corruptAndTruncatedStreamsFail() throws {
        let packed = try GZip.compress(Array("hello, world".utf8))
        #expect(throws: GZipError.truncated) { try GZip.decompress(Array(packed.dropLast(10)), limit: 100) }
        #expect(throws: GZipError.self) { try GZip.decompress([0x1f, 0x8b, 0x08, 0, 1, 2, 3, 4, 5, 6], limit: 100) }
        #expect(throws: GZipError.self) { try GZip.decompress(Array("not gzip at all".utf8), limit: 100) }
        #expect(throws: GZipError.self) { try GZip.decompress([], limit: 100) }
        var rng = UInt64(1)
        for _ in 0..<300 {
            var mutated = packed
            rng = rng &* 6_364_136_223_846_793_005 &+ 1
            let index = Int(rng >> 33) % mutated.count
            mutated[index] ^= UInt8(truncatingIfNeeded: rng >> 20) | 1
            _ = try? GZip.decompress(mutated, limit: 1000)  // must not trap
        }
    }
}
