import Glibc

/// A SOCKS5 proxy and how to log in to it: what a connection goes through when the account's settings name one
/// (Telegram's clients offer SOCKS5 next to MTProxy; links are `tg://socks?server=…&port=…&user=…&pass=…`).
public struct SOCKS5Proxy: Sendable, Equatable, Codable, CustomStringConvertible {
    public var host: String
    public var port: Int
    /// RFC 1929 username and password; nil offers only "no authentication".
    public var credentials: Credentials?

    public struct Credentials: Sendable, Equatable, Codable {
        public var username: String
        public var password: String

        public init(username: String, password: String) {
            self.username = username
            self.password = password
        }
    }

    public init(host: String, port: Int, credentials: Credentials? = nil) {
        self.host = host
        self.port = port
        self.credentials = credentials
    }

    /// `socks5://[user@]host:port`: never the password.
    public var description: String {
        "socks5://" + (credentials.map { "\($0.username)@" } ?? "") + "\(host):\(port)"
    }
}

/// The client side of a SOCKS5 `CONNECT` (RFC 1928, with RFC 1929's username/password method), sans I/O: `start()`
/// gives the greeting to send, `receive(_:)` takes whatever bytes arrived and says what to send next, or that the
/// tunnel is up (with any bytes that came after the reply, which belong to the tunnelled protocol).
///
/// Every length is checked before it is used: a reply that is not SOCKS5 fails with `.malformed`, never a trap, and
/// the buffer never holds more than one reply (at most 262 bytes).
public struct SOCKS5Handshake: Sendable {
    /// Why the tunnel was not made; the proxy's own reasons keep RFC 1928 §6's names.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The proxy accepts none of the offered methods (no authentication, or username/password when given).
        case noAcceptableMethod
        /// The proxy wants a username and password and none were configured.
        case credentialsRequired
        /// RFC 1929: the proxy refused the username and password.
        case authenticationFailed
        /// The proxy could not, or would not, connect (RFC 1928 §6 `REP`).
        case refused(code: UInt8)
        /// The target or the credentials cannot be written in SOCKS5 (a name or field over 255 bytes, or empty).
        case unencodable(String)
        /// The bytes are not a SOCKS5 proxy's.
        case malformed(String)

        public var description: String {
            switch self {
            case .noAcceptableMethod: "the SOCKS5 proxy accepts none of the offered authentication methods"
            case .credentialsRequired: "the SOCKS5 proxy asks for a username and password"
            case .authenticationFailed: "the SOCKS5 proxy refused the username or password"
            case .refused(let code): "the SOCKS5 proxy could not connect: \(Self.reason(code))"
            case .unencodable(let what): "cannot ask a SOCKS5 proxy for this: \(what)"
            case .malformed(let what): "not a SOCKS5 proxy's answer: \(what)"
            }
        }

        /// RFC 1928 §6's reply field.
        static func reason(_ code: UInt8) -> String {
            switch code {
            case 1: "general SOCKS server failure"
            case 2: "connection not allowed by ruleset"
            case 3: "network unreachable"
            case 4: "host unreachable"
            case 5: "connection refused"
            case 6: "TTL expired"
            case 7: "command not supported"
            case 8: "address type not supported"
            default: "reply code \(code)"
            }
        }
    }

    /// What to do after bytes arrived.
    public enum Step: Equatable, Sendable {
        /// Wait for more bytes.
        case needMore
        /// Send these, then wait for more bytes.
        case send([UInt8])
        /// The tunnel is up; `leftover` arrived after the reply and belongs to the tunnelled protocol.
        case established(leftover: [UInt8])
    }

    private enum Phase: Sendable {
        case greeting, authentication, connecting, established
    }

    static let version: UInt8 = 5
    static let noAuthentication: UInt8 = 0
    static let usernamePassword: UInt8 = 2
    static let noAcceptableMethods: UInt8 = 0xFF

    private let request: [UInt8]
    private let login: [UInt8]?
    private var phase = Phase.greeting
    private var buffer: [UInt8] = []

    /// A handshake asking the proxy to connect to `host:port` (an IPv4 or IPv6 literal is sent as an address, any
    /// other name as a domain the proxy resolves), logging in with `credentials` when the proxy asks.
    public init(host: String, port: Int, credentials: SOCKS5Proxy.Credentials?) throws(Failure) {
        guard (1...65535).contains(port) else { throw .unencodable("port \(port)") }
        var request: [UInt8] = [Self.version, 1, 0]  // CONNECT, reserved
        if let v4 = IPAddressLiteral.v4(host) {
            request += [1] + v4
        } else if let v6 = IPAddressLiteral.v6(host) {
            request += [4] + v6
        } else {
            let name = Array(host.utf8)
            guard (1...255).contains(name.count) else { throw .unencodable("a host name of \(name.count) bytes") }
            request += [3, UInt8(name.count)] + name
        }
        request += [UInt8(port >> 8), UInt8(port & 0xFF)]
        self.request = request
        if let credentials {
            let user = Array(credentials.username.utf8)
            let password = Array(credentials.password.utf8)
            guard (1...255).contains(user.count), (1...255).contains(password.count) else {
                throw .unencodable("a username and password must each be 1–255 bytes")
            }
            // RFC 1929 §2: VER 1, ULEN, UNAME, PLEN, PASSWD.
            login = [1, UInt8(user.count)] + user + [UInt8(password.count)] + password
        } else {
            login = nil
        }
    }

    /// The greeting: the methods offered (no authentication, and username/password when there are credentials).
    public func start() -> [UInt8] {
        login == nil
            ? [Self.version, 1, Self.noAuthentication]
            : [Self.version, 2, Self.noAuthentication, Self.usernamePassword]
    }

    /// Takes bytes from the proxy.
    public mutating func receive(_ bytes: [UInt8]) throws(Failure) -> Step {
        buffer += bytes
        switch phase {
        case .greeting:
            guard buffer.count >= 2 else { return .needMore }
            guard buffer[0] == Self.version else { throw .malformed("version \(buffer[0]) in the method choice") }
            let method = buffer[1]
            buffer.removeFirst(2)
            switch method {
            case Self.noAuthentication:
                phase = .connecting
                return try afterSend(request)
            case Self.usernamePassword:
                guard let login else { throw .credentialsRequired }
                phase = .authentication
                return try afterSend(login)
            case Self.noAcceptableMethods:
                throw .noAcceptableMethod
            default:
                throw .malformed("method \(method), which was not offered")
            }
        case .authentication:
            guard buffer.count >= 2 else { return .needMore }
            // RFC 1929 §2: VER 1, STATUS (0 is success).
            guard buffer[0] == 1 else { throw .malformed("version \(buffer[0]) in the login answer") }
            guard buffer[1] == 0 else { throw .authenticationFailed }
            buffer.removeFirst(2)
            phase = .connecting
            return try afterSend(request)
        case .connecting:
            // VER, REP, RSV, ATYP, BND.ADDR, BND.PORT.
            guard buffer.count >= 5 else { return .needMore }
            guard buffer[0] == Self.version else { throw .malformed("version \(buffer[0]) in the reply") }
            guard buffer[1] == 0 else { throw .refused(code: buffer[1]) }
            let addressLength: Int
            switch buffer[3] {
            case 1: addressLength = 4
            case 4: addressLength = 16
            case 3: addressLength = 1 + Int(buffer[4])
            default: throw .malformed("address type \(buffer[3])")
            }
            let length = 4 + addressLength + 2
            guard buffer.count >= length else { return .needMore }
            phase = .established
            let leftover = Array(buffer[length...])
            buffer = []
            return .established(leftover: leftover)
        case .established:
            let leftover = buffer
            buffer = []
            return .established(leftover: leftover)
        }
    }

    /// `.send(bytes)`, after checking that nothing beyond the answer arrived: a SOCKS5 proxy speaks only when
    /// spoken to, so early bytes are not a proxy's.
    private func afterSend(_ bytes: [UInt8]) throws(Failure) -> Step {
        guard buffer.isEmpty else { throw .malformed("\(buffer.count) bytes before they were asked for") }
        return .send(bytes)
    }
}

/// IP address literals as SOCKS5 writes them (network byte order), read by the C library's `inet_pton`.
enum IPAddressLiteral {
    /// `a.b.c.d`.
    static func v4(_ text: String) -> [UInt8]? {
        var address = in_addr()
        guard inet_pton(AF_INET, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    /// RFC 4291 §2.2 text, optionally in brackets.
    static func v6(_ text: String) -> [UInt8]? {
        var text = Substring(text)
        if text.first == "[", text.last == "]" { text = text.dropFirst().dropLast() }
        var address = in6_addr()
        guard inet_pton(AF_INET6, String(text), &address) == 1 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0) }
    }
}
