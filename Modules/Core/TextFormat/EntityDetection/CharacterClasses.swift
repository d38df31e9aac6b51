/// TDLib's simple Unicode categories (tdutils `UnicodeSimpleCategory`), from Swift's general categories.
enum SimpleCategory {
    case unknown, letter, decimalNumber, number, separator

    init(_ code: UInt32) {
        // ASCII as TDLib's table has it: only the space is a separator; controls, `\n` included, are unknown.
        if code < 0x80 {
            switch code {
            case 0x20: self = .separator
            case 0x30...0x39: self = .decimalNumber
            case 0x41...0x5A, 0x61...0x7A: self = .letter
            default: self = .unknown
            }
            return
        }
        guard let scalar = Unicode.Scalar(code) else {
            self = .unknown
            return
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: self = .letter
        case .decimalNumber: self = .decimalNumber
        case .letterNumber, .otherNumber: self = .number
        case .spaceSeparator, .lineSeparator, .paragraphSeparator: self = .separator
        default: self = .unknown
        }
    }
}

/// The character classes of TDLib's entity finder (td/telegram/MessageEntity.cpp).
enum CharacterClass {
    static func isWordCharacter(_ code: UInt32) -> Bool {
        switch SimpleCategory(code) {
        case .letter, .decimalNumber, .number: return true
        default: return code == UInt32(UInt8(ascii: "_"))
        }
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    static func isAlphaDigit(_ code: UInt32) -> Bool {
        (0x30...0x39).contains(code) || (0x61...0x7A).contains(code) || (0x41...0x5A).contains(code)
    }

    static func isAlphaDigitOrUnderscore(_ code: UInt32) -> Bool { isAlphaDigit(code) || code == 0x5F }

    static func isAlphaDigitOrUnderscoreOrMinus(_ code: UInt32) -> Bool {
        isAlphaDigitOrUnderscore(code) || code == 0x2D
    }

    /// Letters, digits, `_`, ZWNJ, the middle dot and the Sinhala block may be in a hashtag.
    static func isHashtagLetter(_ code: UInt32) -> (isLetter: Bool, category: SimpleCategory) {
        let category = SimpleCategory(code)
        if code == 0x5F || code == 0x200C || code == 0xB7 || (0xD80...0xDFF).contains(code) { return (true, category) }
        switch category {
        case .decimalNumber, .letter: return (true, category)
        default: return (false, category)
        }
    }

    /// Characters allowed in URLs outside ASCII: not separators, and of General Punctuation only ZWNJ, ZWJ and dashes.
    static func isURLUnicodeSymbol(_ code: UInt32) -> Bool {
        if (0x2000...0x206F).contains(code) {
            return code == 0x200C || code == 0x200D || (0x2010...0x2015).contains(code)
        }
        return SimpleCategory(code) != .separator
    }

    static func isURLPathSymbol(_ code: UInt32) -> Bool {
        switch code {
        case 0x0A, 0x3C, 0x3E, 0x22, 0xAB, 0xBB: return false
        default: return isURLUnicodeSymbol(code)
        }
    }
}
