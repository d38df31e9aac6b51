import SyncCore

/// A 44-message window (Telegram-iOS `historyMessageCount`) of mixed text: Latin, Vietnamese, Arabic with Latin
/// inside, CJK and emoji, short and long, with bold, italic, code, URL, mention and hashtag entities.
enum Window {
    static let width = 300
    static let messageCount = 44

    static let texts: [String] = [
        "Hi! Are we still on for tomorrow?",
        "The quick brown fox jumps over the lazy dog while the five boxing wizards jump quickly. See "
            + "https://telegram.org/blog for the details, @alice, and tag it #release.",
        "Tiếng Việt có dấu: những người bạn cùng nhau đi học mỗi sáng trên con đường làng quen thuộc.",
        "مرحبا بالعالم، هذه رسالة تجريبية مع Telegram في وسطها وبعض الكلمات الأخرى بعدها.",
        "我能吞下玻璃而不伤身体。日本語の文章も混ざっています。한국어 문장도 있습니다。",
        "👨‍👩‍👧‍👦 family photo 🎉🎉 and 🇺🇦🇯🇵 flags 👍🏽",
        "Run `swift build --target TextLayout` first, then **the tests**: swift test --filter TextLayoutTests",
        "ok",
        "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et "
            + "dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris.",
        "Xin chào 👋 — مرحبا — こんにちは — hello @bob #greetings",
        "Đã gửi lúc 10:45, xem tại https://t.me/telegraph/42",
    ]

    /// The entities of `text`: the first word bold, the second italic, and every URL, @mention, #hashtag and
    /// `code` span found by a plain scan.
    static func entities(_ text: String) -> [MessageTextEntity] {
        var result: [MessageTextEntity] = []
        var words: [(Range<Int>, Substring)] = []
        var offset = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let count = word.utf16.count
            words.append((offset..<(offset + count), word))
            offset += count + 1
        }
        for (index, (range, word)) in words.enumerated() where !range.isEmpty {
            if index == 0 { result.append(MessageTextEntity(range: range, type: .bold)) }
            if index == 1 { result.append(MessageTextEntity(range: range, type: .italic)) }
            if word.hasPrefix("https://") { result.append(MessageTextEntity(range: range, type: .url)) }
            if word.hasPrefix("@") { result.append(MessageTextEntity(range: range, type: .mention)) }
            if word.hasPrefix("#") { result.append(MessageTextEntity(range: range, type: .hashtag)) }
            if word.hasPrefix("`") { result.append(MessageTextEntity(range: range, type: .code)) }
        }
        return result
    }

    /// 44 messages cycling through the texts, each with its entities.
    static let messages: [(text: String, entities: [MessageTextEntity])] = (0..<messageCount).map { index in
        let text = texts[index % texts.count]
        return (text, entities(text))
    }
}
