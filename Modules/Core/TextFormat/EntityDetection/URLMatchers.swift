/// URLs and e-mail addresses as TDLib finds them (td/telegram/MessageEntity.cpp `match_tg_urls`, `match_urls`,
/// `is_email_address`, `fix_url`, `is_common_tld`): byte ranges of `text`, each with whether it is an e-mail.
enum URLMatchers {
    private static let badPathEnd: Set<UInt8> = Set(".:;,('?!`".utf8)

    /// `tg://`, `ton://` and `tonsite://` links: a host of `[a-z0-9_-]{1,253}` and an optional path.
    static func telegramURLs(_ text: UTF8Text) -> [Range<Int>] {
        var result: [Range<Int>] = []
        let end = text.count
        var index = 0
        func lower(_ i: Int) -> UInt8 { text[i] | 0x20 }
        while end - index > 5 {
            guard let colon = text.bytes[index...].firstIndex(of: UInt8(ascii: ":")) else { break }
            index = colon
            var urlStart: Int?
            if end - index >= 3 && text[index + 1] == 0x2F && text[index + 2] == 0x2F {
                if index >= 2 && lower(index - 2) == 0x74 && lower(index - 1) == 0x67 {
                    urlStart = index - 2
                } else if index >= 3 && lower(index - 3) == 0x74 && lower(index - 2) == 0x6F && lower(index - 1) == 0x6E
                {
                    urlStart = index - 3
                } else if index >= 7
                    && Array(text.bytes[(index - 7)..<index]).map({ $0 | 0x20 }) == Array("tonsite".utf8)
                {
                    // TDLib starts a tonsite:// link at "ton" of "tonsite", as written.
                    urlStart = index - 3
                }
            }
            guard let start = urlStart else {
                index += 1
                continue
            }
            index += 3
            let hostStart = index
            while index != end && index - hostStart != 253
                && CharacterClass.isAlphaDigitOrUnderscoreOrMinus(UInt32(text[index]))
            {
                index += 1
            }
            if index == hostStart { continue }
            if index != end && (text[index] == 0x2F || text[index] == 0x3F || text[index] == 0x23) {
                var pathEnd = index + 1
                while pathEnd != end {
                    let (code, next) = text.next(pathEnd)
                    if !CharacterClass.isURLPathSymbol(code) { break }
                    pathEnd = next
                }
                while pathEnd > index + 1 && badPathEnd.contains(text[pathEnd - 1]) { pathEnd -= 1 }
                if text[index] == 0x2F || pathEnd > index + 1 { index = pathEnd }
            }
            result.append(start..<index)
        }
        return result
    }

    private static func isProtocolSymbol(_ code: UInt32) -> Bool {
        if code < 0x80 { return CharacterClass.isAlphaDigit(code) || code == 0x2B || code == 0x2D }
        return SimpleCategory(code) != .separator
    }

    private static func isUserDataSymbol(_ code: UInt32) -> Bool {
        switch code {
        case 0x0A, 0x2F, 0x5B, 0x5D, 0x7B, 0x7D, 0x28, 0x29, 0x27, 0x60, 0x3C, 0x3E, 0x22, 0x40, 0xAB, 0xBB:
            return false
        default: return CharacterClass.isURLUnicodeSymbol(code)
        }
    }

    private static func isDomainSymbol(_ code: UInt32) -> Bool {
        if code < 0xC0 { return code == 0x2E || CharacterClass.isAlphaDigitOrUnderscoreOrMinus(code) || code == 0x7E }
        return CharacterClass.isURLUnicodeSymbol(code)
    }

    /// Candidates around each dot: user data, domain, port, path; then the protocol before them, if any.
    static func urlCandidates(_ text: UTF8Text) -> [Range<Int>] {
        var result: [Range<Int>] = []
        let end = text.count
        var begin = 0
        while true {
            guard let dot = text.bytes[begin...].firstIndex(of: UInt8(ascii: ".")), dot + 1 != end else { break }
            if text[dot + 1] == 0x20 {
                begin = dot + 2
                continue
            }
            var domainStart = dot
            while domainStart != begin {
                let previous = text.previousStart(domainStart)
                if !isDomainSymbol(text.next(previous).code) { break }
                domainStart = previous
            }
            var lastAt: Int?
            var domainEnd = dot
            while domainEnd != end {
                let (code, next) = text.next(domainEnd)
                if code == 0x40 {
                    lastAt = domainEnd
                } else if !isDomainSymbol(code) {
                    break
                }
                domainEnd = next
            }
            if lastAt != nil {
                while domainStart != begin {
                    let previous = text.previousStart(domainStart)
                    if !isUserDataSymbol(text.next(previous).code) { break }
                    domainStart = previous
                }
            }
            var urlEnd = domainEnd
            if urlEnd != end && text[urlEnd] == 0x3A {
                var portEnd = urlEnd + 1
                while portEnd != end && CharacterClass.isDigit(text[portEnd]) { portEnd += 1 }
                var portStart = urlEnd + 1
                while portStart != portEnd && text[portStart] == 0x30 { portStart += 1 }
                if portStart != portEnd && portEnd - portStart <= 5, let port = Int(text.string(portStart..<portEnd)),
                    port <= 65_535
                {
                    urlEnd = portEnd
                }
            }
            if urlEnd != end && (text[urlEnd] == 0x2F || text[urlEnd] == 0x3F || text[urlEnd] == 0x23) {
                var pathEnd = urlEnd + 1
                while pathEnd != end {
                    let (code, next) = text.next(pathEnd)
                    if !CharacterClass.isURLPathSymbol(code) { break }
                    pathEnd = next
                }
                while pathEnd > urlEnd + 1 && badPathEnd.contains(text[pathEnd - 1]) { pathEnd -= 1 }
                if text[urlEnd] == 0x2F || pathEnd > urlEnd + 1 { urlEnd = pathEnd }
            }
            while urlEnd > dot + 1 && text[urlEnd - 1] == 0x2E { urlEnd -= 1 }

            var isBad = false
            var urlStart = domainStart
            if urlStart != begin && text[urlStart - 1] == 0x40 {
                if lastAt != nil { isBad = true }
                var userStart = urlStart - 1
                while userStart != begin {
                    let previous = text.previousStart(userStart)
                    if !isUserDataSymbol(text.next(previous).code) { break }
                    userStart = previous
                }
                if userStart == urlStart - 1 { isBad = true }
                urlStart = userStart
            }
            if urlStart != begin {
                let prefix = Array(text.bytes[begin..<urlStart])
                if prefix.count >= 6 && prefix.suffix(3) == Array("://".utf8)[...] {
                    var protocolStart = urlStart - 3
                    while protocolStart != begin {
                        let previous = text.previousStart(protocolStart)
                        if !isProtocolSymbol(text.next(previous).code) { break }
                        protocolStart = previous
                    }
                    let scheme = text.string(protocolStart..<(urlStart - 3)).lowercased()
                    if scheme.hasSuffix("http") && scheme != "shttp" {
                        urlStart -= 7
                    } else if scheme.hasSuffix("https") {
                        urlStart -= 8
                    } else if scheme.hasSuffix("ftp") && scheme != "tftp" && scheme != "sftp" {
                        urlStart -= 6
                    } else if scheme.hasSuffix("tonsite") {
                        urlStart -= 10
                    } else {
                        isBad = true
                    }
                } else {
                    let code = text.previous(urlStart)
                    if CharacterClass.isWordCharacter(code) || code == 0x2F || code == 0x23 || code == 0x40 {
                        isBad = true
                    }
                }
            }
            if !isBad {
                if urlEnd > dot + 1 { result.append(urlStart..<urlEnd) }
                while urlEnd != end && text[urlEnd] == 0x2E { urlEnd += 1 }
            } else {
                while text[urlEnd - 1] != 0x2E { urlEnd -= 1 }
            }
            if urlEnd <= dot { urlEnd = dot + 1 }
            begin = urlEnd
        }
        return result
    }

    /// `^([a-z0-9_-]{0,26}[.+]){0,10}[a-z0-9_-]{1,35}@(([a-z0-9][a-z0-9_-]{0,28})?[a-z0-9][.]){1,6}[a-z]{2,8}$`i
    static func isEmailAddress(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let atIndex = bytes.firstIndex(of: 0x40) else { return false }
        let userData = bytes[bytes.startIndex..<atIndex]
        let domain = bytes[(atIndex + 1)...]
        if domain.isEmpty { return false }
        var previous = userData.startIndex
        var parts = 0
        for index in userData.indices {
            let byte = userData[index]
            if byte == 0x2E || byte == 0x2B {
                if index - previous >= 27 { return false }
                parts += 1
                previous = index + 1
            } else if !CharacterClass.isAlphaDigitOrUnderscoreOrMinus(UInt32(byte)) {
                return false
            }
        }
        parts += 1
        if parts >= 12 { return false }
        let lastLength = userData.endIndex - previous
        if lastLength == 0 || lastLength >= 36 { return false }
        var domainParts = domain.split(separator: 0x2E, omittingEmptySubsequences: false)
        if domainParts.count <= 1 || domainParts.count > 7 { return false }
        let tld = domainParts.removeLast()
        if tld.count <= 1 || tld.count >= 9 { return false }
        if !tld.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }) { return false }
        for part in domainParts {
            if part.isEmpty || part.count >= 31 { return false }
            if !part.allSatisfy({ CharacterClass.isAlphaDigitOrUnderscoreOrMinus(UInt32($0)) }) { return false }
            if !CharacterClass.isAlphaDigit(UInt32(part.first!)) || !CharacterClass.isAlphaDigit(UInt32(part.last!)) {
                return false
            }
        }
        return true
    }

    /// A candidate's URL part, cut at unbalanced brackets and bad trailing characters, if its host is acceptable: an
    /// IPv4 address, or a name whose TLD is common (any TLD after a protocol), with no `_` in the last two labels.
    static func fixURL(_ text: UTF8Text, _ range: Range<Int>) -> Range<Int>? {
        var full = range
        var rest = range
        var hasProtocol = false
        let head = text.string(range.lowerBound..<min(range.upperBound, range.lowerBound + 10)).lowercased()
        if head.hasPrefix("http://") || head.hasPrefix("https://") || head.hasPrefix("ftp://")
            || head.hasPrefix("tonsite://")
        {
            let colon = text.bytes[range].firstIndex(of: 0x3A)!
            rest = (colon + 3)..<range.upperBound
            hasProtocol = true
        }
        let bytes = text.bytes
        let domainEnd = rest.first { bytes[$0] == 0x2F || bytes[$0] == 0x3F || bytes[$0] == 0x23 } ?? rest.upperBound
        var domain = rest.lowerBound..<domainEnd
        let path = domainEnd..<rest.upperBound
        if let at = bytes[domain].firstIndex(of: 0x40) { domain = (at + 1)..<domain.upperBound }
        if let colon = bytes[domain].lastIndex(of: 0x3A) { domain = domain.lowerBound..<colon }
        if domain.count == 12, text.string(domain).lowercased() == "teiegram.org" { return nil }

        var balance = (0, 0, 0)
        var pathPosition = path.lowerBound
        while pathPosition < path.upperBound {
            switch bytes[pathPosition] {
            case 0x28: balance.0 += 1
            case 0x5B: balance.1 += 1
            case 0x7B: balance.2 += 1
            case 0x29: balance.0 -= 1
            case 0x5D: balance.1 -= 1
            case 0x7D: balance.2 -= 1
            default: break
            }
            if balance.0 < 0 || balance.1 < 0 || balance.2 < 0 { break }
            pathPosition += 1
        }
        while pathPosition > path.lowerBound && badPathEnd.contains(bytes[pathPosition - 1]) { pathPosition -= 1 }
        full = full.lowerBound..<(full.upperBound - (path.upperBound - pathPosition))

        var previous = domain.lowerBound
        var parts = 0
        var hasNonDigit = false
        var isIPv4 = true
        var index = domain.lowerBound
        while index <= domain.upperBound {
            if index == domain.upperBound || bytes[index] == 0x2E {
                let size = index - previous
                if size == 0 || size >= 64 || bytes[index - 1] == 0x2D { return nil }
                if isIPv4 {
                    if size > 3 { isIPv4 = false }
                    if size == 3
                        && (bytes[previous] >= 0x33
                            || (bytes[previous] == 0x32
                                && (bytes[previous + 1] >= 0x36
                                    || (bytes[previous + 1] == 0x35 && bytes[previous + 2] >= 0x36))))
                    {
                        isIPv4 = false
                    }
                    if bytes[previous] == 0x30 && size >= 2 { isIPv4 = false }
                }
                parts += 1
                if index != domain.upperBound { previous = index + 1 }
            } else if !CharacterClass.isDigit(bytes[index]) {
                isIPv4 = false
                hasNonDigit = true
            }
            index += 1
        }
        if parts == 1 { return nil }
        if isIPv4 && parts == 4 { return full }
        if !hasNonDigit { return nil }
        let tld = text.string(previous..<domain.upperBound)
        if tld.unicodeScalars.count <= 1 { return nil }
        if tld.hasPrefix("xn--") {
            if tld.utf8.count <= 5 { return nil }
            if !tld.utf8.dropFirst(4).allSatisfy({ CharacterClass.isAlphaDigit(UInt32($0)) }) { return nil }
        } else {
            if tld.contains("_") || tld.contains("-") { return nil }
            if !hasProtocol && !isCommonTLD(tld) { return nil }
        }
        // No underscore in the label before the TLD.
        var cursor = previous - 1
        while cursor > domain.lowerBound {
            cursor -= 1
            if bytes[cursor] == 0x5F { return nil }
            if bytes[cursor] == 0x2E { break }
        }
        return full
    }

    /// A TLD in the common list; lower case, or upper case (a capital first letter alone is refused, as TDLib does).
    static func isCommonTLD(_ tld: String) -> Bool {
        if tld.utf8.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) { return commonTopLevelDomains.contains(tld) }
        let lower = tld.lowercased()
        if lower != tld && lower.unicodeScalars.dropFirst().elementsEqual(tld.unicodeScalars.dropFirst()) {
            return false
        }
        return commonTopLevelDomains.contains(lower)
    }

    /// URLs (`false`) and e-mail addresses (`true`), with `mailto:` dropped from an address that has it.
    static func urls(_ text: UTF8Text) -> [(Range<Int>, Bool)] {
        var result: [(Range<Int>, Bool)] = []
        for candidate in urlCandidates(text) {
            let bytes = text.bytes[candidate]
            if isEmailAddress(bytes) {
                result.append((candidate, true))
            } else if bytes.starts(with: Array("mailto:".utf8)),
                isEmailAddress(text.bytes[(candidate.lowerBound + 7)..<candidate.upperBound])
            {
                result.append(((candidate.lowerBound + 7)..<candidate.upperBound, true))
            } else if let fixed = fixURL(text, candidate), !fixed.isEmpty {
                result.append((fixed, false))
            }
        }
        return result
    }
}
