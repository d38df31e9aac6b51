import Foundation
import TestVectors
import Testing

/// Operating tg-server (Modules/Server/README.md "Operating tg-server"): a built tg-server with `--metrics-port 0`,
/// `--trace DIR` and `--log-format json`, and Telethon 1.45.0 making a few calls (`observe_client.py`): the
/// Prometheus endpoint counts them, the trace shows each call, answer and push decoded with secrets redacted, and
/// every log line is a JSON object.
@Suite(.serialized) struct ObservabilityTests {
    struct ClientReport: Decodable {
        let this_dc: Int
        let nearest_dc: Int
        let unimplemented: String?
        let code: String
        let auth_key: String
        let saved_part: Bool
    }

    /// What one run of the server and the client left.
    struct Run {
        let client: ClientReport
        let metrics: String
        let notFoundStatus: String
        let traceFolderMode: UInt32?
        let traceFiles: [(name: String, mode: UInt32?, text: String)]
        let server: ProcessRunner.Result
    }

    /// Starts tg-server with every observability flag, runs the client, scrapes `/metrics`, reads the trace and
    /// stops the server (its standard error is the log).
    static func run() async throws -> Run {
        try #require(FileManager.default.fileExists(atPath: ProcessSupport.python.path), "no .venv: run `make deps`")
        let traceDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tg-trace-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: traceDirectory) }
        let server = try await ProcessSupport.Server(arguments: [
            "--metrics-port", "0", "--trace", traceDirectory.path, "--log-format", "json", "--verbose",
            "--test-flood-wait", "help.getNearestDc=1",
        ])
        var finished = false
        defer { if !finished { server.stopLater() } }
        let dc2 = try #require(server.ports[2], "tg-server did not announce its ports")
        let metricsPort = try #require(server.metricsPort, "the ready line names no metrics port")
        let script = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/telethon/observe_client.py")
        // A DC 2 test number (code 22222) whose digits cannot spell the code: no 2 after "99966 2".
        let phone = "9996621" + String((0..<3).map { _ in "013456789".randomElement()! })
        let result = try await ProcessRunner.runOffPool(
            ProcessSupport.python,
            [
                script.path, "--host", "127.0.0.1", "--port", String(dc2), "--pem-file",
                try await server.publicKeyFile().path,
                "--session", server.dataDirectory.appendingPathComponent("observe").path, "--phone", phone,
            ], timeout: 120)
        try #require(result.succeeded, "\(result.output) \(result.errorOutput.suffix(2000))")
        let client = try JSONDecoder().decode(ClientReport.self, from: result.stdout)
        let metrics = try await scrape(port: metricsPort, path: "/metrics")
        let notFound = try await scrape(port: metricsPort, path: "/other")
        // Every line is written before its packet goes out: the trace is complete once the client has its answers.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: traceDirectory.path)) ?? []
        let files = names.sorted().map { name in
            let path = traceDirectory.appendingPathComponent(name).path
            return (name, Self.mode(path), (try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
        }
        let folderMode = Self.mode(traceDirectory.path)
        finished = true
        let stopped = await server.finish()
        return Run(
            client: client, metrics: metrics.body, notFoundStatus: notFound.status, traceFolderMode: folderMode,
            traceFiles: files, server: stopped)
    }

    /// GET over HTTP with the venv's Python (urllib; 20 s limit): the status line's code and the body.
    static func scrape(port: Int, path: String) async throws -> (status: String, body: String) {
        let code = """
            import sys, urllib.request, urllib.error
            try:
                r = urllib.request.urlopen("http://127.0.0.1:%s%s" % (sys.argv[1], sys.argv[2]), timeout=15)
                print(r.status); sys.stdout.write(r.read().decode())
            except urllib.error.HTTPError as e:
                print(e.code)
            """
        let result = try await ProcessRunner.runOffPool(
            ProcessSupport.python, ["-c", code, String(port), path], timeout: 20)
        try #require(result.succeeded, "GET \(path): \(result.errorOutput.suffix(1000))")
        let text = result.output
        let status = String(text.prefix { $0 != "\n" })
        return (status, String(text.dropFirst(status.count + 1)))
    }

    static func mode(_ path: String) -> UInt32? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return UInt32(status.st_mode) & 0o777
    }

    /// The value of the first sample of `metric` whose labels include every one of `labels` (`name="value"`).
    static func sample(_ metrics: String, _ metric: String, _ labels: [String] = []) -> Double? {
        for line in metrics.split(separator: "\n") where !line.hasPrefix("#") {
            let name = line.prefix { $0 != "{" && $0 != " " }
            guard name == metric, labels.allSatisfy({ line.contains($0) }) else { continue }
            return line.split(separator: " ").last.flatMap { Double($0) }
        }
        return nil
    }

    /// Every string anywhere in a parsed JSON value.
    static func strings(in value: Any) -> [String] {
        switch value {
        case let text as String: return [text]
        case let list as [Any]: return list.flatMap(strings)
        case let object as [String: Any]: return object.keys.map { $0 } + object.values.flatMap(strings)
        default: return []
        }
    }

    @Test func metricsTraceAndJSONLogsShowWhatAClientDid() async throws {
        let run = try await Self.run()
        #expect(run.server.status == 0)
        #expect(run.client.this_dc == 2 && run.client.nearest_dc == 2 && run.client.saved_part)
        #expect(run.client.unimplemented == "METHOD_NOT_IMPLEMENTED")

        // Metrics: connections, sessions, calls by method, errors by name, latency, commits, flood waits.
        let metrics = run.metrics
        #expect((Self.sample(metrics, "tg_server_connections_total") ?? 0) >= 1, "\(metrics.prefix(3000))")
        #expect(Self.sample(metrics, "tg_server_connections_open") != nil)
        #expect((Self.sample(metrics, "tg_server_sessions_created_total") ?? 0) >= 1)
        #expect((Self.sample(metrics, "tg_server_sessions") ?? 0) >= 1)
        #expect((Self.sample(metrics, "tg_server_calls_total", [#"method="help.getConfig""#]) ?? 0) >= 1)
        #expect((Self.sample(metrics, "tg_server_calls_total", [#"method="auth.signUp""#]) ?? 0) == 1)
        #expect(
            (Self.sample(
                metrics, "tg_server_call_errors_total",
                [#"method="help.getAppConfig""#, #"code="400""#, #"error="METHOD_NOT_IMPLEMENTED""#]) ?? 0) >= 1)
        // auth.signIn of a new number answers auth.authorizationSignUpRequired: a result, not an error.
        #expect((Self.sample(metrics, "tg_server_calls_total", [#"method="auth.signIn""#]) ?? 0) == 1)
        #expect(Self.sample(metrics, "tg_server_call_errors_total", [#"method="auth.signIn""#]) == nil)
        #expect(
            (Self.sample(
                metrics, "tg_server_call_errors_total", [#"method="help.getNearestDc""#, #"error="FLOOD_WAIT_X""#])
                ?? 0) >= 1)
        #expect((Self.sample(metrics, "tg_server_flood_waits_total", [#"reason="test_flood""#]) ?? 0) >= 1)
        #expect(
            (Self.sample(metrics, "tg_server_call_duration_seconds_count", [#"method="help.getConfig""#]) ?? 0) >= 1)
        #expect((Self.sample(metrics, "tg_server_store_commit_seconds_count") ?? 0) >= 1)
        #expect(run.notFoundStatus == "404")

        // The trace: one file per session, 0600 in a 0700 folder, one JSON object a line.
        #expect(run.traceFolderMode == 0o700)
        try #require(!run.traceFiles.isEmpty, "no trace file")
        var lines: [[String: Any]] = []
        for file in run.traceFiles {
            #expect(file.mode == 0o600, "\(file.name)")
            #expect(file.name.hasSuffix(".jsonl") && file.name.count == 16 + 1 + 16 + 6, "\(file.name)")
            for line in file.text.split(separator: "\n") {
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                #expect(object != nil, "not a JSON object: \(line.prefix(300))")
                if let object { lines.append(object) }
            }
        }
        for line in lines {
            let type = line["type"] as? String ?? ""
            #expect(["call", "answer", "push", "service"].contains(type), "\(line)")
            #expect(line["msg_id"] is NSNumber && line["seq_no"] is NSNumber && line["session"] is String, "\(line)")
            if type == "call" {
                #expect(line["method"] is String && line["object"] is [String: Any], "\(line)")
                // Not checked yet: a call's seq_no parity. One run in several traced a help.getConfig with seq_no -27;
                // where that value comes from is still to be found (see the Server README, "Operating tg-server").
            }
        }
        func calls(_ method: String) -> [[String: Any]] {
            lines.filter { $0["type"] as? String == "call" && $0["method"] as? String == method }
        }
        func answers(to call: [String: Any]) -> [[String: Any]] {
            lines.filter {
                $0["type"] as? String == "answer" && ($0["req_msg_id"] as? NSNumber) == (call["msg_id"] as? NSNumber)
            }
        }
        let config = try #require(calls("help.getConfig").first, "no help.getConfig call in the trace")
        let configAnswer = try #require(answers(to: config).first, "no answer to help.getConfig in the trace")
        #expect(configAnswer["method"] as? String == "help.getConfig")
        #expect((configAnswer["object"] as? [String: Any])?["_"] as? String == "config")
        let appConfig = try #require(calls("help.getAppConfig").first)
        let error = try #require(answers(to: appConfig).first?["error"] as? [String: Any])
        #expect(error["message"] as? String == "METHOD_NOT_IMPLEMENTED" && error["code"] as? Int == 400)
        // Redaction: the login code, the code hash, file parts' bytes, the key.
        let signIn = try #require(
            calls("auth.signIn").first?["object"] as? [String: Any], "no auth.signIn in the trace")
        #expect(signIn["phoneCode"] as? String == "<redacted>" && signIn["phoneCodeHash"] as? String == "<redacted>")
        let part = try #require(calls("upload.saveFilePart").first?["object"] as? [String: Any])
        #expect(part["bytes"] as? String == "<redacted>" && part["filePart"] as? Int == 0)
        let everyString = lines.flatMap(Self.strings)
        #expect(!everyString.contains { $0.contains(run.client.code) }, "the login code is in the trace")
        let text = run.traceFiles.map(\.text).joined()
        #expect(!text.contains("abababababababab"), "file part bytes are in the trace")
        let key = Array(run.client.auth_key)
        #expect(key.count >= 500)
        for start in stride(from: 0, to: key.count - 16, by: 16) {
            #expect(!text.contains(String(key[start..<(start + 16)])), "auth key bytes are in the trace")
        }
        // A byte field is shortened: at most 16 bytes as hex anywhere.
        #expect(!everyString.contains { $0.range(of: "[0-9a-f]{33,}", options: .regularExpression) != nil })

        // --log-format json: every line of standard error is a JSON object with the five fields.
        let logLines = run.server.errorOutput.split(separator: "\n")
        #expect(logLines.count >= 3, "\(run.server.errorOutput.suffix(2000))")
        for line in logLines {
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object != nil, "not a JSON log line: \(line.prefix(300))")
            guard let object else { continue }
            #expect(object["time"] is String && object["level"] is String && object["message"] is String, "\(line)")
            #expect(object["label"] as? String == "tg-server" && object["metadata"] is [String: Any], "\(line)")
        }
        #expect(logLines.contains { $0.contains(#""message":"listening""#) })
    }
}
