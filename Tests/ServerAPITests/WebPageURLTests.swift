import TelegramApi
import Testing

@testable import ServerAPI

/// Which links a preview is built for, what is put on the wire for them, and the allow list.
@Suite struct WebPageURLTests {
    @Test func linksAreParsedAndNormalised() throws {
        let url = try #require(WebPageURL("HTTP://Example.COM:8080/a/b?c=d#frag"))
        #expect(url.scheme == "http")
        #expect(url.host == "example.com")
        #expect(url.port == 8080)
        #expect(url.path == "/a/b?c=d")
        #expect(url.url == "http://example.com:8080/a/b?c=d")
        #expect(url.displayURL == "example.com:8080/a/b?c=d")
        let bare = try #require(WebPageURL("https://example.com"))
        #expect(bare.port == 443)
        #expect(bare.path == "/")
        #expect(bare.url == "https://example.com/")
        #expect(bare.displayURL == "example.com")
        #expect(WebPageURL("http://a.b?q")?.path == "/?q")
    }

    @Test func anImageLinkIsResolvedAgainstItsPage() throws {
        let page = try #require(WebPageURL("http://127.0.0.1:8000/a/b/page?x=1"))
        let cases: [(String, String?)] = [
            ("http://other.example/i.png", "http://other.example/i.png"),
            ("//cdn.example:81/i.png", "http://cdn.example:81/i.png"),
            ("/i.png", "http://127.0.0.1:8000/i.png"),
            ("i.png", "http://127.0.0.1:8000/a/b/i.png"),
            ("img/i.png?s=2", "http://127.0.0.1:8000/a/b/img/i.png?s=2"),
            ("data:image/png;base64,AAAA", nil),
            ("javascript:alert(1)", nil),
            ("", nil),
            ("http://user@host/i.png", nil),
        ]
        for (reference, expected) in cases {
            #expect(page.resolving(reference)?.url == expected, "\(reference)")
        }
        let root = try #require(WebPageURL("http://h.example"))
        #expect(root.resolving("i.png")?.url == "http://h.example/i.png")
    }

    @Test func linksThatCouldMisleadTheFetchAreRefused() {
        for bad in [
            "ftp://example.com/", "http://", "http://user@example.com/", "http://example.com:0/",
            "http://example.com:70000/", "http://[::1]:80/", "http://exa mple.com/", "http://example.com/a b",
            "http://example.com/a\r\nHost: other", "http://exämple.com/", "http://example.com/ä",
            "http://example.com:80x/", "javascript:alert(1)",
        ] {
            #expect(WebPageURL(bad) == nil, "\(bad)")
        }
        #expect(WebPageURL("http://e.com/" + String(repeating: "a", count: 3000)) == nil)
    }

    @Test func theFirstLinkComesFromEntitiesThenFromTheText() {
        let text = "see 🙂 http://one.example/x, then http://two.example/"
        // UTF-16 offsets: the emoji is two code units.
        let offset = Int32("see 🙂 http://one.example/x, then ".utf16.count)
        let entity = Api.MessageEntity.messageEntityUrl(.init(offset: offset, length: 19))
        #expect(WebPageURL.firstLink(in: text, entities: [entity])?.host == "two.example")
        #expect(WebPageURL.firstLink(in: text, entities: nil)?.url == "http://one.example/x")
        let hidden = Api.MessageEntity.messageEntityTextUrl(.init(offset: 0, length: 3, url: "http://three.example/"))
        #expect(WebPageURL.firstLink(in: text, entities: [hidden])?.host == "three.example")
        #expect(WebPageURL.firstLink(in: "no links here", entities: nil) == nil)
        #expect(WebPageURL.firstLink(in: "mail me: //later ftp://x.example", entities: nil) == nil)
        #expect(WebPageURL.firstLink(in: "see HTTPS://Up.Example/p.", entities: nil)?.url == "https://up.example/p")
        #expect(WebPageURL.firstLink(in: "a://", entities: nil) == nil)
        let outside = Api.MessageEntity.messageEntityUrl(.init(offset: 500, length: 10))
        #expect(WebPageURL.firstLink(in: "short", entities: [outside]) == nil)
    }

    @Test func theAllowListNamesExactHostsAndPorts() throws {
        #expect(WebPageRules.entry("127.0.0.1:8000") == "127.0.0.1:8000")
        #expect(WebPageRules.entry("Example.com") == "example.com:80")
        #expect(WebPageRules.entry("example.com/path") == nil)
        #expect(WebPageRules.entry("user@example.com") == nil)
        #expect(WebPageRules.entry("") == nil)
        let rules = WebPageRules(allowed: ["127.0.0.1:8000"])
        #expect(rules.allows(try #require(WebPageURL("http://127.0.0.1:8000/page"))))
        #expect(!rules.allows(try #require(WebPageURL("http://localhost:8000/page"))))
        #expect(!rules.allows(try #require(WebPageURL("http://127.0.0.1:8001/page"))))
        #expect(!rules.allows(try #require(WebPageURL("http://2130706433:8000/page"))))
        #expect(!rules.allows(try #require(WebPageURL("https://127.0.0.1:8000/page"))))
        #expect(!WebPageRules().allows(try #require(WebPageURL("http://127.0.0.1:8000/page"))))
    }
}
