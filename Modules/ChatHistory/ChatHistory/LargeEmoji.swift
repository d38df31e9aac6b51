/// Whether a text is emoji only, as Telegram decides which messages to draw large (Telegram-iOS's large-emoji setting,
/// on by default: one to three emoji, nothing else, not even spaces between them).
public enum LargeEmoji {
    /// The number of emoji in `text` when it holds only emoji (each a grapheme cluster: a sequence joined with ZWJ, a
    /// flag, a keycap, a modifier sequence counts once); nil when anything else is in it or it is empty.
    public static func count(in text: String) -> Int? {
        guard !text.isEmpty else { return nil }
        var count = 0
        for character in text {
            guard isEmoji(character) else { return nil }
            count += 1
        }
        return count
    }

    /// Whether one grapheme cluster is an emoji: presented as emoji by default, or asked to be (U+FE0F), a keycap
    /// (U+20E3), or a regional-indicator flag. Digits, `#` and `*` alone are text, not emoji.
    public static func isEmoji(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return false }
        if scalars.contains(where: { $0.value == 0x20E3 }) { return true }
        if scalars.contains(where: { $0.value == 0xFE0F }) && first.properties.isEmoji { return true }
        if (0x1F1E6...0x1F1FF).contains(first.value) { return scalars.count == 2 }
        return first.properties.isEmojiPresentation
    }
}
