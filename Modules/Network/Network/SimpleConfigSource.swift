import Foundation
import MTProtoTransport
public import NIOCore

/// Where a client that reaches none of its data centers fetches the signed `help.configSimple` (the last link of
/// Telegram's discovery chain; TDLib `ConfigManager.cpp`, Telegram-iOS `MTBackupAddressSignals`): a value of
/// closures, so tests can hand it text and the live value fetches it.
public struct SimpleConfigSource: Sendable {
    /// The blob's text (base64, possibly split and folded).
    public var fetch: @Sendable () async throws -> String

    public init(fetch: @escaping @Sendable () async throws -> String) {
        self.fetch = fetch
    }

    /// A DNS-over-HTTPS JSON answer for a TXT name, as Telegram's clients read it from public resolvers
    /// (`{"Answer": [{"data": …}, {"data": …}]}`: the blob split in two records, the longer part first). Here over
    /// plain HTTP to an operator's host — TLS to a public resolver is out of reach offline — with `path` naming the
    /// query (for example `/resolve?name=apv3.example&type=TXT`).
    public static func dnsJSON(host: String, port: Int, path: String, group: any EventLoopGroup) -> SimpleConfigSource {
        SimpleConfigSource {
            let body = try await PlainHTTPGet.fetch(
                host: host, port: port, path: path, headers: [("Accept", "application/dns-json")], group: group)
            return try blob(fromDNSJSON: body)
        }
    }

    /// The blob in a DNS JSON answer: its two TXT parts joined, the longer first (TDLib's order).
    static func blob(fromDNSJSON body: [UInt8]) throws -> String {
        let json = try? JSONSerialization.jsonObject(with: Data(body))
        guard let object = json as? [String: Any], let answers = object["Answer"] as? [[String: Any]] else {
            throw SimpleConfigSourceError.malformed("no Answer array")
        }
        let parts = answers.compactMap { $0["data"] as? String }
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        guard parts.count == 2, answers.count == 2 else {
            throw SimpleConfigSourceError.malformed("expected the blob in two TXT records, got \(answers.count)")
        }
        return parts[0].count < parts[1].count ? parts[1] + parts[0] : parts[0] + parts[1]
    }
}

/// A fallback configuration that could not be read or used.
public enum SimpleConfigSourceError: Error, Equatable, CustomStringConvertible {
    /// The source's answer is not what it should carry.
    case malformed(String)
    /// No public key the client trusts opened it.
    case unverified(String)
    /// It is outside its `date`…`expires` window (a replayed or early blob).
    case expired(date: Int32, expires: Int32, now: Int32)
    /// It names no address this client can use.
    case empty

    public var description: String {
        switch self {
        case .malformed(let detail): return "malformed fallback configuration: \(detail)"
        case .unverified(let detail): return "the fallback configuration does not verify: \(detail)"
        case .expired(let date, let expires, let now):
            return "the fallback configuration is valid \(date)…\(expires), not at \(now)"
        case .empty: return "the fallback configuration names no IPv4 address"
        }
    }
}
