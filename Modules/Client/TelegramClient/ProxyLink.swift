import Foundation
public import MTProtoTransport

/// A proxy as people pass them around: Telegram's links — `tg://socks?server=…&port=…&user=…&pass=…` and
/// `tg://proxy?server=…&port=…&secret=…` (an MTProxy; the secret in hex or base64, plain, `dd` or `ee`), the same on
/// `https://t.me/socks?…` and `https://t.me/proxy?…` — or a URL (`socks5://[user:password@]host:port`).
public enum ProxyLink {
    /// Why a link could not be used.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let text: String
        public let reason: String
        public var description: String {
            "'\(ProxyLink.redacted(text))' is not a proxy link (\(reason)) — write socks5://[USER:PASSWORD@]HOST:PORT, "
                + "tg://socks?server=HOST&port=PORT[&user=USER&pass=PASSWORD] or tg://proxy?server=HOST&port=PORT&secret=S"
        }
    }

    /// The proxy `text` names.
    public static func parse(_ text: String) throws(ParseError) -> ConnectionProxy {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let url = URLComponents(string: trimmed), let scheme = url.scheme?.lowercased() else {
            throw ParseError(text: text, reason: "not a URL")
        }
        switch scheme {
        case "socks5", "socks5h":
            guard let host = url.host, !host.isEmpty else { throw ParseError(text: text, reason: "no host") }
            guard let port = url.port, (1...65535).contains(port) else {
                throw ParseError(text: text, reason: "no port")
            }
            return .socks5(
                SOCKS5Proxy(host: host, port: port, credentials: try credentials(url.user, url.password, text: text)))
        case "tg", "https", "http":
            let isTelegramLink =
                scheme == "tg" ? true : ["t.me", "telegram.me"].contains(url.host?.lowercased() ?? "")
            let kind = scheme == "tg" ? (url.host ?? "") : String(url.path.drop { $0 == "/" })
            guard isTelegramLink else { throw ParseError(text: text, reason: "not a Telegram link") }
            let query = Dictionary(
                (url.queryItems ?? []).map { ($0.name.lowercased(), $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
            switch kind.lowercased() {
            case "socks":
                guard let server = query["server"], !server.isEmpty else {
                    throw ParseError(text: text, reason: "no server")
                }
                guard let port = query["port"].flatMap(Int.init), (1...65535).contains(port) else {
                    throw ParseError(text: text, reason: "no port")
                }
                return .socks5(
                    SOCKS5Proxy(
                        host: server, port: port, credentials: try credentials(query["user"], query["pass"], text: text)
                    ))
            case "proxy":
                guard let server = query["server"], !server.isEmpty else {
                    throw ParseError(text: text, reason: "no server")
                }
                guard let port = query["port"].flatMap(Int.init), (1...65535).contains(port) else {
                    throw ParseError(text: text, reason: "no port")
                }
                guard let secretText = query["secret"], !secretText.isEmpty else {
                    throw ParseError(text: text, reason: "no secret")
                }
                do {
                    return .mtproxy(MTProxy(host: server, port: port, secret: try MTProxySecret(parsing: secretText)))
                } catch {
                    throw ParseError(text: text, reason: error.description)
                }
            default:
                throw ParseError(text: text, reason: "not a proxy link")
            }
        default:
            throw ParseError(text: text, reason: "scheme '\(scheme)'")
        }
    }

    private static func credentials(
        _ user: String?, _ password: String?, text: String
    ) throws(ParseError) -> SOCKS5Proxy.Credentials? {
        let user = user ?? ""
        let password = password ?? ""
        if user.isEmpty && password.isEmpty { return nil }
        guard !user.isEmpty, !password.isEmpty else {
            throw ParseError(text: text, reason: "a username needs a password and the other way round")
        }
        guard user.utf8.count <= 255, password.utf8.count <= 255 else {
            throw ParseError(text: text, reason: "a username or password over 255 bytes")
        }
        return .init(username: user, password: password)
    }

    /// `text` with any password replaced by `***`, for messages and logs.
    public static func redacted(_ text: String) -> String {
        guard var url = URLComponents(string: text) else { return "***" }
        if url.password != nil { url.password = "***" }
        let hidden: Set<String> = ["pass", "secret"]
        if let items = url.queryItems, items.contains(where: { hidden.contains($0.name.lowercased()) }) {
            url.queryItems = items.map {
                hidden.contains($0.name.lowercased()) ? URLQueryItem(name: $0.name, value: "***") : $0
            }
        }
        return url.string ?? "***"
    }
}
