public import Network

/// Where a server's data centers listen: one host, and each DC's port. Written `HOST:PORT` (DC 1 on PORT, DC n on
/// PORT + n − 1, as `tg-server --port` lays them out; three DCs) or `HOST:1=P1,2=P2,3=P3` (each DC named, as
/// tg-server's ready line prints them when it picked free ports).
public struct ServerAddress: Codable, Equatable, Sendable, CustomStringConvertible {
    public var host: String
    /// DC id → TCP port.
    public var ports: [Int32: Int]

    public init(host: String, ports: [Int32: Int]) {
        self.host = host
        self.ports = ports
    }

    /// Why an address could not be read.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let text: String
        public let reason: String
        public var description: String {
            "'\(text)' is not a server address (\(reason)) — write HOST:PORT (DC 1's port) or HOST:1=P,2=P,3=P"
        }
    }

    /// Reads `HOST:PORT` or `HOST:1=P,2=P,…`; `dcs` is the number of DCs a single port stands for.
    public init(parsing text: String, dcs: Int32 = 3) throws(ParseError) {
        guard let colon = text.firstIndex(of: ":") else { throw ParseError(text: text, reason: "no ':'") }
        let host = String(text[..<colon])
        let rest = text[text.index(after: colon)...]
        guard !host.isEmpty else { throw ParseError(text: text, reason: "no host") }
        var ports: [Int32: Int] = [:]
        if rest.contains("=") {
            for field in rest.split(separator: ",", omittingEmptySubsequences: false) {
                let parts = field.split(separator: "=", omittingEmptySubsequences: false)
                guard parts.count == 2, let dc = Int32(parts[0]), (1...16).contains(dc), let port = Int(parts[1]),
                    (1...65535).contains(port)
                else { throw ParseError(text: text, reason: "'\(field)' is not DC=PORT") }
                guard ports[dc] == nil else { throw ParseError(text: text, reason: "DC \(dc) named twice") }
                ports[dc] = port
            }
        } else {
            guard let port = Int(rest), (1...65535).contains(port), port + Int(dcs) - 1 <= 65535 else {
                throw ParseError(text: text, reason: "'\(rest)' is not a port")
            }
            for dc in 1...dcs { ports[dc] = port + Int(dc) - 1 }
        }
        self.init(host: host, ports: ports)
    }

    /// The endpoints the network layer connects to.
    public var endpoints: [Int32: MTProtoConnection.Endpoint] {
        Dictionary(
            uniqueKeysWithValues: ports.map {
                ($0.key, MTProtoConnection.Endpoint(host: host, port: $0.value, dcId: $0.key))
            })
    }

    /// The DC a client starts at: 2 (where Telegram's clients start) when the server has it, else the lowest.
    public var defaultMainDc: Int32 { ports[2] != nil ? 2 : (ports.keys.min() ?? 2) }

    /// `HOST:1=P,2=P,…`.
    public var description: String {
        host + ":" + ports.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
    }

    // Codable as its text, so the profile file stays readable.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do { try self.init(parsing: text) } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
