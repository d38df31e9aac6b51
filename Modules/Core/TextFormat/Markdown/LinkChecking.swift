import Glibc

/// TDLib's check of a `[text](url)` link (td/telegram/LinkManager.cpp `check_link_impl`, tdutils HttpUrl.cpp
/// `parse_url` and `get_url`): `tg://`, `ton://` and `tonsite://` links with a plain host, or an HTTP(S) URL with a
/// dotted host (or an IPv6 one), returned normalised — the scheme added when missing, the host in lower case, the
/// port only when given, `/` as the least path, spaces and controls in the path percent-encoded. `nil` for a link
/// TDLib refuses.
enum LinkChecking {
    struct HTTPURL {
        var isHTTPS: Bool
        var userinfo: String
        var host: String
        var isIPv6: Bool
        var specifiedPort: Int
        var query: String

        var url: String {
            var result = isHTTPS ? "https://" : "http://"
            if !userinfo.isEmpty { result += userinfo + "@" }
            result += host
            if specifiedPort > 0 { result += ":\(specifiedPort)" }
            return result + query
        }
    }

    static func checkedLink(_ link: String) -> String? {
        var bytes = Array(link.utf8)
        func lowerStarts(_ prefix: String) -> Bool {
            let prefixBytes = Array(prefix.utf8)
            return bytes.count >= prefixBytes.count && zip(bytes, prefixBytes).allSatisfy { lowerASCII($0) == $1 }
        }
        var scheme: String?
        if lowerStarts("tg:") {
            bytes.removeFirst(3)
            scheme = "tg"
        } else if lowerStarts("ton:") {
            bytes.removeFirst(4)
            scheme = "ton"
        } else if lowerStarts("tonsite:") {
            bytes.removeFirst(8)
            scheme = "tonsite"
        }
        if scheme != nil && bytes.starts(with: [0x2F, 0x2F]) { bytes.removeFirst(2) }
        guard let url = parseURL(bytes) else { return nil }
        if let scheme {
            let rest = String(decoding: bytes, as: UTF8.self).lowercased()
            if rest.hasPrefix("http://") || url.isHTTPS || !url.userinfo.isEmpty || url.specifiedPort != 0 || url.isIPv6
            {
                return nil
            }
            var query = url.query
            if query.utf8.count > 1 && Array(query.utf8)[1] == 0x3F { query.removeFirst() }
            for byte in url.host.utf8 {
                let isAlnum =
                    (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                if !isAlnum && byte != 0x2D && byte != 0x5F && !(scheme == "tonsite" && byte == 0x2E) { return nil }
            }
            return "\(scheme)://\(url.host)\(query)"
        }
        if !url.host.contains(".") && !url.isIPv6 { return nil }
        return url.url
    }

    static func lowerASCII(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }

    /// `[https?://][userinfo@]host[:port][/path…]` as tdutils' `parse_url` reads it (default protocol HTTP).
    static func parseURL(_ url: [UInt8]) -> HTTPURL? {
        let stops = Set(":/?#@[]".utf8)
        var position = 0
        while position < url.count && !stops.contains(url[position]) { position += 1 }
        let protocolName = String(decoding: url[0..<position].map(lowerASCII), as: UTF8.self)
        var isHTTPS = false
        if url[position...].starts(with: Array("://".utf8)) {
            switch protocolName {
            case "http": isHTTPS = false
            case "https": isHTTPS = true
            default: return nil
            }
            position += 3
        } else {
            position = 0
        }
        let authorityStart = position
        while position < url.count && ![0x2F, 0x3F, 0x23].contains(url[position]) { position += 1 }
        let authority = Array(url[authorityStart..<position])
        let rest = Array(url[position...])

        var port = 0
        var colon = authority.count - 1
        while colon > 0 && authority[colon] != 0x3A && authority[colon] != 0x5D && authority[colon] != 0x40 {
            colon -= 1
        }
        var userinfoHost = authority[...]
        if colon > 0 && authority[colon] == 0x3A {
            var portBytes = authority[(colon + 1)...]
            while portBytes.count > 1 && portBytes.first == 0x30 { portBytes = portBytes.dropFirst() }
            if let value = Int(String(decoding: portBytes, as: UTF8.self)), value != 0,
                portBytes.allSatisfy({ (0x30...0x39).contains($0) })
            {
                port = value
            } else {
                port = -1
            }
            userinfoHost = authority[0..<colon]
        }
        if port < 0 || port > 65_535 { return nil }
        let at = userinfoHost.lastIndex(of: 0x40)
        let userinfo = at.map { Array(userinfoHost[userinfoHost.startIndex..<$0]) } ?? []
        let host = Array(at.map { userinfoHost[($0 + 1)...] } ?? userinfoHost)
        var isIPv6 = false
        if let first = host.first, first == 0x5B, host.last == 0x5D {
            guard host.count >= 2, isIPv6Address(String(decoding: host.dropFirst().dropLast(), as: UTF8.self)) else {
                return nil
            }
            isIPv6 = true
        }
        if host.isEmpty || host == [0x2E] { return nil }

        var query = rest[...]
        while let last = query.last, [0x20, 0x09, 0x0D, 0x0A, 0x00, 0x0B].contains(last) { query = query.dropLast() }
        var queryBytes: [UInt8] = []
        if query.isEmpty { query = [0x2F][...] }
        if query.first != 0x2F { queryBytes.append(0x2F) }
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in query {
            if byte <= 0x20 {
                queryBytes += [0x25, hex[Int(byte / 16)], hex[Int(byte % 16)]]
            } else {
                queryBytes.append(byte)
            }
        }
        let hostLower = host.map(lowerASCII)
        if isIPv6 {
            for byte in hostLower.dropFirst().dropLast()
            where !(byte == 0x3A || (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) || byte == 0x2E) {
                return nil
            }
        } else {
            guard checkURLPart(hostLower, allowColon: false), checkURLPart(userinfo, allowColon: true) else {
                return nil
            }
        }
        return HTTPURL(
            isHTTPS: isHTTPS, userinfo: String(decoding: userinfo, as: UTF8.self),
            host: String(decoding: hostLower, as: UTF8.self),
            isIPv6: isIPv6, specifiedPort: port, query: String(decoding: queryBytes, as: UTF8.self))
    }

    /// RFC 3986's unreserved and sub-delims characters, percent escapes, and any non-ASCII byte.
    static func checkURLPart(_ part: [UInt8], allowColon: Bool) -> Bool {
        let allowed = Set(".-_!$,~*'();&+=".utf8)
        func isHex(_ byte: UInt8) -> Bool {
            (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
        }
        var index = 0
        while index < part.count {
            let byte = part[index]
            let isAlnum = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            if isAlnum || allowed.contains(byte) || (allowColon && byte == 0x3A) || byte >= 0x80 {
                index += 1
                continue
            }
            if byte == 0x25 {
                guard index + 2 < part.count, isHex(part[index + 1]), isHex(part[index + 2]) else { return false }
                index += 3
                continue
            }
            return false
        }
        return true
    }

    static func isIPv6Address(_ text: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET6, text, &address) == 1
    }
}
