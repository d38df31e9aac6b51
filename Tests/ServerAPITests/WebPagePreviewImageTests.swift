import Synchronization
import TLRuntime
import TelegramApi
import Testing

@testable import ServerAPI

/// A preview's picture: a page's `og:image` is fetched under the page's rules (allowed host, `maximumImageBytes`),
/// made a photo on the DC of the account that started the fetch, and named by `webPage.photo`; a link that answers a
/// picture is a preview of type "photo"; an image that is not allowed, fails or is not a picture leaves a preview
/// without photo, and nothing else is fetched.
@Suite struct WebPagePreviewImageTests {
    /// Answers by path (a missing path fails, as a 404 does), recording each fetch's path and byte limit.
    final class RoutedFetch: Sendable {
        let calls = Mutex<[(path: String, limit: Int)]>([])
        let bodies: [String: [UInt8]]

        init(_ bodies: [String: [UInt8]]) { self.bodies = bodies }

        var fetch: WebPagePreviews.Fetch {
            { host, port, path, _, limit in
                self.calls.withLock { $0.append(("\(host):\(port)\(path)", limit)) }
                guard let body = self.bodies[path] else { throw CancellationError() }
                return body
            }
        }

        var paths: [String] { calls.withLock { $0.map(\.path) } }
    }

    /// Records the pictures made into photos and answers a photo with one `x` size of 800×600.
    final class PhotoMaker: Sendable {
        let made = Mutex<[(bytes: [UInt8], dc: Int32)]>([])

        func make(_ picture: [UInt8], dc: Int32) -> Api.Photo? {
            made.withLock { $0.append((picture, dc)) }
            guard picture.starts(with: [0xFF, 0xD8, 0xFF]) else { return nil }
            return .photo(
                .init(
                    id: 77, accessHash: 1, fileReference: [1], date: 0,
                    sizes: [.photoSize(.init(type: "x", w: 800, h: 600, size: Int32(picture.count)))], dcId: dc))
        }
    }

    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]
    static func page(image: String) -> [UInt8] {
        Array("<meta property=\"og:title\" content=\"Hi\"><meta property=\"og:image\" content=\"\(image)\">".utf8)
    }

    let rules = WebPageRules(allowed: ["127.0.0.1:8000"])

    /// Starts `link`'s fetch from DC `dc` and answers the preview once it ends.
    func preview(
        _ link: String, fetch: RoutedFetch, maker: PhotoMaker, rules: WebPageRules? = nil, dc: Int32 = 2
    ) async throws -> WebPagePreviews.WebPage? {
        let previews = WebPagePreviews(rules: rules ?? self.rules, fetch: fetch.fetch, clock: { 1000 })
        previews.makingPhotos { maker.make($0, dc: $1) }
        let finished = WebPagePreviewsTests.Finished(previews)
        let url = try #require(WebPageURL(link))
        guard case .pending = previews.lookup(url, dc: dc) else {
            Issue.record("no fetch started")
            return nil
        }
        _ = try await finished.next()
        if case .ready(let page) = previews.lookup(url, dc: dc) { return page }
        return nil
    }

    @Test func aPagesImageBecomesItsPhotoOnTheCallersDC() async throws {
        let fetch = RoutedFetch(["/a/page": Self.page(image: "img/p.jpg"), "/a/img/p.jpg": Self.jpeg])
        let maker = PhotoMaker()
        let page = try #require(
            try await preview("http://127.0.0.1:8000/a/page", fetch: fetch, maker: maker, dc: 2))
        #expect(fetch.paths == ["127.0.0.1:8000/a/page", "127.0.0.1:8000/a/img/p.jpg"])
        #expect(fetch.calls.withLock { $0.map(\.limit) } == [rules.maximumBytes, rules.maximumImageBytes])
        #expect(maker.made.withLock { $0.map(\.dc) } == [2])
        #expect(maker.made.withLock { $0.first?.bytes } == Self.jpeg)
        guard case .webPage(let api) = page.api, case .photo(let photo)? = api.photo else {
            Issue.record("no photo in \(page.api)")
            return
        }
        #expect(photo.id == 77)
        #expect(photo.dcId == 2)
        #expect(api.type == "article")
        #expect(api.title == "Hi")
        #expect(api.hasLargeMedia)
    }

    @Test func aLinkToAPictureIsAPhotoPreview() async throws {
        let fetch = RoutedFetch(["/p.jpg": Self.jpeg])
        let page = try #require(try await preview("http://127.0.0.1:8000/p.jpg", fetch: fetch, maker: PhotoMaker()))
        guard case .webPage(let api) = page.api else {
            Issue.record("not a webPage")
            return
        }
        #expect(api.type == "photo")
        #expect(api.photo != nil)
        #expect(api.title == nil)
        #expect(fetch.paths == ["127.0.0.1:8000/p.jpg"])
    }

    @Test func anImageOnAHostNotAllowedIsNeverFetched() async throws {
        for image in ["http://localhost:8000/p.jpg", "http://127.0.0.1:9000/p.jpg", "https://127.0.0.1:8000/p.jpg"] {
            let fetch = RoutedFetch(["/page": Self.page(image: image), "/p.jpg": Self.jpeg])
            let maker = PhotoMaker()
            let page = try #require(try await preview("http://127.0.0.1:8000/page", fetch: fetch, maker: maker))
            #expect(fetch.paths == ["127.0.0.1:8000/page"], "\(image)")
            #expect(maker.made.withLock { $0.count } == 0)
            guard case .webPage(let api) = page.api else {
                Issue.record("not a webPage for \(image)")
                continue
            }
            #expect(api.photo == nil)
            #expect(api.title == "Hi")
            #expect(!api.hasLargeMedia)
        }
    }

    @Test func anImageThatFailsOrIsNoPictureLeavesAPreviewWithoutPhoto() async throws {
        // Missing (the fetch fails, as a 404, a redirect or an answer over the limit does), HTML, and bytes that
        // look like a JPEG but do not decode (the maker refuses them).
        let cases: [(String, [String: [UInt8]], Int)] = [
            ("/missing.jpg", [:], 0),
            ("/page.html", ["/page.html": Array("<html>no</html>".utf8)], 0),
            ("/broken.png", ["/broken.png": [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]], 1),
        ]
        for (image, bodies, made) in cases {
            var all = bodies
            all["/page"] = Self.page(image: image)
            let fetch = RoutedFetch(all)
            let maker = PhotoMaker()
            let page = try #require(try await preview("http://127.0.0.1:8000/page", fetch: fetch, maker: maker))
            #expect(fetch.paths == ["127.0.0.1:8000/page", "127.0.0.1:8000" + image], "\(image)")
            #expect(maker.made.withLock { $0.count } == made, "\(image)")
            guard case .webPage(let api) = page.api else {
                Issue.record("not a webPage for \(image)")
                continue
            }
            #expect(api.photo == nil, "\(image)")
            #expect(api.type == "article")
        }
    }

    @Test func aPictureSeenAgainIsTheSamePhotoNotDecodedTwice() async throws {
        let fetch = RoutedFetch([
            "/a": Self.page(image: "/p.jpg"), "/b": Self.page(image: "http://127.0.0.1:8000/p.jpg"),
            "/p.jpg": Self.jpeg,
        ])
        let maker = PhotoMaker()
        let previews = WebPagePreviews(rules: rules, fetch: fetch.fetch, clock: { 1000 })
        previews.makingPhotos { maker.make($0, dc: $1) }
        let finished = WebPagePreviewsTests.Finished(previews)
        var photos: [[UInt8]] = []
        for link in ["http://127.0.0.1:8000/a", "http://127.0.0.1:8000/b"] {
            let url = try #require(WebPageURL(link))
            guard case .pending = previews.lookup(url, dc: 2) else {
                Issue.record("no fetch for \(link)")
                return
            }
            _ = try await finished.next()
            guard case .ready(let page) = previews.lookup(url, dc: 2), let photo = page.photo else {
                Issue.record("no page with a photo for \(link)")
                return
            }
            photos.append(photo.serialized())
        }
        // Both pages' picture was fetched, and made a photo once.
        #expect(fetch.paths.filter { $0.hasSuffix("/p.jpg") }.count == 2)
        #expect(maker.made.withLock { $0.count } == 1)
        #expect(photos.count == 2 && photos[0] == photos[1])
    }

    @Test func aPageWithOnlyAnImageIsShownWithItsPhoto() async throws {
        let fetch = RoutedFetch([
            "/page": Array("<meta property=\"og:image\" content=\"/p.jpg\">".utf8), "/p.jpg": Self.jpeg,
        ])
        let page = try #require(try await preview("http://127.0.0.1:8000/page", fetch: fetch, maker: PhotoMaker()))
        guard case .webPage(let api) = page.api else {
            Issue.record("not a webPage")
            return
        }
        #expect(api.photo != nil)
        #expect(api.title == nil)
    }

    @Test func withoutAMakerPreviewsCarryNoPhoto() async throws {
        let fetch = RoutedFetch(["/page": Self.page(image: "/p.jpg"), "/p.jpg": Self.jpeg])
        let previews = WebPagePreviews(rules: rules, fetch: fetch.fetch, clock: { 1000 })
        let finished = WebPagePreviewsTests.Finished(previews)
        let url = try #require(WebPageURL("http://127.0.0.1:8000/page"))
        _ = previews.lookup(url, dc: 1)
        _ = try await finished.next()
        guard case .ready(let page) = previews.lookup(url, dc: 1), case .webPage(let api) = page.api else {
            Issue.record("no page")
            return
        }
        #expect(api.photo == nil)
    }
}
