import SyncCore

/// ANSI SGR sequences for the entity styles a terminal can show (ECMA-48 "Select Graphic Rendition").
enum TerminalStyle {
    static let reset = "\u{1B}[0m"
    static let dim = "\u{1B}[2m"
    static let outgoing = "\u{1B}[36m"
    static let incoming = "\u{1B}[37m"

    /// The SGR parameters that switch `entity`'s style on (nil for entities a terminal does not style).
    static func parameters(_ type: MessageTextEntityType) -> String? {
        switch type {
        case .bold: return "1"
        case .italic: return "3"
        case .underline: return "4"
        case .strikethrough: return "9"
        case .code, .pre: return "33"
        case .url, .textUrl, .mention, .textMention, .hashtag, .cashtag, .email, .phoneNumber, .botCommand:
            return "34;4"
        case .spoiler: return "7"
        default: return nil
        }
    }
}
