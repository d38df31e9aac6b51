import Foundation
import Testing

@testable import ServerAPI

/// The preview fields read from a page (ogp.me tags first, then `<title>` and `<meta name="description">`), and the
/// scanner's behaviour on hostile bytes.
@Suite struct WebPageHTMLTests {
    @Test func openGraphTagsWinOverTitleAndDescription() {
        let html = """
            <!doctype html><html><head>
            <title>Plain title</title>
            <meta name="description" content="Plain description">
            <META PROPERTY="og:title" CONTENT="Graph &amp; title">
            <meta property='og:description' content='Said   over
              two lines'>
            <meta property=og:site_name content=Example>
            <meta property="og:image" content="http://example.com/a.png">
            </head><body><p>text</p></body></html>
            """
        let page = WebPageHTML(parsing: Array(html.utf8))
        #expect(page.title == "Graph & title")
        #expect(page.description == "Said over two lines")
        #expect(page.siteName == "Example")
        #expect(page.imageURL == "http://example.com/a.png")
    }

    @Test func titleAndMetaDescriptionWhenThereIsNoOpenGraph() {
        let html = """
            <html><head><!-- <meta property="og:title" content="commented out"> -->
            <script>var s = "<meta property='og:title' content='in a script'>";</script>
            <title>
              Caf&#233; &#x263A; page
            </title><meta name="Description" content="About &lt;this&gt;"></head></html>
            """
        let page = WebPageHTML(parsing: Array(html.utf8))
        #expect(page.title == "Café ☺ page")
        #expect(page.description == "About <this>")
        #expect(page.siteName == nil)
        #expect(!page.isEmpty)
    }

    @Test func aPageWithNothingToShowIsEmpty() {
        #expect(WebPageHTML(parsing: Array("<html><body>hi</body></html>".utf8)).isEmpty)
        #expect(WebPageHTML(parsing: []).isEmpty)
        #expect(WebPageHTML(parsing: Array("<meta property=\"og:title\" content=\"   \">".utf8)).isEmpty)
    }

    @Test func fieldsAreCutToTheirLimits() {
        let long = String(repeating: "x", count: 5000)
        let html =
            "<meta property=\"og:title\" content=\"\(long)\"><meta property=\"og:description\" content=\"\(long)\">"
        let page = WebPageHTML(parsing: Array(html.utf8))
        #expect(page.title?.count == WebPageHTML.maximumTitle)
        #expect(page.description?.count == WebPageHTML.maximumDescription)
    }

    /// Random bytes, random tag soup and truncated tags never trap, and a 512 KB hostile page is read in well under a
    /// second (the scan is linear: only the first `<title>` is looked into).
    @Test func hostileInputNeverTrapsAndStaysLinear() {
        var generator = SystemRandomNumberGenerator()
        let pieces = [
            "<", ">", "<meta", "<title>", "</", "<script", "<!--", "-->", "\"", "'", "=", "&#", "&#x", ";", "&amp",
            "property=", "og:title", "content=", " ", "\n", "é", "\u{0}", "&#1114112;", "&#xD800;",
        ]
        for _ in 0..<2000 {
            let count = Int.random(in: 0..<200, using: &generator)
            let bytes: [UInt8]
            if Bool.random(using: &generator) {
                bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            } else {
                bytes = Array((0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined().utf8)
            }
            _ = WebPageHTML(parsing: bytes)
        }
        let started = Date()
        for hostile in ["<title>", "<meta content=\"", "<script", "<!--", "<a ", "&#x"] {
            let bytes = Array(String(repeating: hostile, count: (512 << 10) / hostile.utf8.count).utf8)
            _ = WebPageHTML(parsing: bytes)
        }
        #expect(Date().timeIntervalSince(started) < 10)
    }
}
