import CUtf8proc

/// Terminal columns, as a terminal draws them (utf8proc's `utf8proc_charwidth`: East Asian wide and fullwidth
/// characters and emoji take two columns, combining marks and joiners none).
public enum DisplayWidth {
    /// The columns one grapheme cluster takes: its widest scalar, at least one unless it is only zero-width
    /// scalars; a cluster asked to be shown as emoji (U+FE0F) takes two.
    public static func of(_ character: Character) -> Int {
        var widest = 0
        for scalar in character.unicodeScalars {
            if scalar.value == 0xFE0F { widest = max(widest, 2) }
            widest = max(widest, Int(utf8proc_charwidth(Int32(bitPattern: scalar.value))))
        }
        return widest
    }

    /// The columns a string takes; ANSI escape sequences (`ESC [ … letter`) take none.
    public static func of(_ text: String) -> Int {
        var width = 0
        var inEscape = false
        for character in text {
            if inEscape {
                if character.isLetter { inEscape = false }
                continue
            }
            if character == "\u{1B}" {
                inEscape = true
                continue
            }
            width += of(character)
        }
        return width
    }
}
