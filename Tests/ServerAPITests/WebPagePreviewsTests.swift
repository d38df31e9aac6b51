import Synchronization
import TelegramApi
import Testing

@testable import ServerAPI

/// The bounds of link-preview fetching: only allowed links, at most `maximumInFlight` at once, each link fetched
/// once per lifetime (pages and failures cached), the oldest forgotten first.
@Suite struct WebPagePreviewsTests {
    /// A fetch the test controls: it counts calls, answers `page` (or fails), and can be held until released.
    final class FakeFetch: Sendable {
        let calls = Mutex<[String]>([])
        let held = Mutex<[CheckedContinuation<Void, Never>]>([])
        let hold: Bool
        let page: [UInt8]?

        init(page: String?, hold: Bool = false) {
            self.page = page.map { Array($0.utf8) }
            self.hold = hold
        }

        var fetch: WebPagePreviews.Fetch {
            { host, port, path, _, _ in
                self.calls.withLock { $0.append("\(host):\(port)\(path)") }
                if self.hold {
                    await withCheckedContinuation { continuation in self.held.withLock { $0.append(continuation) } }
                }
                guard let page = self.page else { throw CancellationError() }
                return page
            }
        }

        var heldCount: Int { held.withLock { $0.count } }

        func release() {
            for continuation in held.withLock({ list in
                defer { list = [] }; return list
            }) { continuation.resume() }
        }
    }

    /// The ids of finished fetches, as the backend is told of them.
    final class Finished: Sendable {
        let stream: AsyncStream<Int64>
        private let continuation: AsyncStream<Int64>.Continuation

        init(_ previews: WebPagePreviews) {
            (stream, continuation) = AsyncStream.makeStream(of: Int64.self)
            previews.whenReady { [continuation] _, id in continuation.yield(id) }
        }

        /// The next finished fetch's id, or a failure after `seconds`.
        func next(within seconds: Double = 10) async throws -> Int64 {
            try await withThrowingTaskGroup(of: Int64?.self) { group in
                group.addTask { [stream] in
                    for await id in stream { return id }
                    return nil
                }
                group.addTask {
                    try await Task.sleep(for: .seconds(seconds))
                    return nil
                }
                let first = try await group.next() ?? nil
                group.cancelAll()
                return try #require(first, "no fetch finished within \(seconds) s")
            }
        }
    }

    static let page = "<meta property=\"og:title\" content=\"Hello\"><meta property=\"og:site_name\" content=\"Site\">"
    let allowed = WebPageRules(allowed: ["127.0.0.1:8000"])

    @Test func nothingIsFetchedUnlessAllowed() throws {
        let fake = FakeFetch(page: Self.page)
        let previews = WebPagePreviews(rules: allowed, fetch: fake.fetch, clock: { 1000 })
        for link in ["http://127.0.0.1:8001/", "http://localhost:8000/", "https://127.0.0.1:8000/"] {
            #expect(previews.lookup(try #require(WebPageURL(link)), dc: 1) == .unavailable)
        }
        let noFetch = WebPagePreviews(rules: allowed, fetch: nil, clock: { 1000 })
        #expect(noFetch.lookup(try #require(WebPageURL("http://127.0.0.1:8000/")), dc: 1) == .unavailable)
        #expect(fake.calls.withLock { $0 }.isEmpty)
    }

    @Test func aPageIsFetchedOnceAndServedFromTheCacheUntilItExpires() async throws {
        let fake = FakeFetch(page: Self.page)
        let now = Mutex<Double>(1000)
        let previews = WebPagePreviews(rules: allowed, fetch: fake.fetch, clock: { now.withLock { $0 } })
        let finished = Finished(previews)
        let link = try #require(WebPageURL("http://127.0.0.1:8000/a?b#c"))
        guard case .pending(let id, let date) = previews.lookup(link, dc: 1) else {
            Issue.record("no pending page")
            return
        }
        #expect(date == 1000)
        #expect(try await finished.next() == id)
        guard case .ready(let page) = previews.lookup(link, dc: 1) else {
            Issue.record("no page after the fetch")
            return
        }
        #expect(page.id == id)
        #expect(page.html.title == "Hello")
        #expect(page.html.siteName == "Site")
        guard case .webPage(let api) = page.api else {
            Issue.record("not a webPage")
            return
        }
        #expect(api.url == "http://127.0.0.1:8000/a?b")
        #expect(api.displayUrl == "127.0.0.1:8000/a?b")
        #expect(fake.calls.withLock { $0 } == ["127.0.0.1:8000/a?b"])
        // Past its lifetime the page is fetched again.
        now.withLock { $0 += allowed.pageLifetime + 1 }
        guard case .pending = previews.lookup(link, dc: 1) else {
            Issue.record("an expired page was not fetched again")
            return
        }
        _ = try await finished.next()
        #expect(fake.calls.withLock { $0 }.count == 2)
    }

    @Test func aFailedFetchGivesNoPreviewAndIsNotRetriedAtOnce() async throws {
        let fake = FakeFetch(page: nil)
        let previews = WebPagePreviews(rules: allowed, fetch: fake.fetch, clock: { 1000 })
        let finished = Finished(previews)
        let link = try #require(WebPageURL("http://127.0.0.1:8000/"))
        guard case .pending = previews.lookup(link, dc: 1) else {
            Issue.record("no pending page")
            return
        }
        _ = try await finished.next()
        #expect(previews.lookup(link, dc: 1) == .unavailable)
        #expect(previews.lookup(link, dc: 1) == .unavailable)
        #expect(fake.calls.withLock { $0 }.count == 1)
    }

    @Test func atMostMaximumInFlightFetchesRunAtOnce() async throws {
        let fake = FakeFetch(page: Self.page, hold: true)
        var rules = allowed
        rules.maximumInFlight = 2
        let previews = WebPagePreviews(rules: rules, fetch: fake.fetch, clock: { 1000 })
        let finished = Finished(previews)
        var results: [WebPagePreviews.Lookup] = []
        for path in ["/1", "/2", "/3", "/1"] {
            results.append(previews.lookup(try #require(WebPageURL("http://127.0.0.1:8000" + path)), dc: 1))
        }
        guard case .pending(let first, _) = results[0], case .pending = results[1] else {
            Issue.record("the first two links were not fetched: \(results)")
            return
        }
        #expect(results[2] == .unavailable)
        // A link already being fetched is not fetched twice.
        #expect(results[3] == results[0])
        // Both fetches reach the fake before they are released.
        for _ in 0..<500 where fake.heldCount < 2 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(fake.heldCount == 2)
        fake.release()
        let done = Set([try await finished.next(), try await finished.next()])
        #expect(done.contains(first))
        #expect(fake.calls.withLock { $0 }.count == 2)
        // A slot is free again.
        guard case .pending = previews.lookup(try #require(WebPageURL("http://127.0.0.1:8000/3")), dc: 1) else {
            Issue.record("no fetch after the slots were freed")
            return
        }
        for _ in 0..<500 where fake.heldCount < 1 { try await Task.sleep(for: .milliseconds(10)) }
        fake.release()
        _ = try await finished.next()
    }

    /// With `maximumWaiting` calls already waiting (here none may wait), a preview call answers the pending page at
    /// once instead of holding another RPC worker thread.
    @Test func noCallWaitsPastMaximumWaiting() async throws {
        let fake = FakeFetch(page: Self.page, hold: true)
        var rules = allowed
        rules.maximumWaiting = 0
        let previews = WebPagePreviews(rules: rules, fetch: fake.fetch, clock: { 1000 })
        let finished = Finished(previews)
        let link = try #require(WebPageURL("http://127.0.0.1:8000/held"))
        guard case .pending(let id, _) = previews.lookup(link, dc: 1) else {
            Issue.record("no pending page")
            return
        }
        let started = ContinuousClock.now
        #expect(previews.wait(for: link, timeout: 30) == .pending(id: id, date: 1000))
        #expect(ContinuousClock.now - started < .seconds(5))
        for _ in 0..<500 where fake.heldCount < 1 { try await Task.sleep(for: .milliseconds(10)) }
        fake.release()
        #expect(try await finished.next() == id)
    }

    @Test func theOldestLinksAreForgottenPastTheCapacity() async throws {
        let fake = FakeFetch(page: Self.page)
        var rules = allowed
        rules.cacheCapacity = 2
        rules.maximumInFlight = 1
        let previews = WebPagePreviews(rules: rules, fetch: fake.fetch, clock: { 1000 })
        let finished = Finished(previews)
        for path in ["/1", "/2", "/3"] {
            _ = previews.lookup(try #require(WebPageURL("http://127.0.0.1:8000" + path)), dc: 1)
            _ = try await finished.next()
        }
        // /1 was forgotten, so it is fetched again; /3 is still known.
        guard case .ready = previews.lookup(try #require(WebPageURL("http://127.0.0.1:8000/3")), dc: 1) else {
            Issue.record("/3 is not cached")
            return
        }
        guard case .pending = previews.lookup(try #require(WebPageURL("http://127.0.0.1:8000/1")), dc: 1) else {
            Issue.record("/1 was not forgotten")
            return
        }
        _ = try await finished.next()
        #expect(fake.calls.withLock { $0 }.count == 4)
    }
}
