public import SyncCore

/// Markdown as Telegram apps type it, parsed as TDLib's `parseMarkdown` does ("markdown v3", td/telegram/
/// MessageEntity.cpp `parse_markdown_v3` with `fix_formatted_text` before and after): `` `code` ``, fenced
/// ```` ```pre``` ```` blocks with an optional language line, `[text](link)` for links TDLib accepts, then `**bold**`,
/// `__italic__`, `~~strikethrough~~` and `||spoiler||`, whose markers must be exactly two characters and may not cut
/// through a mention, hashtag, command, cashtag or card number. Offsets are UTF-16 units.
public enum MarkdownParser {
    /// The plain text and its entities; text that is only spaces and line breaks becomes empty.
    public static func parse(_ markdown: String) -> (text: String, entities: [MessageTextEntity]) {
        let cleaned = InputCleaning.clean(Array(markdown.utf8))
        if InputCleaning.isBlank(cleaned) { return ("", []) }
        var (bytes, entities) = withoutBlockquote(cleaned)
        EntityFixing.removeEmpty(&entities)
        EntityFixing.fix(&entities)
        if InputCleaning.isBlank(bytes) { return ("", []) }
        EntityFixing.fix(&entities)
        return (String(decoding: bytes, as: UTF8.self), entities.map(\.messageTextEntity))
    }

    // MARK: - Code and pre

    static func withoutBlockquote(_ text: [UInt8]) -> ([UInt8], [FormattingEntity]) {
        var text = text
        var entities: [FormattingEntity] = []
        if text.contains(0x60) { (text, entities) = parsePre(text) }
        if !entities.contains(where: { $0.kind.isPre }) { return withoutPre(text) }
        var resultText: [UInt8] = []
        var result: [FormattingEntity] = []
        var resultLength = 0
        var left = text[...]
        var partBegin = 0
        func addPart(_ partEnd: Int) {
            let byteCount = UTF16Count.prefixBytes(left, units: partEnd - partBegin)
            let part = Array(left.prefix(byteCount))
            left = left.dropFirst(byteCount)
            let (partText, partEntities) = withoutPre(part)
            resultText += partText
            result += partEntities.map { entity in
                var moved = entity
                moved.offset += resultLength
                return moved
            }
            resultLength += UTF16Count.length(partText)
            partBegin = partEnd
        }
        for entity in entities {
            addPart(entity.offset)
            let byteCount = UTF16Count.prefixBytes(left, units: entity.length)
            resultText += left.prefix(byteCount)
            left = left.dropFirst(byteCount)
            var moved = entity
            moved.offset = resultLength
            result.append(moved)
            resultLength += entity.length
            partBegin = entity.end
        }
        addPart(partBegin + UTF16Count.length(left))
        return (resultText, result)
    }

    /// `` ` `` … `` ` `` is code and ```` ``` ```` … ```` ``` ```` pre (a first line of printable ASCII followed by a
    /// line break is its language); the closing run must be as long as the opening one.
    static func parsePre(_ text: [UInt8]) -> ([UInt8], [FormattingEntity]) {
        var result: [UInt8] = []
        var entities: [FormattingEntity] = []
        var offset = 0
        var i = 0
        let size = text.count
        while i < size {
            let c = text[i]
            if c != 0x60 {
                if UTF16Count.isCharacterStart(c) { offset += c >= 0xF0 ? 2 : 1 }
                result.append(c)
                i += 1
                continue
            }
            var j = i + 1
            while j < size && text[j] == 0x60 { j += 1 }
            let run = j - i
            if run == 1 || run == 3 {
                var length = 0
                var found = false
                var endTagBegin = j
                while endTagBegin < size {
                    let current = text[endTagBegin]
                    if current == 0x60 {
                        var endTagEnd = endTagBegin + 1
                        while endTagEnd < size && text[endTagEnd] == 0x60 { endTagEnd += 1 }
                        if endTagEnd - endTagBegin == run {
                            var entityBegin = j
                            var language = ""
                            if run == 3 {
                                var languageEnd = j
                                while languageEnd < endTagBegin - 1 && text[languageEnd] >= 33
                                    && text[languageEnd] <= 126
                                { languageEnd += 1 }
                                if languageEnd < endTagBegin - 1 && text[languageEnd] == 0x0A {
                                    language = String(decoding: text[entityBegin..<languageEnd], as: UTF8.self)
                                    entityBegin = languageEnd + 1
                                    length -= entityBegin - j
                                }
                            }
                            if !language.isEmpty {
                                entities.append(
                                    FormattingEntity(kind: .preCode, offset: offset, length: length, argument: language)
                                )
                            } else {
                                entities.append(
                                    FormattingEntity(kind: run == 3 ? .pre : .code, offset: offset, length: length))
                            }
                            result += text[entityBegin..<endTagBegin]
                            offset += length
                            i = endTagEnd
                            found = true
                            break
                        } else {
                            length += endTagEnd - endTagBegin
                            endTagBegin = endTagEnd
                            continue
                        }
                    } else if UTF16Count.isCharacterStart(current) {
                        length += current >= 0xF0 ? 2 : 1
                    }
                    endTagBegin += 1
                }
                if found { continue }
            }
            result += text[i..<j]
            offset += run
            i = j
        }
        return (result, entities)
    }

    // MARK: - Links and the splittable styles

    static func withoutPre(_ input: [UInt8]) -> ([UInt8], [FormattingEntity]) {
        var text = input
        var entities: [FormattingEntity] = []
        if text.contains(0x5B) { (text, entities) = parseTextURLs(text) }
        var haveSplittable = false
        if text.count >= 2 {
            for i in 0..<(text.count - 1) where [0x5F, 0x2A, 0x7E, 0x7C].contains(text[i]) && text[i] == text[i + 1] {
                haveSplittable = true
                break
            }
        }
        if !haveSplittable {
            EntityFixing.sort(&entities)
            return (text, entities)
        }
        let found = findSplittable(text, entities)
        var removed: [Int] = []
        for entity in found {
            removed.append(entity.offset - 1)
            removed.append(entity.end + 1)
        }
        removed.sort()
        var newText: [UInt8] = []
        newText.reserveCapacity(text.count)
        var j = 0
        var offset = 0
        var i = 0
        while i < text.count {
            let c = text[i]
            if UTF16Count.isCharacterStart(c) { offset += c >= 0xF0 ? 2 : 1 }
            if j < removed.count && offset == removed[j] {
                i += 1
                offset += 1
                j += 1
            } else {
                newText.append(c)
            }
            i += 1
        }
        entities += found
        for index in entities.indices {
            let beforeBegin = removed.partitionPoint { $0 <= entities[index].offset }
            let beforeEnd = removed.partitionPoint { $0 <= entities[index].end }
            entities[index].length -= 2 * (beforeEnd - beforeBegin)
            entities[index].offset -= 2 * beforeBegin
        }
        EntityFixing.removeEmpty(&entities)
        EntityFixing.sort(&entities)
        return (newText, entities)
    }

    /// `[text](link)` with a non-empty text and a link TDLib accepts; brackets do not nest.
    static func parseTextURLs(_ text: [UInt8]) -> ([UInt8], [FormattingEntity]) {
        var result: [UInt8] = []
        var entities: [FormattingEntity] = []
        var resultLength = 0
        var previous = 0
        let size = text.count
        var i = 0
        while i < size {
            guard text[i] == 0x5B else {
                i += 1
                continue
            }
            let textBegin = i
            var textEnd = textBegin + 1
            while textEnd < size && text[textEnd] != 0x5D { textEnd += 1 }
            i = textEnd
            if textEnd == size || textEnd == textBegin + 1 {
                i += 1
                continue
            }
            let urlBegin = textEnd + 1
            if urlBegin == size || text[urlBegin] != 0x28 {
                i += 1
                continue
            }
            var urlEnd = urlBegin + 1
            while urlEnd < size && text[urlEnd] != 0x29 { urlEnd += 1 }
            i = urlEnd
            if urlEnd < size,
                let link = LinkChecking.checkedLink(String(decoding: text[(urlBegin + 1)..<urlEnd], as: UTF8.self))
            {
                let before = text[previous..<textBegin]
                result += before
                resultLength += UTF16Count.length(before)
                let label = text[(textBegin + 1)..<textEnd]
                let labelLength = UTF16Count.length(label)
                entities.append(
                    FormattingEntity(kind: .textUrl, offset: resultLength, length: labelLength, argument: link))
                result += label
                resultLength += labelLength
                previous = urlEnd + 1
            }
            i += 1
        }
        result += text[previous...]
        return (result, entities)
    }

    /// Pairs of `**`, `__`, `~~`, `||` (exactly two) whose marker positions do not fall inside or at the edges of an
    /// entity found in the text or of a link.
    static func findSplittable(_ text: [UInt8], _ entities: [FormattingEntity]) -> [FormattingEntity] {
        var unallowed = Set<Int>()
        for entity in entities {
            unallowed.insert(entity.offset + 1)
            unallowed.insert(entity.end + 1)
        }
        let string = String(decoding: text, as: UTF8.self)
        for entity in TextEntityFinder.entities(in: string, mediaTimestamps: false) {
            switch entity.type {
            case .url, .email: continue
            default: break
            }
            for k in 0...entity.range.count { unallowed.insert(entity.range.lowerBound + k + 1) }
        }
        var result: [FormattingEntity] = []
        var start = [Int](repeating: 0, count: 5)
        var offset = 0
        var i = 0
        while i + 1 < text.count {
            let c = text[i]
            if UTF16Count.isCharacterStart(c) { offset += c >= 0xF0 ? 2 : 1 }
            if (c == 0x5F || c == 0x2A || c == 0x7E || c == 0x7C) && text[i] == text[i + 1]
                && !unallowed.contains(offset + 1)
            {
                var j = i + 2
                while j != text.count && text[j] == text[i] && !unallowed.contains(offset + (j - i)) { j += 1 }
                if j == i + 2 {
                    let kind: FormattingEntity.Kind
                    switch c {
                    case 0x5F: kind = .italic
                    case 0x2A: kind = .bold
                    case 0x7E: kind = .strikethrough
                    default: kind = .spoiler
                    }
                    let index = kind.splittableIndex
                    if start[index] != 0 {
                        let length = offset - start[index] - 1
                        if length > 0 {
                            result.append(FormattingEntity(kind: kind, offset: start[index], length: length))
                        }
                        start[index] = 0
                    } else {
                        start[index] = offset + 1
                    }
                }
                offset += j - i - 1
                i = j - 1
            }
            i += 1
        }
        return result
    }
}

extension Array {
    /// The index of the first element for which `belongs` is false, given that it is true for a prefix.
    fileprivate func partitionPoint(_ belongs: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if belongs(self[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
