/// Telegram's length limits on what people write, counted as Telegram counts them: in UTF-16 code units, the unit
/// entity offsets use too (core.telegram.org "Styled text with message entities": "offsets and lengths are in UTF-16
/// code units"). Counting characters (grapheme clusters) instead lets combining marks and emoji through: one
/// "character" can be thousands of units. The limits are those `help.getConfig` and `help.getAppConfig` announce.
enum TextLimit: Sendable, CaseIterable {
    /// A message's text (`message_length_max`): `MESSAGE_TOO_LONG`.
    case message
    /// A media caption (`caption_length_max`): `MEDIA_CAPTION_TOO_LONG`.
    case caption
    /// A first name: `FIRSTNAME_INVALID`.
    case firstName
    /// A last name: `LASTNAME_INVALID`.
    case lastName
    /// A profile's bio (`about_length_limit_default`): `ABOUT_TOO_LONG`.
    case about
    /// A group's title: `CHAT_TITLE_TOO_LONG` (Telegram documents no name for it; clients cap titles at 128).
    case chatTitle

    /// The most UTF-16 code units allowed.
    var maximum: Int {
        switch self {
        case .message: 4096
        case .caption: 1024
        case .firstName, .lastName: 64
        case .about: 70
        case .chatTitle: 128
        }
    }

    /// What Telegram answers when the limit is passed.
    var error: APIError {
        switch self {
        case .message: .messageTooLong
        case .caption: .badRequest("MEDIA_CAPTION_TOO_LONG")
        case .firstName: .badRequest("FIRSTNAME_INVALID")
        case .lastName: .badRequest("LASTNAME_INVALID")
        case .about: .badRequest("ABOUT_TOO_LONG")
        case .chatTitle: .badRequest("CHAT_TITLE_TOO_LONG")
        }
    }

    /// Throws this limit's error when `text` is longer than `maximum` UTF-16 code units.
    func check(_ text: String) throws(APIError) {
        if text.utf16.count > maximum { throw error }
    }
}

extension String {
    /// The longest prefix of whole characters that fits in `units` UTF-16 code units (a password hint is clipped,
    /// not refused).
    func clipped(toUTF16Units units: Int) -> String {
        var used = 0
        var end = startIndex
        for character in self {
            used += character.utf16.count
            guard used <= units else { break }
            end = index(after: end)
        }
        return String(self[..<end])
    }
}
