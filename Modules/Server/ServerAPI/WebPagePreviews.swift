import CryptoUtils
import Dispatch
import Hashing
import PhotoSizes
import Synchronization
import TLRuntime
import TelegramApi

/// The link previews of one run (core.telegram.org "Link previews"): which pages are fetched, fetching, or known,
/// by URL. A link is fetched at most once per lifetime, only when `WebPageRules` allow it, with at most
/// `maximumInFlight` fetches running; a finished fetch is handed to `onReady` (the backend pushes `updateWebPage`).
/// A page's `og:image` is fetched in the same slot, under the same rules (allowed host, plain HTTP, no redirects) and
/// at most `maximumImageBytes`, and becomes a photo through `makePhoto`; a link whose answer is itself a picture is a
/// preview of type "photo". A picture that cannot be fetched or decoded leaves a preview without photo.
final class WebPagePreviews: Sendable {
    /// Fetches `path` from `host:port` within `timeout` seconds, reading at most `limit` bytes; the body of a 200
    /// answer, or an error for anything else (a redirect included: redirects are not followed).
    typealias Fetch =
        @Sendable (_ host: String, _ port: Int, _ path: String, _ timeout: Double, _ limit: Int)
        async throws -> [UInt8]

    /// What is known of a link now.
    enum Lookup: Equatable {
        /// Fetched: the page.
        case ready(WebPage)
        /// Being fetched: the id its `webPage` will have, and when the fetch began.
        case pending(id: Int64, date: Int32)
        /// No preview: not allowed, failed, nothing to show, or too many fetches running.
        case unavailable
    }

    /// Stores picture bytes as a photo on DC `dc` (its sizes made as an uploaded photo's are); `nil` when they are
    /// not a picture the server decodes. Called off the cooperative pool (it decodes, encodes and writes).
    typealias MakePhoto = @Sendable (_ picture: [UInt8], _ dc: Int32) -> Api.Photo?

    /// A fetched page's preview.
    struct WebPage: Equatable, Sendable {
        let id: Int64
        let url: WebPageURL
        let html: WebPageHTML
        /// The page's `og:image` as a photo, or the picture the link itself is.
        var photo: Api.Photo? = nil
        /// The link answered a picture, not a page (Telegram's type "photo").
        var isPicture = false

        /// A picture at least this wide or high may be shown large (`has_large_media`).
        static let largeMediaSide: Int32 = 320

        /// As `webPage`: type "photo" for a picture, else "article"; `photo` when there is one, `has_large_media` when
        /// its largest size is at least `largeMediaSide` on a side.
        var api: Api.WebPage {
            let summary = [html.siteName, html.title, html.description].map { $0 ?? "" }.joined(separator: "\n")
            var photoId: Int64 = 0
            var largest: Int32 = 0
            if case .photo(let fields)? = photo {
                photoId = fields.id
                for case .photoSize(let size) in fields.sizes { largest = max(largest, size.w, size.h) }
            }
            let hashed = url.url + "\n" + summary + "\n" + String(photoId)
            return .webPage(
                .init(
                    hasLargeMedia: largest >= Self.largeMediaSide, id: id, url: url.url, displayUrl: url.displayURL,
                    hash: Int32(bitPattern: CRC32.checksum(Array(hashed.utf8))), type: isPicture ? "photo" : "article",
                    siteName: html.siteName, title: html.title, description: html.description, photo: photo))
        }

        static func == (a: WebPage, b: WebPage) -> Bool {
            a.id == b.id && a.url == b.url && a.html == b.html && a.isPicture == b.isPicture
                && a.photo?.serialized() == b.photo?.serialized()
        }
    }

    private enum Entry {
        case pending(id: Int64, date: Int32, waiters: [DispatchSemaphore])
        /// `nil`: no preview (a failed fetch or a page with nothing to show).
        case known(WebPage?, expires: Double)
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// URLs in the order they were first met, for evicting the oldest.
        var order: [String] = []
        var inFlight = 0
        /// Calls blocked in `wait`.
        var waiting = 0
    }

    let rules: WebPageRules
    private let fetch: Fetch?
    private let clock: @Sendable () -> Double
    private let state = Mutex(State())
    private let onReady = Mutex<(@Sendable (WebPage?, _ id: Int64) -> Void)?>(nil)
    private let makePhoto = Mutex<MakePhoto?>(nil)
    /// Photos made of pictures, by the picture's SHA-256 and DC: a picture seen again (a page fetched again after the
    /// cache's hour, another page naming the same image) is the same photo, neither decoded nor stored twice.
    private let madePhotos = Mutex(MadePhotos())
    /// One picture decoded at a time: a decode holds tens of MB, and these run for whoever sends a link.
    private let photoQueue = DispatchQueue(label: "tg-server.webpage-photos")

    /// Previews under `rules`, fetched with `fetch` (`nil`: nothing is ever fetched).
    init(rules: WebPageRules, fetch: Fetch?, clock: @escaping @Sendable () -> Double) {
        self.rules = rules
        self.fetch = fetch
        self.clock = clock
    }

    /// Calls `body` with every finished fetch of a link that was pending (the page, or `nil` for none) and its id.
    func whenReady(_ body: @escaping @Sendable (WebPage?, _ id: Int64) -> Void) {
        onReady.withLock { $0 = body }
    }

    /// Makes previews' pictures into photos with `body` (until it is set, previews carry no photo).
    func makingPhotos(_ body: @escaping MakePhoto) {
        makePhoto.withLock { $0 = body }
    }

    /// What is known of `url`, starting its fetch when it is allowed, not known, and a fetch slot is free; a photo
    /// the fetch makes is stored on DC `dc` (the DC of the account whose message or call started it).
    func lookup(_ url: WebPageURL, dc: Int32) -> Lookup {
        guard let fetch, rules.allows(url) else { return .unavailable }
        let now = clock()
        let key = url.url
        let (lookup, start) = state.withLock { state -> (Lookup, Int64?) in
            switch state.entries[key] {
            case .pending(let id, let date, _)?:
                return (.pending(id: id, date: date), nil)
            case .known(let page, let expires)? where expires > now:
                return (page.map(Lookup.ready) ?? .unavailable, nil)
            default:
                break
            }
            guard state.inFlight < max(1, rules.maximumInFlight) else { return (.unavailable, nil) }
            state.inFlight += 1
            let id = ServerBackend.randomId() | 1
            let date = Int32(clamping: Int64(now))
            if state.entries.updateValue(.pending(id: id, date: date, waiters: []), forKey: key) == nil {
                state.order.append(key)
            }
            Self.evict(&state, capacity: max(rules.cacheCapacity, rules.maximumInFlight + 1))
            return (.pending(id: id, date: date), id)
        }
        if let id = start {
            let rules = rules
            Task.detached { [self] in
                let page = await preview(of: url, id: id, dc: dc, fetch: fetch)
                finish(key, id: id, page: page)
            }
        }
        return lookup
    }

    /// The preview of `url`: its page (and the page's `og:image`, fetched when allowed), or the picture it answers;
    /// `nil` when there is nothing to show.
    private func preview(of url: WebPageURL, id: Int64, dc: Int32, fetch: Fetch) async -> WebPage? {
        guard let bytes = try? await fetch(url.host, url.port, url.path, rules.timeout, rules.maximumBytes) else {
            return nil
        }
        if PictureFormat.sniff(bytes) != nil {
            guard let photo = await self.photo(of: bytes, dc: dc) else { return nil }
            return WebPage(id: id, url: url, html: WebPageHTML(parsing: []), photo: photo, isPicture: true)
        }
        let html = WebPageHTML(parsing: bytes)
        var photo: Api.Photo?
        if makePhoto.withLock({ $0 }) != nil, let reference = html.imageURL, let image = url.resolving(reference),
            rules.allows(image),
            let picture = try? await fetch(image.host, image.port, image.path, rules.timeout, rules.maximumImageBytes),
            PictureFormat.sniff(picture) != nil
        {
            photo = await self.photo(of: picture, dc: dc)
        }
        guard !html.isEmpty || photo != nil else { return nil }
        return WebPage(id: id, url: url, html: html, photo: photo)
    }

    /// `picture` as a photo made by `makePhoto` on a dispatch queue (it decodes, encodes and writes the store: not on
    /// the cooperative pool); `nil` when no maker is set or the picture is not one the server decodes.
    private func photo(of picture: [UInt8], dc: Int32) async -> Api.Photo? {
        guard let make = makePhoto.withLock({ $0 }) else { return nil }
        let key = Digest.sha256(picture) + withUnsafeBytes(of: dc.littleEndian, Array.init)
        if let known = madePhotos.withLock({ $0.photos[key] }) { return known }
        let made = await withCheckedContinuation { continuation in
            photoQueue.async { continuation.resume(returning: make(picture, dc)) }
        }
        if let made { madePhotos.withLock { $0.remember(made, for: key) } }
        return made
    }

    /// The photos made so far, at most `limit`, the oldest forgotten first.
    struct MadePhotos {
        static let limit = 1_024
        var photos: [[UInt8]: Api.Photo] = [:]
        var order: [[UInt8]] = []

        mutating func remember(_ photo: Api.Photo, for key: [UInt8]) {
            guard photos.updateValue(photo, forKey: key) == nil else { return }
            order.append(key)
            if order.count > Self.limit { photos[order.removeFirst()] = nil }
        }
    }

    /// What is known of `url` once its running fetch ends or `timeout` seconds pass, whichever is first. Blocks the
    /// calling thread (an RPC worker's, never the cooperative pool's) for at most `timeout`; with `maximumWaiting`
    /// calls already waiting it does not wait.
    func wait(for url: WebPageURL, timeout: Double) -> Lookup {
        let semaphore = DispatchSemaphore(value: 0)
        let key = url.url
        let registered = state.withLock { state -> Bool in
            guard state.waiting < rules.maximumWaiting,
                case .pending(let id, let date, var waiters)? = state.entries[key]
            else { return false }
            waiters.append(semaphore)
            state.entries[key] = .pending(id: id, date: date, waiters: waiters)
            state.waiting += 1
            return true
        }
        if registered {
            _ = semaphore.wait(timeout: .now() + max(0, timeout))
            state.withLock { $0.waiting -= 1 }
        }
        return known(url)
    }

    /// What is known of `url` now, without starting a fetch.
    func known(_ url: WebPageURL) -> Lookup {
        guard fetch != nil, rules.allows(url) else { return .unavailable }
        let now = clock()
        return state.withLock { state -> Lookup in
            switch state.entries[url.url] {
            case .pending(let id, let date, _)?: return .pending(id: id, date: date)
            case .known(let page, let expires)? where expires > now: return page.map(Lookup.ready) ?? .unavailable
            default: return .unavailable
            }
        }
    }

    private func finish(_ key: String, id: Int64, page: WebPage?) {
        let now = clock()
        let waiters = state.withLock { state -> [DispatchSemaphore] in
            state.inFlight -= 1
            guard case .pending(let pendingId, _, let waiters)? = state.entries[key], pendingId == id else { return [] }
            let lifetime = page == nil ? rules.failureLifetime : rules.pageLifetime
            state.entries[key] = .known(page, expires: now + lifetime)
            return waiters
        }
        for waiter in waiters { waiter.signal() }
        onReady.withLock { $0 }?(page, id)
    }

    /// Forgets the oldest known links until at most `capacity` are kept (fetches running are kept).
    private static func evict(_ state: inout State, capacity: Int) {
        var index = 0
        while state.entries.count > capacity, index < state.order.count {
            let key = state.order[index]
            if case .pending? = state.entries[key] {
                index += 1
                continue
            }
            state.entries[key] = nil
            state.order.remove(at: index)
        }
    }
}
