public import CryptoUtils
import MTProtoApi
import MTProtoCore

/// What tg-server publishes for clients that reach none of its addresses: its data centers as a signed
/// `help.configSimple` (`SimpleConfigEnvelope`), the text Telegram serves from DNS TXT records and other hosts.
public enum SimpleConfigPublisher {
    /// Why no blob could be made.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// `host` is not an IPv4 address: `ipPort` carries only those.
        case notIPv4(String)

        public var description: String {
            switch self {
            case .notIPv4(let host): return "\(host) is not an IPv4 address (help.configSimple carries only those)"
            }
        }
    }

    /// The base64 blob naming each DC in `ports` (DC id → port) at `host`, valid from `now` for `lifetime` seconds,
    /// signed with `key`.
    public static func blob(
        host: String, ports: [Int32: Int], key: RSAPrivateKey, now: Double, lifetime: Int32 = 86_400
    ) throws -> String {
        guard let ipv4 = IPv4Number.number(host) else { throw Failure.notIPv4(host) }
        let date = Int32(clamping: Int64(now))
        let rules = ports.sorted { $0.key < $1.key }.map { dc, port in
            MTProto.AccessPointRule.accessPointRule(
                .init(phonePrefixRules: "", dcId: dc, ips: [.ipPort(.init(ipv4: ipv4, port: Int32(port)))]))
        }
        return try SimpleConfigEnvelope.seal(
            .configSimple(.init(date: date, expires: date &+ lifetime, rules: rules)), key: key)
    }
}
