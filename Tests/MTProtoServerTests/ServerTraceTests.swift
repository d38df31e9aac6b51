import Foundation
import MTProtoCore
import MTProtoServer
import TLRuntime
import TelegramApi
import Testing

/// `ServerTrace` in a server in the test's process (Modules/Server/README.md "Operating tg-server"): a push is traced
/// with the msg_id and seq_no it was sealed with; a session's file stops at its cap, ending with one `truncated` line,
/// however much the client goes on calling; sessions past the file cap are not traced.
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

    @Test func aPushIsTracedWithTheMsgIdAndSeqNoItWasSealedWith() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = try ServerTrace(directory: folder)
        let updates = UpdateGateway()
        let fixture = ServerFixture()
        try await fixture.start(trace: trace, updates: updates)
        let key = try await fixture.createKey()
        let connection = try await fixture.session(key)
        // A call not wrapped in invokeWithoutUpdates subscribes the session to its key's pushes.
        try await connection.send(Api.functions.help.getNearestDc().serialized())
        let answered = try await connection.waitForResults(1, timeout: 30)
        let typing = Api.Update.updateUserTyping(.init(userId: 42, action: .sendMessageTypingAction))
        let handed = updates.push(Api.Updates.updateShort(.init(update: typing, date: 1)).serialized(), authKeyIds: [key.authKey.id])
        let file = folder.appendingPathComponent(ServerTrace.fileName(authKeyId: key.authKey.id, sessionId: connection.session.sessionId))
        func pushLines() -> [[String: Any]] {
            let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .filter { $0["type"] as? String == "push" }
        }
        let traced = await eventually(timeout: 30) { !pushLines().isEmpty }
        await connection.close()
        try await fixture.stop()
        #expect(answered == 1 && handed == 1)
        try #require(traced, "no push line in \(file.lastPathComponent)")
        let push = try #require(pushLines().first)
        #expect(push["msg_id"] is NSNumber && ((push["seq_no"] as? NSNumber)?.intValue ?? 0) % 2 == 1, "\(push)")
        let object = try #require(push["object"] as? [String: Any])
        #expect(object["_"] as? String == "updateShort")
        #expect((object["update"] as? [String: Any])?["_"] as? String == "updateUserTyping")
    }

    @Test func sessionsPastTheFileCapAreNotTraced() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = try ServerTrace(directory: folder, limits: .init(files: 1))
        let fixture = ServerFixture()
        try await fixture.start(trace: trace)
        let key = try await fixture.createKey()
        var answered = 0
        for _ in 0..<2 {
            let connection = try await fixture.session(key)
            try await connection.send(Api.functions.help.getNearestDc().serialized())
            answered += try await connection.waitForResults(1, timeout: 30)
            await connection.close()
        }
        try await fixture.stop()
        #expect(answered == 2)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(files.count == 1, "\(files)")
    }
}
