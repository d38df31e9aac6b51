import AccountNetworking
import Foundation
import MTProtoTransport
import Network
import ServerTestSupport
import TelegramApi
import Testing

/// `help.getConfig`'s `dc_options` with every flag honoured, and the configuration asked for at start and again
/// when it expires.
@Suite struct DatacenterOptionTests {
    static let options: [DatacenterOption] = [
        .init(dcId: 2, host: "149.154.167.50", port: 443),
        .init(dcId: 2, host: "2001:67c:4e8:f002::a", port: 443, ipv6: true),
        .init(dcId: 2, host: "149.154.167.151", port: 443, mediaOnly: true),
        .init(dcId: 2, host: "149.154.167.40", port: 443, isStatic: true),
        .init(dcId: 2, host: "91.108.56.1", port: 443, cdn: true),
        .init(dcId: 4, host: "149.154.167.91", port: 443),
    ]

    @Test func genericSessionsNeverTakeMediaOnlyCDNOrUnreachableIPv6Addresses() {
        let hosts = DatacenterOption.choose(
            Self.options, dc: 2, media: false, ipv6Available: false, throughProxy: false
        )
        .map(\.host)
        #expect(hosts == ["149.154.167.50", "149.154.167.40"])
        let withIPv6 = DatacenterOption.choose(
            Self.options, dc: 2, media: false, ipv6Available: true, throughProxy: false)
        #expect(withIPv6.map(\.host) == ["149.154.167.50", "149.154.167.40", "2001:67c:4e8:f002::a"], "IPv4 first")
    }

    @Test func mediaSessionsPreferMediaOnlyAndProxiesPreferStatic() {
        let media = DatacenterOption.choose(Self.options, dc: 2, media: true, ipv6Available: false, throughProxy: false)
        #expect(media.first?.host == "149.154.167.151")
        let proxied = DatacenterOption.choose(
            Self.options, dc: 2, media: false, ipv6Available: false, throughProxy: true)
        #expect(proxied.first?.host == "149.154.167.40")
    }

    @Test func obfuscationOnlyAddressesGetObfuscated2WithTheirSecret() {
        let template = MTProtoConnection.Endpoint(host: "x", port: 1, dcId: 2, framing: .intermediate)
        let secret = [UInt8](repeating: 7, count: 16)
        let plain = DatacenterOption(dcId: 2, host: "10.0.0.1", port: 8443).endpoint(from: template)
        #expect(plain.obfuscation == .none && plain.host == "10.0.0.1" && plain.port == 8443)
        let obfuscated = DatacenterOption(dcId: 2, host: "10.0.0.2", port: 443, tcpoOnly: true, secret: secret)
            .endpoint(from: template)
        #expect(obfuscated.obfuscation == .obfuscated2(dcId: 2, secret: secret))
        let media = DatacenterOption(dcId: 2, host: "10.0.0.3", port: 443, mediaOnly: true, tcpoOnly: true)
            .endpoint(from: template)
        #expect(media.obfuscation == .obfuscated2(dcId: -2, secret: nil), "media DCs are negative in the header")
        // Telegram's constructor: a port out of range is not an address.
        #expect(DatacenterOption(.dcOption(.init(id: 2, ipAddress: "1.2.3.4", port: 0))) == nil)
    }

    @Test func theConfigurationIsAskedForAtStartAndAgainWhenItExpires() async throws {
        let world = try await BackendServer()
        let network = AccountNetwork(
            datacenters: [2: try #require(world.endpoints[2])], defaultMainDc: 2, publicKeys: world.publicKeys,
            store: InMemoryNetworkKeyStore(), group: world.group, refreshesConfiguration: true)
        _ = try await network.request(Api.functions.help.getNearestDc())
        // The refresh runs in the background once the main DC answers.
        let deadline = Date().addingTimeInterval(30)
        while await network.configRefreshes == 0 {
            try #require(Date() < deadline, "no help.getConfig within 30 s of the first call")
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(await network.datacenters.keys.sorted() == [1, 2, 3])
        #expect(await network.mediaDatacenters[2]?.port == world.endpoints[2]?.port, "the media-only address")
        let expires = try #require(await network.configExpires)
        #expect(try await network.refreshDatacentersIfDue(now: expires - 1) == false)
        #expect(await network.configRefreshes == 1)
        #expect(try await network.refreshDatacentersIfDue(now: expires) == true)
        #expect(await network.configRefreshes == 2)
        // A media session goes to the media-only address.
        let media = try await network.connection(dc: 2, purpose: .media)
        #expect(media.endpoint.port == world.endpoints[2]?.port)
        await network.close()
        try await world.close()
    }
}
