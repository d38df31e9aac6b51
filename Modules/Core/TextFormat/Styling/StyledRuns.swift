public import Postbox
public import SyncCore

/// How a run of text is drawn: the styles of the entities covering it (Telegram-iOS `stringWithAppliedEntities`
/// gives the same as attributes of an attributed string).
public struct TextRunAttributes: Hashable, Sendable {
    /// Font and decoration styles.
    public struct Styles: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let bold = Styles(rawValue: 1 << 0)
        public static let italic = Styles(rawValue: 1 << 1)
        public static let underline = Styles(rawValue: 1 << 2)
        public static let strikethrough = Styles(rawValue: 1 << 3)
        public static let spoiler = Styles(rawValue: 1 << 4)
        /// Monospaced: code or pre.
        public static let monospace = Styles(rawValue: 1 << 5)
        public static let blockQuote = Styles(rawValue: 1 << 6)
    }

    /// What tapping the run opens.
    public enum Link: Hashable, Sendable {
        case url(String)
        case email(String)
        case mention(String)
        case textMention(PeerId)
        case hashtag(String)
        case cashtag(String)
        case botCommand(String)
        case phoneNumber(String)
        case bankCard(String)
    }

    public var styles: Styles = []
    public var link: Link?
    /// The language of the pre block the run is in.
    public var preLanguage: String?
    /// The custom emoji that replaces the run.
    public var customEmojiId: Int64?

    public init(styles: Styles = [], link: Link? = nil, preLanguage: String? = nil, customEmojiId: Int64? = nil) {
        self.styles = styles
        self.link = link
        self.preLanguage = preLanguage
        self.customEmojiId = customEmojiId
    }
}

/// A run of text with one set of attributes; `range` in UTF-16 units.
public struct StyledRun: Hashable, Sendable {
    public var range: Range<Int>
    public var text: String
    public var attributes: TextRunAttributes
}

/// Text and entities as consecutive runs covering the whole text, each with the attributes of every entity over it,
/// adjacent runs always different (Telegram-iOS `TextFormat/StringWithAppliedEntities.swift` does the same with
/// attributed-string attributes). Entities past the text are clipped, an edge inside a surrogate pair moves to the pair's
/// start (an emoji is never cut), and overlapping entities combine.
public enum StyledRuns {
    public static func runs(text: String, entities rawEntities: [MessageTextEntity]) -> [StyledRun] {
        let units = Array(text.utf16)
        let length = units.count
        let entities = rawEntities.compactMap { normalized($0, units: units) }
        var boundaries: Set<Int> = [0, length]
        for entity in entities {
            boundaries.insert(min(max(entity.range.lowerBound, 0), length))
            boundaries.insert(min(max(entity.range.upperBound, 0), length))
        }
        let cuts = boundaries.sorted()
        var runs: [StyledRun] = []
        for (start, end) in zip(cuts, cuts.dropFirst()) where start < end {
            var attributes = TextRunAttributes()
            for entity in entities where entity.range.lowerBound <= start && entity.range.upperBound >= end {
                apply(entity, to: &attributes, units: units)
            }
            if let last = runs.last, last.attributes == attributes, last.range.upperBound == start {
                runs[runs.count - 1].range = last.range.lowerBound..<end
            } else {
                runs.append(StyledRun(range: start..<end, text: "", attributes: attributes))
            }
        }
        for index in runs.indices {
            runs[index].text = String(decoding: units[runs[index].range], as: UTF16.self)
        }
        return runs
    }

    /// The entity clipped to the text with its edges on code-point boundaries; `nil` when nothing is left.
    static func normalized(_ entity: MessageTextEntity, units: [UInt16]) -> MessageTextEntity? {
        func snap(_ position: Int) -> Int {
            let clipped = min(max(position, 0), units.count)
            if clipped > 0 && clipped < units.count && UTF16.isTrailSurrogate(units[clipped]) { return clipped - 1 }
            return clipped
        }
        let range = snap(entity.range.lowerBound)..<max(snap(entity.range.lowerBound), snap(entity.range.upperBound))
        return range.isEmpty ? nil : MessageTextEntity(range: range, type: entity.type)
    }

    static func apply(_ entity: MessageTextEntity, to attributes: inout TextRunAttributes, units: [UInt16]) {
        let clipped = max(entity.range.lowerBound, 0)..<min(entity.range.upperBound, units.count)
        let covered = clipped.isEmpty ? "" : String(decoding: units[clipped], as: UTF16.self)
        switch entity.type {
        case .bold: attributes.styles.insert(.bold)
        case .italic: attributes.styles.insert(.italic)
        case .underline: attributes.styles.insert(.underline)
        case .strikethrough: attributes.styles.insert(.strikethrough)
        case .spoiler: attributes.styles.insert(.spoiler)
        case .code: attributes.styles.insert(.monospace)
        case .pre(let language):
            attributes.styles.insert(.monospace)
            attributes.preLanguage = language
        case .blockQuote: attributes.styles.insert(.blockQuote)
        case .url: attributes.link = .url(covered)
        case .textUrl(let url): attributes.link = .url(url)
        case .email: attributes.link = .email(covered)
        case .mention: attributes.link = .mention(String(covered.dropFirst()))
        case .textMention(let peerId): attributes.link = .textMention(peerId)
        case .hashtag: attributes.link = .hashtag(covered)
        case .cashtag: attributes.link = .cashtag(covered)
        case .botCommand: attributes.link = .botCommand(covered)
        case .phoneNumber: attributes.link = .phoneNumber(covered)
        case .bankCard: attributes.link = .bankCard(covered)
        case .customEmoji(let fileId): attributes.customEmojiId = fileId
        case .unknown: break
        }
    }
}
