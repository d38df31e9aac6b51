import TelegramApi

/// A link a message may get a preview for (core.telegram.org "Link previews"): its scheme, host and port, and the
/// path it is fetched at. Only `http` and `https` links are previews' candidates; only what this type accepts is ever
/// put on the wire, so the host is lower-case letters, digits, dots and hyphens, and the path printable ASCII with no
/// space (nothing that could end a request line).
struct WebPageURL: Hashable, Sendable {
    /// `http` or `https`.
    let scheme: String
    /// The host, lower-cased.
    let host: String
    let port: Int
    /// The path and query, starting with `/` (the fragment is dropped: it never leaves a browser).
    let path: String

    /// The most characters a link may have to be considered (Telegram's own previews give up on longer links).
    static let maximumLength = 2048

    /// `scheme://host[:port]/path`, as a cache key and the `webPage.url`.
    var url: String {
        let defaultPort = scheme == "https" ? 443 : 80
        return "\(scheme)://\(host)\(port == defaultPort ? "" : ":\(port)")\(path)"
    }

    /// The link as Telegram shows it under a preview: without the scheme, and without a path that is only `/`.
    var displayURL: String {
        let base = url.dropFirst(scheme.count + 3)
        return path == "/" ? String(base.dropLast()) : String(base)
    }

    /// The `host:port` an allow list names.
    var hostPort: String { "\(host):\(port)" }

    /// `text` as a link, or `nil` when it is not an http(s) link this server would fetch: user info (`user@host`),
    /// a bracketed (IPv6) or empty host, a port outside 1–65535, or a byte in the path outside printable ASCII.
    init?(_ text: String) {
        guard text.utf8.count <= Self.maximumLength else { return nil }
        let lower = text.lowercased()
        let rest: Substring
        if lower.hasPrefix("http://") {
            scheme = "http"
            rest = text.dropFirst(7)
        } else if lower.hasPrefix("https://") {
            scheme = "https"
            rest = text.dropFirst(8)
        } else {
            return nil
        }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var remainder = rest[authorityEnd...]
        if let hash = remainder.firstIndex(of: "#") { remainder = remainder[..<hash] }
        guard !authority.contains("@") else { return nil }
        let parts = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let host = parts[0].lowercased()
        let hostBytes = Array(host.utf8)
        guard !hostBytes.isEmpty, hostBytes.count <= 253,
            hostBytes.allSatisfy({
                ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D
            })
        else { return nil }
        self.host = host
        if parts.count == 2 {
            guard let port = Int(parts[1]), (1...65_535).contains(port) else { return nil }
            self.port = port
        } else {
            port = scheme == "https" ? 443 : 80
        }
        var path = String(remainder)
        if path.hasPrefix("?") || path.isEmpty { path = "/" + path }
        guard path.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        self.path = path
    }

    /// A link found on this page (`og:image`) made absolute against the page: an `http(s)://` link as it is, `//host/…`
    /// with this page's scheme, `/path` on this page's host and port, and a relative path beside this page's path;
    /// `nil` for anything else (`data:`, `javascript:`, …) or what `init?(_:)` refuses.
    func resolving(_ reference: String) -> WebPageURL? {
        let trimmed = reference  // `WebPageHTML` already folded and trimmed its white space
        guard !trimmed.isEmpty, trimmed.utf8.count <= Self.maximumLength else { return nil }
        let lower = trimmed.prefix(8).lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") { return WebPageURL(trimmed) }
        if trimmed.hasPrefix("//") { return WebPageURL(scheme + ":" + trimmed) }
        let origin = String(url.prefix(url.count - path.count))
        if trimmed.hasPrefix("/") { return WebPageURL(origin + trimmed) }
        // A scheme of another kind (`data:`, `javascript:`) before any `/`, `?` or `#`: not a page's resource.
        if let colon = trimmed.firstIndex(of: ":"),
            !trimmed[..<colon].contains(where: { $0 == "/" || $0 == "?" || $0 == "#" })
        {
            return nil
        }
        let directory = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let base = String(directory[...(directory.lastIndex(of: "/") ?? directory.startIndex)])
        return WebPageURL(origin + base + trimmed)
    }

    /// The first link of a message (core.telegram.org "Link previews": the first link gets the preview): the first
    /// `messageEntityUrl` or `messageEntityTextUrl` among `entities`, else the first `http://` or `https://` word of
    /// `text` (trailing punctuation left out, as Telegram's link detection does). `nil` when there is none, or when the
    /// first one is not a link this server would fetch.
    static func firstLink(in text: String, entities: [Api.MessageEntity]?) -> WebPageURL? {
        for entity in entities ?? [] {
            switch entity {
            case .messageEntityUrl(let url):
                let utf16 = text.utf16
                let start = Int(url.offset), end = Int(url.offset) + Int(url.length)
                guard start >= 0, url.length > 0, end <= utf16.count else { continue }
                let range =
                    utf16.index(utf16.startIndex, offsetBy: start)..<utf16.index(utf16.startIndex, offsetBy: end)
                return WebPageURL(String(decoding: Array(utf16[range]), as: UTF16.self))
            case .messageEntityTextUrl(let link):
                return WebPageURL(link.url)
            default:
                continue
            }
        }
        // Most messages have no link at all: a byte scan for "://" spares them the split into words.
        guard containsSchemeSeparator(text) else { return nil }
        for word in text.split(whereSeparator: { $0.isWhitespace }) {
            let lower = word.prefix(8).lowercased()
            guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { continue }
            var link = Substring(word)
            while let last = link.last, ".,;:!?)]}'\"".contains(last) { link = link.dropLast() }
            return WebPageURL(String(link))
        }
        return nil
    }

    /// Whether `text` holds "://" anywhere (every http or https link does).
    private static func containsSchemeSeparator(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count >= 3 else { return false }
            for index in 0..<(bytes.count - 2)
            where bytes[index] == 0x3A && bytes[index + 1] == 0x2F && bytes[index + 2] == 0x2F {
                return true
            }
            return false
        }
    }
}
