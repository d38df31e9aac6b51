import Foundation
import TestVectors
import Testing

/// Clients no one here wrote through our `mtproxy` app to a real tg-server, both as processes: Telethon 1.45.0's own
/// MTProxy connections (plain obfuscated2 with abridged framing, and `dd` with padded intermediate) and
/// TelethonFakeTLS's `ee` fake-TLS connection each sign up a new account, ask who they are and send and read back a
/// message (Tests/Fixtures/telethon/mtproxy_client.py).
@Suite(.serialized) struct TelethonMTProxyTests {
    struct Report: Decodable, Equatable {
        let mode: String
        let phone: String
        let text: String
    }

    /// The built `mtproxy`, in front of `server`'s DCs with `secret`; returns it and its port.
    static func startProxy(for server: ProcessSupport.Server, secret: String) async throws -> (RunningProcess, Int) {
        var arguments = ["--port", "0", "--secret", secret]
        for (dc, port) in server.ports.sorted(by: { $0.key < $1.key }) {
            arguments += ["--dc", "\(dc)=127.0.0.1:\(port)"]
        }
        let proxy = try ProcessRunner.start(ProcessRunner.builtExecutable("mtproxy"), arguments)
        _ = await proxy.waitForOutputOffPool(timeout: 20) { $0.contains(UInt8(ascii: "\n")) }
        let output = String(decoding: proxy.output, as: UTF8.self)
        let line = try #require(output.split(separator: "\n").first { $0.hasPrefix("mtproxy: ready ") }, "\(output)")
        return (proxy, try #require(Int(line.dropFirst("mtproxy: ready ".count))))
    }

    @Test func telethonThroughOurMTProxyWithEachKindOfSecret() async throws {
        let python = ProcessSupport.python
        try #require(FileManager.default.fileExists(atPath: python.path), "no .venv with Telethon: run `make deps`")
        let server = try await ProcessSupport.Server()
        defer { server.stopLater() }
        let key = "5f0c1d2e3a4b69788796a5b4c3d2e1f0"
        let (proxy, port) = try await Self.startProxy(for: server, secret: key)
        defer { proxy.send(SIGTERM) }
        let script = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/telethon/mtproxy_client.py")
        let domain = Array("example.com".utf8).map { String(format: "%02x", $0) }.joined()
        for (index, (mode, secret)) in [("plain", key), ("dd", "dd" + key), ("ee", "ee" + key + domain)].enumerated() {
            let phone = "999662940\(index)"
            let result = try await ProcessRunner.runOffPool(
                python,
                [script.path, "--proxy-port", String(port), "--secret", secret, "--mode", mode, "--phone", phone]
                    + (try await server.telethonArguments()),
                timeout: 90)
            try #require(result.succeeded, "\(mode): \(result.output) \(result.errorOutput.suffix(3000))")
            let report = try JSONDecoder().decode(Report.self, from: result.stdout)
            #expect(report == Report(mode: mode, phone: phone, text: "through mtproxy \(mode)"))
        }
        proxy.send(SIGTERM)
        #expect(await proxy.waitOffPool(timeout: 10).status == 0, "mtproxy stops cleanly on SIGTERM")
        #expect(await server.stop() == 0)
    }
}
