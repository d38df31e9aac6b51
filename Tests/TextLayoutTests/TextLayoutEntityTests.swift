import SyncCore
import Testing
import TextLayout

@Suite struct TextLayoutEntityTests {
    @Test func boldIsWiderThanRegular() {
        let text = "Bold words are wider than regular ones"
        let regular = TextLayout.layout(text, width: 1000)
        let bold = TextLayout.layout(text, entities: [MessageTextEntity(range: 0..<10, type: .bold)], width: 1000)
        #expect(bold.bounds.width > regular.bounds.width)
        // Only the bold range widens: the clusters before its end move, the advance after it is the same.
        #expect(bold.clusters[10].x > regular.clusters[10].x)
        let regularTail = regular.clusters.last!.x - regular.clusters[12].x
        let boldTail = bold.clusters.last!.x - bold.clusters[12].x
        #expect(abs(regularTail - boldTail) < 0.01)
        #expect(bold.styledEntities.map(\.styles) == [.bold])
    }

    @Test func eachEntityTypeGetsItsStyle() throws {
        let text = "bold italic code pre strike under link @mention #tag"
        func entity(_ word: String, _ type: MessageTextEntityType) throws -> MessageTextEntity {
            let start = try utf16Offset(of: word, in: text)
            return MessageTextEntity(range: start..<(start + word.utf16.count), type: type)
        }
        let entities = [
            try entity("bold", .bold), try entity("italic", .italic), try entity("code", .code),
            try entity("pre", .pre(language: "swift")), try entity("strike", .strikethrough),
            try entity("under", .underline), try entity("link", .textUrl(url: "https://t.me")),
            try entity("@mention", .mention), try entity("#tag", .hashtag), try entity("tag", .spoiler),
        ]
        let laid = TextLayout.layout(text, entities: entities, width: 1000)
        #expect(
            laid.styledEntities.map { $0.styles } == [
                .bold, .italic, .monospace, .monospace, .strikethrough, .underline, .link, .link, .link, [],
            ])
        // Code is in the monospaced family.
        let code = entities[2].range
        #expect(laid.lines.flatMap(\.runs).contains { $0.range == code && $0.fontFamily == "Noto Sans Mono" })
        #expect(laid.hitAreas.map(\.entity) == [entities[6], entities[7], entities[8]])
    }

    @Test func linkHitAreaCoversItsTextOnly() throws {
        let text = "Read the docs at https://docs.gtk.org/Pango/ before you write any layout code at all, please."
        let start = try utf16Offset(of: "https://", in: text)
        let url = MessageTextEntity(range: start..<(start + "https://docs.gtk.org/Pango/".utf16.count), type: .url)
        for width in [120, 200, 1000] {
            let laid = TextLayout.layout(text, entities: [url], width: width)
            let area = try #require(laid.hitAreas.first)
            #expect(area.range == url.range)
            // Zero-width clusters (the space a line wrapped at, which Pango gives no width) have nothing over them.
            for cluster in laid.clusters where abs(cluster.advance) > 0.01 {
                let line = laid.lines[cluster.line]
                let point = TextPoint(x: cluster.x + cluster.advance / 2, y: (line.rect.y + line.rect.maxY) / 2)
                let inside = url.range.contains(cluster.range.lowerBound)
                #expect(laid.entity(at: point) == (inside ? url : nil), "cluster \(cluster.range) at width \(width)")
            }
            #expect(laid.entity(at: TextPoint(x: -1, y: 1)) == nil)
            #expect(laid.entity(at: TextPoint(x: 1, y: laid.bounds.maxY + 1)) == nil)
        }
        // Broken over lines, the area has a rectangle on each.
        let narrow = TextLayout.layout(text, entities: [url], width: 120)
        let rects = try #require(narrow.hitAreas.first).rects
        #expect(Set(rects.map(\.y)).count >= 2)
    }

    @Test(arguments: [
        "مرحبا @alice كيف حالك اليوم؟ أتمنى أن تكون بخير وأن يكون يومك جميلا",
        "Xin chào @alice, bạn có khỏe không? Hẹn gặp lại vào cuối tuần này nhé",
        "你好 @alice 今天过得怎么样？周末见面吧 👋",
    ])
    func mentionHitAreaInEveryScript(text: String) throws {
        let start = try utf16Offset(of: "@alice", in: text)
        let mention = MessageTextEntity(range: start..<(start + 6), type: .mention)
        for width in [120, 1000] {
            let laid = TextLayout.layout(text, entities: [mention], width: width)
            // Zero-width clusters (the space a line wrapped at, which Pango gives no width) have nothing over them.
            for cluster in laid.clusters where abs(cluster.advance) > 0.01 {
                let line = laid.lines[cluster.line]
                let point = TextPoint(x: cluster.x + cluster.advance / 2, y: (line.rect.y + line.rect.maxY) / 2)
                let inside = mention.range.contains(cluster.range.lowerBound)
                #expect(laid.entity(at: point) == (inside ? mention : nil), "cluster \(cluster.range) at \(width)")
            }
        }
    }

    @Test func entitiesOutsideTheTextAreClampedOrDropped() {
        let text = "ab👍cd"  // 👍 is UTF-16 offsets 2..<4
        let entities = [
            MessageTextEntity(range: -5..<1, type: .bold),  // clamped to 0..<1
            MessageTextEntity(range: 4..<100, type: .url),  // clamped to 4..<6
            MessageTextEntity(range: 10..<20, type: .italic),  // dropped
            MessageTextEntity(range: 3..<4, type: .mention),  // the low half: its start moves to the pair's, 2..<4
            MessageTextEntity(range: 1..<3, type: .underline),  // an end inside the pair moves to its start: 1..<2
            MessageTextEntity(range: 3..<3, type: .bold),  // empty: dropped
        ]
        let laid = TextLayout.layout(text, entities: entities, width: 100)
        #expect(laid.styledEntities.map(\.range) == [0..<1, 4..<6, 2..<4, 1..<2])
        #expect(laid.hitAreas.map(\.range) == [4..<6, 2..<4])
    }
}
