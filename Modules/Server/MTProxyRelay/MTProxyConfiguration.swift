public import NIOCore

/// How an `MTProxyRelayServer` runs: its secrets, where each data center is, where a client that is not one of its
/// own is handed, and the bounds on what clients can consume.
public struct MTProxyConfiguration: Sendable {
    /// A host and port to connect to.
    public struct Address: Sendable, Equatable, CustomStringConvertible {
        public var host: String
        public var port: Int

        public init(host: String, port: Int) {
            self.host = host
            self.port = port
        }

        /// Reads `HOST:PORT` (`[v6]:PORT` for an IPv6 literal).
        public init?(parsing text: String) {
            guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
                (1...65535).contains(port)
            else { return nil }
            var host = String(text[..<colon])
            if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            guard !host.isEmpty else { return nil }
            self.init(host: host, port: port)
        }

        public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
    }

    /// The 16-byte keys of the secrets it takes (each for plain, `dd` and `ee` clients alike).
    public var keys: [[UInt8]]
    /// Each data center's address, by DC id (a client asking for DC −n, a media DC, is sent to DC n).
    public var datacenters: [Int16: Address]
    /// Where a connection that is not one of this proxy's clients is handed, its bytes unchanged — a real TLS site
    /// for the fake-TLS domain, so that a browser or a prober sees that site. `nil`: such a connection gets nothing
    /// and is closed at the handshake timeout, as a silent port would.
    public var front: Address?
    /// Refuses plain obfuscated2: only `dd` and `ee` clients (the official MTProxy's "random padding only" mode).
    public var paddedOnly = false
    /// At most this many client connections at once; more are closed as they come.
    public var maximumConnections = 4_096
    /// A client must be relaying (or handed to the front) within this time.
    public var handshakeTimeout = TimeAmount.seconds(10)
    /// A connection with nothing read or written for this long is closed.
    public var idleTimeout = TimeAmount.minutes(10)
    /// Bytes of a client's stream kept while its data center is being connected; more closes the connection.
    public var maximumPendingBytes = 1 << 20
    /// Openings remembered to refuse replays.
    public var replayCapacity = 65_536

    public init(keys: [[UInt8]], datacenters: [Int16: Address], front: Address? = nil) {
        self.keys = keys
        self.datacenters = datacenters
        self.front = front
    }
}
