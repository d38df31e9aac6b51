public import Postbox
public import PostboxCoding

/// A link preview under a message's text (Telegram-iOS `TelegramMediaWebpage`; the API's `messageMediaWebPage`):
/// the page's site name, title and description and its link, or a page the server is still fetching
/// (`webPagePending`), which `updateWebPage` later fills in. The page's TL bytes are kept, so nothing the server sent
/// (photo, embed, attributes) is lost though this version does not draw it.
public struct TelegramMediaWebpage: Media, Hashable, Codable {
    /// The server's page id: a pending page and the page that replaces it share it.
    public var webpageId: Int64
    /// The page is still being fetched: only `url` may be known.
    public var isPending: Bool
    public var url: String?
    /// The link as shown under the preview (no scheme).
    public var displayUrl: String?
    public var siteName: String?
    public var title: String?
    public var text: String?
    /// The `WebPage` as the server sent it, for what is not modelled.
    public var apiBytes: [UInt8]

    public init(
        webpageId: Int64, isPending: Bool, url: String? = nil, displayUrl: String? = nil, siteName: String? = nil,
        title: String? = nil, text: String? = nil, apiBytes: [UInt8] = []
    ) {
        self.webpageId = webpageId
        self.isPending = isPending
        self.url = url
        self.displayUrl = displayUrl
        self.siteName = siteName
        self.title = title
        self.text = text
        self.apiBytes = apiBytes
    }

    /// Shared by every message showing the page, so `updateWebPage` replaces it in all of them.
    public var id: MediaId? { MediaId(namespace: Namespaces.Media.cloudWebpage, id: webpageId) }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        self = try decoder.decodeCodable(TelegramMediaWebpage.self, forKey: "m")
    }

    public func encode(_ encoder: PostboxEncoder) {
        encoder.encodeCodable(self, forKey: "m")
    }

    public func isEqual(to other: Media) -> Bool { (other as? TelegramMediaWebpage) == self }
}
