/// The entity matchers that need no domain knowledge: mentions, bot commands, hashtags, cashtags and bank card numbers,
/// with TDLib's rules (td/telegram/MessageEntity.cpp `match_mentions` … `match_bank_card_numbers`). Each returns byte
/// ranges of `text`.
enum SimpleMatchers {
    private static let at = UInt8(ascii: "@"), slash = UInt8(ascii: "/"), hash = UInt8(ascii: "#"),
        dollar = UInt8(ascii: "$")

    /// `@username`: 2–32 of `[a-zA-Z0-9_]`, not after a word character and not followed by one; 2- and 3-letter names
    /// only for the few short usernames Telegram has (`@gif`, `@nft`, `@pic`, `@ufc`, `@vid`).
    static func mentions(_ text: UTF8Text) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var index = 0
        let end = text.count
        while let found = text.bytes[index...].firstIndex(of: at) {
            index = found
            if index != 0 && CharacterClass.isWordCharacter(text.previous(index)) {
                index += 1
                continue
            }
            index += 1
            let nameStart = index
            while index != end && CharacterClass.isAlphaDigitOrUnderscore(UInt32(text[index])) { index += 1 }
            let size = index - nameStart
            if size < 2 || size > 32 { continue }
            if CharacterClass.isWordCharacter(text.codeOrZero(at: index)) { continue }
            if size < 4 {
                let name = text.string(nameStart..<index).lowercased()
                guard ["gif", "nft", "pic", "ufc", "vid"].contains(name) else { continue }
            }
            result.append((nameStart - 1)..<index)
        }
        return result
    }

    /// `/command` of 1–64 `[a-zA-Z0-9_]`, optionally `@bot` of 3–32, not after or before a word character, `/`, `<`
    /// or `>`.
    static func botCommands(_ text: UTF8Text) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var index = 0
        let end = text.count
        func isBoundary(_ code: UInt32) -> Bool {
            CharacterClass.isWordCharacter(code) || code == 0x2F || code == 0x3C || code == 0x3E
        }
        while let found = text.bytes[index...].firstIndex(of: slash) {
            index = found
            if index != 0 && isBoundary(text.previous(index)) {
                index += 1
                continue
            }
            index += 1
            let commandStart = index
            while index != end && CharacterClass.isAlphaDigitOrUnderscore(UInt32(text[index])) { index += 1 }
            var commandEnd = index
            let size = commandEnd - commandStart
            if size < 1 || size > 64 { continue }
            if index != end && text[index] == at {
                index += 1
                let botStart = index
                while index != end && CharacterClass.isAlphaDigitOrUnderscore(UInt32(text[index])) { index += 1 }
                let botSize = index - botStart
                if botSize < 3 || botSize > 32 { continue }
                commandEnd = index
            }
            if isBoundary(text.codeOrZero(at: index)) { continue }
            result.append((commandStart - 1)..<commandEnd)
        }
        return result
    }

    /// `#hashtag`: 1–256 hashtag letters (at least one a letter; past 256 the tag ends there), optionally `@username`
    /// of 3+ characters, not after a hashtag letter and not followed by another `#`.
    static func hashtags(_ text: UTF8Text) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var index = 0
        let end = text.count
        while let found = text.bytes[index...].firstIndex(of: hash) {
            index = found
            if index != 0 && CharacterClass.isHashtagLetter(text.previous(index)).isLetter {
                index += 1
                continue
            }
            index += 1
            let tagStart = index
            var size = 0
            var tagEnd: Int?
            var wasLetter = false
            while index != end {
                let (code, next) = text.next(index)
                let (isLetter, category) = CharacterClass.isHashtagLetter(code)
                if !isLetter { break }
                index = next
                if size == 255 { tagEnd = index }
                if size != 256 {
                    wasLetter = wasLetter || category == .letter
                    size += 1
                }
            }
            var end2 = tagEnd ?? index
            if size < 1 { continue }
            if end2 == index && index != end && text[index] == at {
                var usernameEnd = index + 1
                while usernameEnd != end && usernameEnd - index < 33
                    && CharacterClass.isAlphaDigitOrUnderscore(UInt32(text[usernameEnd]))
                {
                    usernameEnd += 1
                }
                if usernameEnd - index - 1 >= 3 {
                    index = usernameEnd
                    end2 = usernameEnd
                }
            }
            if index != end && text[index] == hash { continue }
            if !wasLetter { continue }
            result.append((tagStart - 1)..<end2)
        }
        return result
    }

    /// `$TICKER`: 1–8 capital letters (or `1INCH`), optionally `@username` of 3–32, not after a hashtag letter or
    /// `$` and not followed by one.
    static func cashtags(_ text: UTF8Text) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var index = 0
        let end = text.count
        while let found = text.bytes[index...].firstIndex(of: dollar) {
            index = found
            if index != 0 {
                let previous = text.previous(index)
                if CharacterClass.isHashtagLetter(previous).isLetter || previous == 0x24 {
                    index += 1
                    continue
                }
            }
            index += 1
            let tagStart = index
            if end - index >= 5 && Array(text.bytes[index..<(index + 5)]) == Array("1INCH".utf8) {
                index += 5
            } else {
                while index != end && text[index] >= 0x41 && text[index] <= 0x5A { index += 1 }
            }
            var tagEnd = index
            let size = tagEnd - tagStart
            if size < 1 || size > 8 { continue }
            if index != end && text[index] == at {
                var usernameEnd = index + 1
                while usernameEnd != end && CharacterClass.isAlphaDigitOrUnderscore(UInt32(text[usernameEnd])) {
                    usernameEnd += 1
                }
                let length = usernameEnd - index - 1
                if length >= 3 && length <= 32 {
                    tagEnd = usernameEnd
                    index = usernameEnd
                }
            }
            if tagEnd != end {
                let code = text.next(index).code
                if CharacterClass.isHashtagLetter(code).isLetter || code == 0x24 { continue }
            }
            result.append((tagStart - 1)..<tagEnd)
        }
        return result
    }

    /// Runs of 13–19 digits with spaces or dashes between them, not after `.`, `,`, `+`, `-`, `_` or a letter and
    /// not before `-`, `_` or a letter, that pass the Luhn check and the networks' length rules.
    static func bankCardNumbers(_ text: UTF8Text) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var index = 0
        let end = text.count
        func isCardByte(_ byte: UInt8) -> Bool { CharacterClass.isDigit(byte) || byte == 0x20 || byte == 0x2D }
        while true {
            while index != end && !CharacterClass.isDigit(text[index]) { index += 1 }
            if index == end { break }
            if index != 0 {
                let previous = text.previous(index)
                if previous == 0x2E || previous == 0x2C || previous == 0x2B || previous == 0x2D || previous == 0x5F
                    || SimpleCategory(previous) == .letter
                {
                    while index != end && isCardByte(text[index]) { index += 1 }
                    continue
                }
            }
            let cardStart = index
            var digits = 0
            while index != end && isCardByte(text[index]) {
                if text[index] == 0x20 && digits >= 16 && digits <= 19 && digits == index - cardStart { break }
                if CharacterClass.isDigit(text[index]) { digits += 1 }
                index += 1
            }
            if digits < 13 || digits > 19 { continue }
            var cardEnd = index
            while !CharacterClass.isDigit(text[cardEnd - 1]) { cardEnd -= 1 }
            if cardEnd - cardStart > 2 * digits - 1 { continue }
            if cardEnd != end {
                let next = text.next(cardEnd).code
                if next == 0x2D || next == 0x5F || SimpleCategory(next) == .letter { continue }
            }
            if isValidBankCard(Array(text.bytes[cardStart..<cardEnd])) { result.append(cardStart..<cardEnd) }
        }
        return result
    }

    /// Luhn, then the card networks' lengths (Visa, Mastercard, American Express, UnionPay, MIR).
    static func isValidBankCard(_ bytes: [UInt8]) -> Bool {
        let digits = bytes.filter(CharacterClass.isDigit).map { Int($0 - 0x30) }
        guard digits.count >= 13 else { return false }
        var sum = 0
        for (position, digit) in digits.reversed().enumerated() {
            sum += position % 2 == 0 ? digit : (digit < 5 ? 2 * digit : 2 * digit - 9)
        }
        if sum % 10 != 0 { return false }
        let prefix1 = digits[0]
        let prefix2 = prefix1 * 10 + digits[1]
        let prefix4 = (prefix2 * 10 + digits[2]) * 10 + digits[3]
        let count = digits.count
        if prefix1 == 4 { return count == 13 || count == 16 || count == 18 || count == 19 }
        if (51...55).contains(prefix2) || (2221...2720).contains(prefix4) { return count == 16 }
        if prefix2 == 34 || prefix2 == 37 { return count == 15 }
        if prefix2 == 62 || prefix2 == 81 { return count >= 16 }
        if (2200...2204).contains(prefix4) { return count == 16 }
        return true
    }

    /// Media timestamps (`1:30`, `1:02:03`): digits and colons not touching a word character, with TDLib's limits on
    /// each part (td/telegram/MessageEntity.cpp `match_media_timestamps`, `find_media_timestamps`). The API has no
    /// entity for them; they matter only for which other entities an overlap keeps.
    static func mediaTimestamps(_ text: UTF8Text) -> [Range<Int>] {
        var result: [Range<Int>] = []
        let end = text.count
        var index = 0
        func isDigitOrColon(_ byte: UInt8) -> Bool { byte == 0x3A || CharacterClass.isDigit(byte) }
        while let colon = text.bytes[index...].firstIndex(of: 0x3A) {
            index = colon
            var start = index
            while start != 0 && isDigitOrColon(text[start - 1]) { start -= 1 }
            var stop = index
            while stop + 1 != end && isDigitOrColon(text[stop + 1]) { stop += 1 }
            stop += 1
            if start != index && stop != index + 1 && CharacterClass.isDigit(text[index + 1]) {
                index = stop
                if start != 0 && CharacterClass.isWordCharacter(text.previous(start)) { continue }
                if stop != end && CharacterClass.isWordCharacter(text.next(stop).code) { continue }
                if isValidMediaTimestamp(text.string(start..<stop)) { result.append(start..<stop) }
            } else {
                index = stop
            }
        }
        return result
    }

    static func isValidMediaTimestamp(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, parts.count <= 3, parts.last!.count == 2, let seconds = Int(parts.last!), seconds < 60
        else {
            return false
        }
        if parts.count == 2 { return !parts[0].isEmpty && parts[0].count <= 4 }
        guard !parts[0].isEmpty, !parts[1].isEmpty, parts[0].count <= 2, parts[1].count <= 2,
            let minutes = Int(parts[1])
        else {
            return false
        }
        return minutes < 60
    }
}
