import Foundation

/// How a command names a chat: `me` (Saved Messages), `@username`, `+phone` (digits, with or without `+`, at least 7),
/// `user:ID` / `chat:ID` / `channel:ID` (a supergroup or channel; a bare ID is a user), `secret:ID` (a secret chat, as `tg secret` prints it), or the chat's
/// title as stored (`"Bob"`).
public enum PeerReference: Equatable, Sendable, CustomStringConvertible {
    case me
    case username(String)
    case phone(String)
    case user(Int64)
    case group(Int64)
    case channel(Int64)
    case secretChat(Int32)
    case title(String)

    /// Reads a reference; `nil` for an empty one.
    public init?(_ text: String) {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        let lower = text.lowercased()
        if lower == "me" || lower == "self" {
            self = .me
        } else if text.hasPrefix("@"), text.count > 1 {
            self = .username(String(text.dropFirst()))
        } else if lower.hasPrefix("user:"), let id = Int64(text.dropFirst(5)), id > 0 {
            self = .user(id)
        } else if lower.hasPrefix("chat:"), let id = Int64(text.dropFirst(5)), id > 0 {
            self = .group(id)
        } else if lower.hasPrefix("channel:"), let id = Int64(text.dropFirst(8)), id > 0 {
            self = .channel(id)
        } else if lower.hasPrefix("secret:"), let id = Int32(text.dropFirst(7)), id > 0 {
            self = .secretChat(id)
        } else if text.hasPrefix("+"), Self.isPhone(text.dropFirst()) {
            self = .phone(String(text.dropFirst()))
        } else if Self.isPhone(Substring(text)), text.count >= 10 {
            // Ten or more digits are a phone number (Telegram's user ids of test servers are shorter).
            self = .phone(text)
        } else if !text.hasPrefix("+"), let id = Int64(text), id > 0 {
            self = .user(id)
        } else {
            self = .title(text)
        }
    }

    private static func isPhone(_ text: Substring) -> Bool {
        text.count >= 7 && text.count <= 15 && text.allSatisfy { $0.isASCII && $0.isNumber }
    }

    public var description: String {
        switch self {
        case .me: return "me"
        case .username(let name): return "@" + name
        case .phone(let phone): return "+" + phone
        case .user(let id): return "user:\(id)"
        case .group(let id): return "chat:\(id)"
        case .channel(let id): return "channel:\(id)"
        case .secretChat(let id): return "secret:\(id)"
        case .title(let title): return title
        }
    }
}
