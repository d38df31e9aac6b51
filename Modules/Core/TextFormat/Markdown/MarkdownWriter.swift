import Postbox
public import SyncCore

/// Text and entities back into markdown (TDLib's `getMarkdownText`, td/telegram/MessageEntity.cpp `get_markdown_v3`):
/// bold, italic, strikethrough, spoiler, code, pre (with a printable-ASCII language) and text links become markers;
/// the entities markdown cannot express (underline, blockquotes, mentions by id, custom emoji) stay entities of the
/// new text. If parsing the markdown would not give the same text and entities back, the input is returned as it was.
public enum MarkdownWriter {
    public static func markdown(
        text: String, entities: [MessageTextEntity]
    ) -> (text: String, entities: [MessageTextEntity]) {
        var input = entities.compactMap(FormattingEntity.init)
        guard input.count == entities.count else { return (text, entities) }
        EntityFixing.removeEmpty(&input)
        EntityFixing.fix(&input)
        let original = input
        if input.isEmpty { return (text, []) }
        let bytes = Array(text.utf8)
        func isValidLanguage(_ language: String) -> Bool { language.utf8.allSatisfy { $0 >= 33 && $0 <= 126 } }
        var result: [UInt8] = []
        var kept: [FormattingEntity] = []
        var stack: [(entity: FormattingEntity, addedBefore: Int)] = []
        var current = 0
        var offset = 0
        var added = 0
        var position = 0
        while position <= bytes.count {
            let c: UInt8 = position < bytes.count ? bytes[position] : 0
            if position == bytes.count || UTF16Count.isCharacterStart(c) {
                while let top = stack.last, offset >= top.entity.end {
                    var keep = false
                    switch top.entity.kind {
                    case .italic: result += Array("__".utf8); added += 2
                    case .bold: result += Array("**".utf8); added += 2
                    case .strikethrough: result += Array("~~".utf8); added += 2
                    case .spoiler: result += Array("||".utf8); added += 2
                    case .textUrl:
                        result += Array("](".utf8) + Array(top.entity.argument.utf8) + [0x29]
                        added += 3 + UTF16Count.length(Array(top.entity.argument.utf8))
                    case .code: result.append(0x60); added += 1
                    case .pre: result += Array("```".utf8); added += 3
                    case .preCode:
                        if isValidLanguage(top.entity.argument) {
                            result += Array("```".utf8)
                            added += 3
                        } else {
                            keep = true
                        }
                    default: keep = true
                    }
                    if keep {
                        var entity = top.entity
                        entity.offset += top.addedBefore
                        entity.length += added - top.addedBefore
                        kept.append(entity)
                    }
                    stack.removeLast()
                }
                while current < input.count && offset >= input[current].offset {
                    let entity = input[current]
                    switch entity.kind {
                    case .italic: result += Array("__".utf8); added += 2
                    case .bold: result += Array("**".utf8); added += 2
                    case .strikethrough: result += Array("~~".utf8); added += 2
                    case .spoiler: result += Array("||".utf8); added += 2
                    case .textUrl: result.append(0x5B); added += 1
                    case .code: result.append(0x60); added += 1
                    case .pre:
                        result += Array("```".utf8)
                        added += 3
                        if c != 0x0A {
                            result.append(0x0A)
                            added += 1
                        }
                    case .preCode:
                        if isValidLanguage(entity.argument) {
                            result += Array("```".utf8) + Array(entity.argument.utf8)
                            added += 3 + UTF16Count.length(Array(entity.argument.utf8))
                            if c != 0x0A {
                                result.append(0x0A)
                                added += 1
                            }
                        }
                    default: break
                    }
                    stack.append((entity, added))
                    current += 1
                }
                if position < bytes.count { offset += c >= 0xF0 ? 2 : 1 }
            }
            if position == bytes.count { break }
            result.append(c)
            position += 1
        }
        EntityFixing.sort(&kept)
        let markdown = String(decoding: result, as: UTF8.self)
        // The round trip must hold; only markers can be checked here (the parser takes no entities), as TDLib does for them.
        if kept.isEmpty {
            let parsed = MarkdownParser.parse(markdown)
            if parsed.text != text || parsed.entities != original.map(\.messageTextEntity) {
                return (text, original.map(\.messageTextEntity))
            }
        }
        return (markdown, kept.map(\.messageTextEntity))
    }
}

extension FormattingEntity {
    /// SyncCore's entity in TDLib's terms (`nil` for a kind TDLib has no name for).
    init?(_ entity: MessageTextEntity) {
        let kind: Kind
        var argument = ""
        switch entity.type {
        case .mention: kind = .mention
        case .hashtag: kind = .hashtag
        case .botCommand: kind = .botCommand
        case .url: kind = .url
        case .email: kind = .email
        case .bold: kind = .bold
        case .italic: kind = .italic
        case .code: kind = .code
        case .pre(let language):
            if let language {
                kind = .preCode
                argument = language
            } else {
                kind = .pre
            }
        case .textUrl(let url):
            kind = .textUrl
            argument = url
        case .textMention(let peerId):
            kind = .mentionName
            argument = String(peerId.id.rawValue)
        case .phoneNumber: kind = .phoneNumber
        case .strikethrough: kind = .strikethrough
        case .blockQuote(let collapsed): kind = collapsed ? .expandableBlockQuote : .blockQuote
        case .underline: kind = .underline
        case .bankCard: kind = .bankCard
        case .spoiler: kind = .spoiler
        case .customEmoji(let fileId):
            kind = .customEmoji
            argument = String(fileId)
        case .cashtag: kind = .cashtag
        case .unknown: return nil
        }
        self.init(kind: kind, offset: entity.range.lowerBound, length: entity.range.count, argument: argument)
    }
}
