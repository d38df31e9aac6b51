/// TDLib's normalisation of a formatted text's entities (td/telegram/MessageEntity.cpp `fix_entities`,
/// `are_entities_valid`, `split_entities`, `remove_intersecting_entities`): continuous entities never intersect;
/// bold, italic, underline, strikethrough and spoiler are split where they cross another entity and merged where
/// they touch; nothing nests inside code or pre.
enum EntityFixing {
    static func sort(_ entities: inout [FormattingEntity]) {
        entities.sort(by: FormattingEntity.precedes)
    }

    static func removeEmpty(_ entities: inout [FormattingEntity]) {
        entities.removeAll { $0.length <= 0 || ($0.kind == .textUrl && $0.argument.isEmpty) }
    }

    static func fix(_ entities: inout [FormattingEntity]) {
        sort(&entities)
        if areValid(entities) { return }
        var continuous: [FormattingEntity] = []
        var splittable: [FormattingEntity] = []
        var blockquotes: [FormattingEntity] = []
        for entity in entities {
            if entity.kind.isSplittable {
                splittable.append(entity)
            } else if entity.kind.isBlockquote {
                blockquotes.append(entity)
            } else {
                continuous.append(entity)
            }
        }
        removeIntersecting(&continuous)
        if !blockquotes.isEmpty {
            removeIntersecting(&blockquotes)
            removeIntersectingBlockquote(&continuous, blockquotes)
            continuous += blockquotes
            sort(&continuous)
        }
        if !splittable.isEmpty {
            split(&splittable, around: continuous)
            if continuous.isEmpty {
                entities = splittable
                return
            }
            continuous += splittable
            sort(&continuous)
        }
        entities = continuous
    }

    static func areValid(_ entities: [FormattingEntity]) -> Bool {
        var endPosition = [Int](repeating: -1, count: 5)
        var stack: [FormattingEntity] = []
        var mask = 0
        func bit(_ kind: FormattingEntity.Kind) -> Int { 1 << kind.rawValue }
        let splittableMask = [FormattingEntity.Kind.bold, .italic, .underline, .strikethrough, .spoiler].reduce(0) {
            $0 | bit($1)
        }
        let blockquoteMask = bit(.blockQuote) | bit(.expandableBlockQuote)
        let continuousMask = (0...21).compactMap(FormattingEntity.Kind.init).filter(\.isContinuous).reduce(0) {
            $0 | bit($1)
        }
        for entity in entities {
            while let last = stack.last, entity.offset >= last.end {
                mask -= bit(last.kind)
                stack.removeLast()
            }
            if let parent = stack.last {
                if entity.end > parent.end { return false }
                if mask & bit(entity.kind) != 0 { return false }
                if parent.kind.isPre { return false }
                if entity.kind.isPre && (mask & ~blockquoteMask) != 0 { return false }
                if (entity.kind.isContinuous || entity.kind.isBlockquote) && (mask & continuousMask) != 0 {
                    return false
                }
                if entity.kind.isBlockquote && (mask & blockquoteMask) != 0 { return false }
                if mask & splittableMask != 0 { return false }
            }
            if entity.kind.isSplittable {
                let index = entity.kind.splittableIndex
                if endPosition[index] >= entity.offset { return false }
                endPosition[index] = entity.end
            }
            stack.append(entity)
            mask += bit(entity.kind)
        }
        return true
    }

    /// Keeps an entity only when it starts at or after the end of the last one kept (sorted input).
    static func removeIntersecting(_ entities: inout [FormattingEntity]) {
        var lastEnd = 0
        entities = entities.filter { entity in
            guard entity.offset >= lastEnd else { return false }
            lastEnd = entity.end
            return true
        }
    }

    static func removeIntersectingBlockquote(_ entities: inout [FormattingEntity], _ blockquotes: [FormattingEntity]) {
        var index = 0
        entities = entities.filter { entity in
            while index < blockquotes.count && blockquotes[index].end <= entity.offset { index += 1 }
            if index < blockquotes.count
                && (blockquotes[index].end < entity.end
                    || (entity.offset < blockquotes[index].offset && blockquotes[index].offset < entity.end))
            {
                return false
            }
            return true
        }
    }

    /// Merges splittable entities of one type that touch or overlap, and cuts them at the edges of `others` (nothing
    /// of them is kept inside a pre or code entity).
    static func split(_ entities: inout [FormattingEntity], around others: [FormattingEntity]) {
        var begin = [Int](repeating: 0, count: 5)
        var end = [Int](repeating: 0, count: 5)
        let kinds: [FormattingEntity.Kind] = [.bold, .italic, .underline, .strikethrough, .spoiler]
        var result: [FormattingEntity] = []
        var position = 0
        func flush(_ offset: Int) {
            for kind in kinds {
                let index = kind.splittableIndex
                if end[index] != 0 && begin[index] < offset {
                    if end[index] <= offset {
                        result.append(
                            FormattingEntity(kind: kind, offset: begin[index], length: end[index] - begin[index]))
                        begin[index] = 0
                        end[index] = 0
                    } else {
                        result.append(FormattingEntity(kind: kind, offset: begin[index], length: offset - begin[index]))
                        begin[index] = offset
                    }
                }
            }
        }
        func add(until endOffset: Int) {
            while position < entities.count {
                let entity = entities[position]
                if entity.offset >= endOffset { break }
                let index = entity.kind.splittableIndex
                if entity.offset <= end[index] && end[index] != 0 {
                    if entity.end > end[index] { end[index] = entity.end }
                } else {
                    flush(entity.offset)
                    begin[index] = entity.offset
                    end[index] = entity.end
                }
                position += 1
            }
            flush(endOffset)
        }
        var stack: [FormattingEntity] = []
        func addOffset(_ offset: Int) {
            while let last = stack.last, offset >= last.end {
                let oldCount = result.count
                add(until: last.end)
                if last.kind.isPre { result.removeSubrange(oldCount...) }
                stack.removeLast()
            }
            add(until: offset)
        }
        for other in others {
            addOffset(other.offset)
            stack.append(other)
        }
        addOffset(Int.max)
        entities = result
        sort(&entities)
    }
}
