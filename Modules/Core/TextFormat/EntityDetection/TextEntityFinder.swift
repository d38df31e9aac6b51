public import SyncCore

/// Finds the entities a client detects in plain text by itself (TDLib's `getTextEntities`, td/telegram/
/// MessageEntity.cpp `find_entities`): mentions, bot commands, hashtags, cashtags, bank card numbers, `tg://` links,
/// URLs and e-mail addresses. Overlaps are resolved as TDLib does (sorted by offset, longer first, then the first
/// wins); offsets and lengths are UTF-16 code units, as the API counts them.
public enum TextEntityFinder {
    /// The entities of `text`; `botCommands: false` leaves commands out (chats without bots). TDLib also finds media
    /// timestamps (`1:30`), which have no API entity: they take part in resolving overlaps and are not returned
    /// (`mediaTimestamps: false` leaves them out of that too, as TDLib's markdown parser does).
    public static func entities(
        in text: String, botCommands: Bool = true, mediaTimestamps: Bool = true
    ) -> [MessageTextEntity] {
        let utf8 = UTF8Text(text)
        var found: [(range: Range<Int>, type: MessageTextEntityType)] = []
        found += SimpleMatchers.mentions(utf8).map { ($0, .mention) }
        if botCommands { found += SimpleMatchers.botCommands(utf8).map { ($0, .botCommand) } }
        found += SimpleMatchers.hashtags(utf8).map { ($0, .hashtag) }
        found += SimpleMatchers.cashtags(utf8).map { ($0, .cashtag) }
        found += SimpleMatchers.bankCardNumbers(utf8).map { ($0, .bankCard) }
        found += URLMatchers.telegramURLs(utf8).map { ($0, .url) }
        found += URLMatchers.urls(utf8).map { ($0.0, $0.1 ? .email : .url) }
        if mediaTimestamps { found += SimpleMatchers.mediaTimestamps(utf8).map { ($0, .unknown) } }
        found.removeAll { $0.range.isEmpty }
        // TDLib's order: offset, then the longer first (equal ranges keep the order found, all of one priority).
        let sorted = found.enumerated().sorted { lhs, rhs in
            if lhs.element.range.lowerBound != rhs.element.range.lowerBound {
                return lhs.element.range.lowerBound < rhs.element.range.lowerBound
            }
            if lhs.element.range.count != rhs.element.range.count {
                return lhs.element.range.count > rhs.element.range.count
            }
            return lhs.offset < rhs.offset
        }.map(\.element)
        var kept: [(range: Range<Int>, type: MessageTextEntityType)] = []
        var lastEnd = 0
        for entity in sorted where entity.range.lowerBound >= lastEnd {
            kept.append(entity)
            lastEnd = entity.range.upperBound
        }
        let offsets = UTF16Offsets(utf8)
        return kept.filter { $0.type != .unknown }.map {
            MessageTextEntity(range: offsets[$0.range.lowerBound]..<offsets[$0.range.upperBound], type: $0.type)
        }
    }
}

/// UTF-16 offsets of UTF-8 byte positions (a code point of four bytes is two UTF-16 units).
struct UTF16Offsets {
    private var table: [Int]

    init(_ text: UTF8Text) {
        table = [Int](repeating: 0, count: text.count + 1)
        var units = 0
        var index = 0
        while index < text.count {
            let first = text[index]
            let length = first < 0x80 ? 1 : first < 0xE0 ? 2 : first < 0xF0 ? 3 : 4
            for step in 0..<length where index + step <= text.count { table[index + step] = units }
            units += length == 4 ? 2 : 1
            index += length
        }
        table[text.count] = units
    }

    subscript(_ byteOffset: Int) -> Int { table[byteOffset] }
}
