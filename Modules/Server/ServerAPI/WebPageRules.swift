/// Which pages tg-server may fetch to build link previews, and the bounds of every fetch (tg-server
/// `--webpage-allow`). Nothing is fetched unless its `host:port` is named here: the default allows nothing.
public struct WebPageRules: Sendable, Equatable {
    /// `host:port` pairs (host lower-cased) whose pages may be fetched; a link whose host and port are not one of
    /// these exactly (an IP literal in another spelling, another port, a redirect target) gets no preview.
    public var allowed: Set<String>
    /// Seconds a whole fetch (connect, request, answer) may take.
    public var timeout: Double
    /// The most bytes of an answer read (headers included); a larger page gets no preview.
    public var maximumBytes: Int
    /// The most bytes of a page's `og:image` answer read (headers included); a larger picture leaves the preview
    /// without photo.
    public var maximumImageBytes: Int
    /// The most a page picture's width + height may be (its pixels are decoded whole to make its sizes: 5,000 keeps
    /// one under 25 MB of RGBA, where an uploaded photo may have 10,000).
    public var maximumImageSideSum: Int
    /// Fetches at once; a link met while this many are running gets no preview (and is not queued).
    public var maximumInFlight: Int
    /// Pages (and failures) remembered, by URL; the oldest is forgotten first.
    public var cacheCapacity: Int
    /// Seconds a fetched page is served from the cache before it is fetched again.
    public var pageLifetime: Double
    /// Seconds a failed fetch is remembered (no preview, no new fetch) before the link is tried again.
    public var failureLifetime: Double
    /// Seconds `messages.getWebPagePreview` waits for a fetch it started before answering `webPagePending`.
    public var previewWait: Double
    /// Calls waiting at once (each holds an RPC worker thread); past it a call answers `webPagePending` at once.
    public var maximumWaiting: Int

    public init(
        allowed: Set<String> = [], timeout: Double = 5, maximumBytes: Int = 512 << 10, maximumImageBytes: Int = 5 << 20,
        maximumImageSideSum: Int = 5_000,
        maximumInFlight: Int = 4,
        cacheCapacity: Int = 1024, pageLifetime: Double = 3600, failureLifetime: Double = 60, previewWait: Double = 3,
        maximumWaiting: Int = 8
    ) {
        self.allowed = allowed
        self.timeout = timeout
        self.maximumBytes = maximumBytes
        self.maximumImageBytes = maximumImageBytes
        self.maximumImageSideSum = maximumImageSideSum
        self.maximumInFlight = maximumInFlight
        self.cacheCapacity = cacheCapacity
        self.pageLifetime = pageLifetime
        self.failureLifetime = failureLifetime
        self.previewWait = previewWait
        self.maximumWaiting = maximumWaiting
    }

    /// `HOST[:PORT]` as an allow-list entry (`host:port`, port 80 when none is given), or `nil` when it is not one.
    public static func entry(_ text: String) -> String? {
        guard let url = WebPageURL("http://" + text), url.path == "/", !text.contains("/") else { return nil }
        return url.hostPort
    }

    /// Whether `url` may be fetched: plain `http` (tg-server has no TLS client, so `https` links get no preview) to an
    /// allowed `host:port`.
    func allows(_ url: WebPageURL) -> Bool {
        url.scheme == "http" && allowed.contains(url.hostPort)
    }
}
