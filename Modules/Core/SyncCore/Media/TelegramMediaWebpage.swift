public import Postbox
public import PostboxCoding

/// A link preview under a message's text (Telegram-iOS `TelegramMediaWebpage`; the API's `messageMediaWebPage`):
/// the page's site name, title and description and its link, or a page the server is still fetching
/// (`webPagePending`), which `updateWebPage` later fills in; its `type` ("article", "photo", …) and its picture
/// (`image`, Telegram-iOS `TelegramMediaWebpageLoadedContent.image`) as a photo like any other. The page's TL bytes
/// are kept, so nothing the server sent (embed, attributes) is lost though this version does not draw it.
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
    /// The page's kind as the server says it: "article", "photo", "video", … (Telegram-iOS draws the picture of a
    /// "photo" large, an "article"'s small: `defaultWebpageImageSizeIsSmall`).
    public var type: String?
    /// The page's picture (`webPage.photo`), fetched like a message's photo. Kept with PostboxCoding beside the
    /// Codable fields (key `img`).
    public var image: TelegramMediaImage? = nil
    /// The `WebPage` as the server sent it, for what is not modelled.
    public var apiBytes: [UInt8]

    enum CodingKeys: String, CodingKey {
        case webpageId, isPending, url, displayUrl, siteName, title, text, type, apiBytes
    }

    public init(
        webpageId: Int64, isPending: Bool, url: String? = nil, displayUrl: String? = nil, siteName: String? = nil,
        title: String? = nil, text: String? = nil, type: String? = nil, image: TelegramMediaImage? = nil,
        apiBytes: [UInt8] = []
    ) {
        self.webpageId = webpageId
        self.isPending = isPending
        self.url = url
        self.displayUrl = displayUrl
        self.siteName = siteName
        self.title = title
        self.text = text
        self.type = type
        self.image = image
        self.apiBytes = apiBytes
    }

    /// Shared by every message showing the page, so `updateWebPage` replaces it in all of them.
    public var id: MediaId? { MediaId(namespace: Namespaces.Media.cloudWebpage, id: webpageId) }

    /// Whether its picture is drawn large (Telegram-iOS `defaultWebpageImageSizeIsSmall`: a "photo", "video",
    /// "embed", "gif", "document" or "telegram_album" page; an "article"'s or any other page's picture is small).
    public var hasLargeImage: Bool {
        guard image != nil, let type else { return false }
        return ["photo", "video", "embed", "gif", "document", "telegram_album"].contains(type)
    }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        self = try decoder.decodeCodable(TelegramMediaWebpage.self, forKey: "m")
        image = try decoder.decodeObjectForKey("img", as: TelegramMediaImage.self)
    }

    public func encode(_ encoder: PostboxEncoder) {
        encoder.encodeCodable(self, forKey: "m")
        if let image { encoder.encodeObject(image, forKey: "img") }
    }

    public func isEqual(to other: Media) -> Bool { (other as? TelegramMediaWebpage) == self }
}
