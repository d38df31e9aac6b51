import Foundation
import MTProtoServer
import TLRuntime
import TelegramApi
import Testing

/// `ServerTrace`'s bound (Modules/Server/README.md "Operating tg-server"): a session's file stops at its cap, ending
/// with one `truncated` line, however much the client goes on calling.
@Suite(.serialized) struct ServerTraceTests {
    @Test func aSessionsTraceStopsAtItsCapWithOneTruncatedLine() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cap = 4096
        let trace = try ServerTrace(directory: folder, limits: .init(bytesPerFile: cap, totalBytes: 1 << 20))
        let fixture = ServerFixture()
        try await fixture.start(trace: trace)
        let key = try await fixture.createKey()
        let connection = try await fixture.session(key)
        // About 40 × 2 lines of 200–300 bytes: five times the cap.
        for _ in 0..<40 { try await connection.send(Api.functions.help.getNearestDc().serialized()) }
        let answered = try await connection.waitForResults(40, timeout: 60)
        await connection.close()
        try await fixture.stop()
        #expect(answered == 40)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        try #require(files.count == 1, "\(files)")
        let text = try String(contentsOf: folder.appendingPathComponent(files[0]), encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.count > 5, "lines are written up to the cap")
        #expect(text.utf8.count <= cap + 256, "\(text.utf8.count) bytes")
        #expect(lines.filter { $0.contains(#""type":"truncated""#) }.count == 1)
        #expect(lines.last?.contains(#""type":"truncated""#) == true && lines.last?.contains(#""limit":"file""#) == true)
        #expect(lines.contains { $0.contains(#""method":"help.getNearestDc""#) })
    }
}
