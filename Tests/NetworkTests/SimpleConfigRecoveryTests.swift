import AccountNetworking
import CryptoUtils
import Foundation
import MTProtoApi
import MTProtoCore
import MTProtoServer
import MTProtoTransport
import NIOCore
import NIOPosix
import Network
import ServerTestSupport
import TelegramApi
import TestVectors
import Testing

/// The last link of the discovery chain: an account whose DC addresses are all wrong fetches tg-server's signed
/// `help.configSimple` from a DNS-JSON answer served by Python's own `http.server`, verifies it, and reaches the
/// server at the addresses it names. A blob signed by another key, one past its expiry, and a malformed answer are
/// refused and change nothing; a network given the source recovers by itself on its first call.
@Suite struct SimpleConfigRecoveryTests {
    /// A DNS JSON answer file served by `python3 -m http.server` on a free port of 127.0.0.1.
    final class AnswerHost {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("doh-\(UUID().uuidString)")
        let process: RunningProcess
        let port: Int

        init(answers: [String: String]) async throws {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (name, body) in answers {
                try body.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
            }
            process = try ProcessRunner.start(
                ProcessRunner.venvPython,
                ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", folder.path])
            // "Serving HTTP on 127.0.0.1 port 43567 (http://127.0.0.1:43567/) ..."
            let ready = await process.waitForOutputOffPool(timeout: 30) {
                String(decoding: $0, as: UTF8.self).contains(" port ")
            }
            let line = String(decoding: process.output, as: UTF8.self)
            guard ready, let field = line.split(separator: " ").drop(while: { $0 != "port" }).dropFirst().first,
                let port = Int(field)
            else {
                process.send(SIGKILL)
                throw SimpleConfigSourceError.malformed("http.server did not start: \(line)")
            }
            self.port = port
        }

        func source(_ name: String, group: any EventLoopGroup) -> SimpleConfigSource {
            .dnsJSON(host: "127.0.0.1", port: port, path: "/\(name)?name=apv3.example&type=TXT", group: group)
        }

        func stop() async {
            process.send(SIGTERM)
            _ = await process.waitOffPool(timeout: 10)
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// The blob split in two TXT records: its start is the longer part, listed last (the client puts it first).
    static func dnsJSON(_ blob: String) -> String {
        let cut = blob.index(blob.startIndex, offsetBy: 244)
        return #"{"Status":0,"Answer":[{"name":"apv3.example.","type":16,"data":"\#(blob[cut...])"},"#
            + #"{"name":"apv3.example.","type":16,"data":"\#(blob[..<cut])"}]}"#
    }

    @Test func anAccountThatReachesNoDCRecoversThroughTheSignedFallback() async throws {
        let world = try await BackendServer()
        let now = Date().timeIntervalSince1970
        let ports = world.endpoints.mapValues(\.port)
        let key = world.server.keys.rsaKey
        let good = try SimpleConfigPublisher.blob(host: "127.0.0.1", ports: ports, key: key, now: now)
        let foreign = try SimpleConfigPublisher.blob(
            host: "127.0.0.1", ports: ports, key: try RSAPrivateKey.generate(bits: 2048), now: now)
        let stale = try SimpleConfigPublisher.blob(
            host: "127.0.0.1", ports: ports, key: key, now: now - 7200, lifetime: 3600)
        let host = try await AnswerHost(answers: [
            "good": Self.dnsJSON(good), "foreign": Self.dnsJSON(foreign), "stale": Self.dnsJSON(stale),
            "broken": #"{"Answer":[]}"#,
        ])
        // Every DC at a port where nothing listens.
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let dead = refusing.port
        let wrong = world.endpoints.mapValues { endpoint -> MTProtoConnection.Endpoint in
            var moved = endpoint
            moved.port = dead
            return moved
        }
        let store = InMemoryNetworkKeyStore()
        let network = AccountNetwork(
            datacenters: wrong, defaultMainDc: 2, publicKeys: world.publicKeys, store: store, group: world.group)

        await #expect(throws: SimpleConfigSourceError.self) {
            try await network.recoverDatacenters(using: host.source("foreign", group: world.group))
        }
        await #expect(throws: SimpleConfigSourceError.self) {
            try await network.recoverDatacenters(using: host.source("stale", group: world.group))
        }
        await #expect(throws: SimpleConfigSourceError.self) {
            try await network.recoverDatacenters(using: host.source("broken", group: world.group))
        }
        #expect(await network.datacenters[2]?.port == dead, "a refused fallback changes nothing")
        #expect(store.datacenterAddresses() == nil)

        let changed = try await network.recoverDatacenters(using: host.source("good", group: world.group))
        #expect(changed == [1, 2, 3])
        #expect(await network.datacenters[2]?.port == world.endpoints[2]?.port)
        #expect(store.datacenterAddresses()?[2] == DatacenterAddress(host: "127.0.0.1", port: ports[2]!))
        switch try await network.request(Api.functions.help.getNearestDc()) {
        case .nearestDc(let nearest): #expect(nearest.thisDc == 2)
        }

        // With the source configured, the first call that finds no DC recovers by itself.
        let fresh = InMemoryNetworkKeyStore()
        let recovering = AccountNetwork(
            datacenters: wrong, defaultMainDc: 2, publicKeys: world.publicKeys, store: fresh, group: world.group,
            fallback: host.source("good", group: world.group))
        switch try await recovering.request(Api.functions.help.getNearestDc()) {
        case .nearestDc(let nearest): #expect(nearest.thisDc == 2)
        }
        #expect(fresh.datacenterAddresses()?[2]?.port == ports[2])
        await recovering.close()
        await host.stop()
        await network.close()
        try await world.close()
    }

    @Test func theDNSAnswersTwoPartsAreJoinedLongerFirst() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let host = try await AnswerHost(answers: [
            "split": #"{"Answer":[{"data":"\"BB\""},{"data":"\"AAAA\""}]}"#, "one": #"{"Answer":[{"data":"AAAA"}]}"#,
        ])
        #expect(try await host.source("split", group: group).fetch() == "AAAABB")
        await #expect(throws: SimpleConfigSourceError.self) { try await host.source("one", group: group).fetch() }
        await #expect(throws: PlainHTTPGet.Failure.status(404)) {
            try await host.source("missing", group: group).fetch()
        }
        await host.stop()
        try await group.shutdownGracefully()
    }

    @Test func ipPortSecretRulesAreAdoptedAsObfuscatedEndpointsWithTheirSecret() async throws {
        let key = try RSAPrivateKey.generate(bits: 2048)
        let loopback = try #require(IPv4Number.number("127.0.0.1"))
        let secret = [UInt8](repeating: 0x5a, count: 16)
        let padded = [0xdd] + [UInt8](repeating: 0x3c, count: 16)
        let now = Date().timeIntervalSince1970
        let date = Int32(now) - 10
        let rules: [MTProto.AccessPointRule] = [
            .accessPointRule(
                .init(
                    phonePrefixRules: "", dcId: 2,
                    ips: [.ipPortSecret(.init(ipv4: loopback, port: 4443, secret: secret))])),
            // A secret of a size no transport takes is skipped for the rule's next address.
            .accessPointRule(
                .init(
                    phonePrefixRules: "", dcId: 3,
                    ips: [
                        .ipPortSecret(.init(ipv4: loopback, port: 4444, secret: [1, 2, 3])),
                        .ipPort(.init(ipv4: loopback, port: 4445)),
                    ])),
            .accessPointRule(
                .init(
                    phonePrefixRules: "", dcId: 4,
                    ips: [.ipPortSecret(.init(ipv4: loopback, port: 4446, secret: padded))])),
        ]
        let blob = try SimpleConfigEnvelope.seal(
            .configSimple(.init(date: date, expires: date + 3600, rules: rules)), key: key)
        let store = InMemoryNetworkKeyStore()
        let template = MTProtoConnection.Endpoint(host: "127.0.0.1", port: 1, dcId: 2, framing: .intermediate)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let network = AccountNetwork(
            datacenters: [2: template], defaultMainDc: 2, publicKeys: [key.publicKey], store: store, group: group)
        let changed = try await network.recoverDatacenters(using: SimpleConfigSource { blob }, now: now)
        #expect(changed == [2, 3, 4])
        let dcs = await network.datacenters
        #expect(dcs[2]?.port == 4443 && dcs[2]?.obfuscation == .obfuscated2(dcId: 2, secret: secret))
        #expect(dcs[3]?.port == 4445 && dcs[3]?.obfuscation == TransportObfuscation.none)
        #expect(dcs[4]?.port == 4446 && dcs[4]?.obfuscation == .obfuscated2(dcId: 4, secret: padded))
        #expect(store.datacenterAddresses()?[2] == DatacenterAddress(host: "127.0.0.1", port: 4443, secret: secret))
        // The next start knows the secret too.
        let again = AccountNetwork(
            datacenters: [2: template], defaultMainDc: 2, publicKeys: [key.publicKey], store: store, group: group)
        #expect(await again.datacenters[2]?.obfuscation == .obfuscated2(dcId: 2, secret: secret))
        #expect(await again.datacenters[4]?.obfuscation == .obfuscated2(dcId: 4, secret: padded))
        await network.close()
        await again.close()
        try await group.shutdownGracefully()
    }
}
