import Testing
import TextLayout

/// Digits, `#` and `*` are emoji keycap bases that Noto Color Emoji covers: they must stay in the text font (a time
/// "18:10" once came out in wide grey emoji digits), while emoji still come from Noto Color Emoji.
@Suite struct TextLayoutFontTests {
    @Test func digitsAndKeycapBasesStayInTheTextFont() {
        for text in ["18:10", "0:07", "#hashtag *star*", "at 12:30 today", "call 555 0100"] {
            let runs = TextLayout.layout(text, width: 1000).lines.flatMap(\.runs)
            #expect(runs.allSatisfy { $0.fontFamily == "Noto Sans" }, "\(text): \(runs.map { ($0.range, $0.fontFamily) })")
        }
        let mixed = TextLayout.layout("it is 18:10 📸 1️⃣", width: 1000).lines.flatMap(\.runs)
        #expect(mixed.filter { $0.fontFamily == "Noto Color Emoji" }.map(\.range) == [12..<14, 15..<18])
        #expect(mixed.filter { $0.fontFamily == "Noto Sans" }.map(\.range) == [0..<12, 14..<15])
    }
}
