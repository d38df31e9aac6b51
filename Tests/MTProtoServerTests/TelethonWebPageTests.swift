import Foundation
import TestVectors
import Testing

/// Telethon 1.45.0 and link previews on a real tg-server started with `--webpage-allow 127.0.0.1:P`, the pages
/// served by Python's http.server on P (Tests/Fixtures/webpages/page_server.py, which counts requests;
/// Tests/Fixtures/telethon/server_webpage.py): `messages.getWebPagePreview` answers the page's Open Graph fields; a
/// sent link carries the `webPage` (cached: fetched once); a slow page is `webPagePending` until `updateWebPage`;
/// `no_webpage` and a host that is not allowed (`localhost:P`) give no preview and are never fetched; an edited
/// message's new link waits for its page like a sent one's; a channel post gets its page with `updateChannelWebPage`.
@Suite struct TelethonWebPageTests {
    struct Report: Decodable {
        let preview: [String?]
        let sent: [String?]?
        let bob_got: [String?]?
        let slow_sent: [String?]?
        let slow_bob_got: [String?]?
        let slow_update: [TelethonChannelTests.JSONValue]
        let slow_stored: [String?]?
        let no_webpage: [String?]?
        let edit_sent: [String?]?
        let edit_update: [String?]?
        let edit_stored: [String?]?
        let post_sent: [String?]?
        let post_update: [TelethonChannelTests.JSONValue]?
        let post_seen: [String?]?
        let forbidden_sent: [String?]?
        let forbidden_preview: [String?]?
        let counts: [String: Int]
    }

    @Test func telethonSeesLinkPreviewsOfAllowedPagesOnly() async throws {
        let (report, port) = try await TelethonPageRun.report("server_webpage.py", as: Report.self)
        let article: [String?] = ["WebPage", "Telegraph & friends", "A page about link previews.", "Example Site"]
        #expect(report.preview == ["WebPagePreview"] + article)
        #expect(report.sent == article)
        #expect(
            report.bob_got == [
                "Telegraph & friends", "A page about link previews.", "Example Site",
                "http://127.0.0.1:\(port)/article", "127.0.0.1:\(port)/article",
            ])
        #expect(report.slow_sent == ["WebPagePending"])
        #expect(report.slow_bob_got == ["WebPagePending"])
        #expect(report.slow_update == [.text("WebPage"), .text("Telegraph & friends"), .number(1)])
        #expect(report.slow_stored == article)
        #expect(report.no_webpage == nil)
        #expect(report.forbidden_sent == nil)
        #expect(report.forbidden_preview == ["MessageMediaEmpty"])
        // Each allowed page fetched once (the preview's fetch served the sent message); the rest never.
        #expect(report.edit_sent == ["WebPagePending"])
        #expect(report.edit_update == ["WebPage", "Telegraph & friends"])
        #expect(report.edit_stored == article)
        #expect(report.post_sent == ["WebPagePending"])
        #expect(report.post_update == [.text("WebPage"), .text("Telegraph & friends"), .number(1)])
        #expect(report.post_seen == article)
        #expect(report.counts == ["/article": 1, "/slow": 1, "/slow-post": 1, "/slow-edit": 1])
    }
}
