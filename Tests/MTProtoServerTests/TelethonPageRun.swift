import Foundation
import TestVectors
import Testing

/// A Telethon script (Tests/Fixtures/telethon/`script`) run against a tg-server allowed to fetch the pages of a
/// loopback page server (`LoopbackPageServer`, passed to the script as `--pages-port`): the link-preview suites'
/// shared setup. Returns the script's JSON report and the page server's port; the page server is stopped with SIGTERM
/// after the script.
enum TelethonPageRun {
    static func report<Report: Decodable>(
        _ script: String, as _: Report.Type
    ) async throws -> (report: Report, pagesPort: Int) {
        let python = ProcessSupport.python
        try #require(FileManager.default.fileExists(atPath: python.path), "no .venv with Telethon: run `make deps`")
        let pages = try await LoopbackPageServer.start()
        defer { pages.stop() }
        let server = try await ProcessSupport.Server(arguments: ["--webpage-allow", "127.0.0.1:\(pages.port)"])
        defer { server.stopLater() }
        let path = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/telethon/\(script)").path
        let result = try await ProcessRunner.runOffPool(
            python,
            [path, "--port", String(try #require(server.ports[2])), "--pages-port", String(pages.port)]
                + (try await server.telethonArguments()),
            timeout: 120)
        try #require(result.succeeded, "\(result.output) \(result.errorOutput.suffix(3000))")
        pages.process.send(SIGTERM)
        _ = await pages.process.waitOffPool(timeout: 10)
        return (try JSONDecoder().decode(Report.self, from: result.stdout), pages.port)
    }
}
