import AccountNetworking
import CryptoUtils
import Foundation
import MTProtoCore
import Network
import Testing

/// The file-backed network store: what it keeps survives a new instance, the file is owner-only, and a broken file
/// is a clear error instead of a silently empty store.
@Suite struct FileNetworkKeyStoreTests {
    @Test func keysMainDcAndAddressesSurviveAndTheFileIsOwnerOnly() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("netstore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("network.json").path
        let key = try #require(AuthKey(bytes: (0..<256).map { UInt8(truncatingIfNeeded: $0 * 7 + 1) }))
        let store = try FileNetworkKeyStore(path: path)
        #expect(store.mainDatacenter() == nil && store.key(datacenter: 2) == nil)
        store.setMainDatacenter(1)
        store.setKey(
            AuthKeyExchangeResult(authKey: key, serverSalt: 42, timeOffset: -1.5, expiresAt: 1_900_000_000),
            datacenter: 1)
        store.setDatacenterAddresses([
            1: .init(host: "127.0.0.1", port: 10443), 2: .init(host: "127.0.0.1", port: 10444),
        ])
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(
            !store.description.contains(String(format: "%02x", key.bytes[0]) + String(format: "%02x", key.bytes[1])))

        let again = try FileNetworkKeyStore(path: path)
        #expect(again.mainDatacenter() == 1)
        #expect(
            again.key(datacenter: 1)
                == AuthKeyExchangeResult(authKey: key, serverSalt: 42, timeOffset: -1.5, expiresAt: 1_900_000_000))
        #expect(again.datacenterAddresses()?[2] == DatacenterAddress(host: "127.0.0.1", port: 10444))
        again.setKey(nil, datacenter: 1)
        #expect(try FileNetworkKeyStore(path: path).key(datacenter: 1) == nil)

        try Data("{not json".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: FileNetworkKeyStore.Failure.malformed(path: path)) { try FileNetworkKeyStore(path: path) }
    }

    @Test func probedTransportSchemesArePerNetworkAndAFileWithoutThemStillOpens() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("netstore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("network.json").path
        // A file written before transport schemes existed (no "transports" field) opens, with none kept.
        try Data(#"{"mainDc":2,"keys":{},"addresses":{"2":{"host":"127.0.0.1","port":10444}}}"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        let old = try FileNetworkKeyStore(path: path)
        #expect(old.mainDatacenter() == 2)
        #expect(old.datacenterAddresses()?[2] == DatacenterAddress(host: "127.0.0.1", port: 10444))
        #expect(old.transportScheme(datacenter: 2, network: "default") == nil)

        let http = TransportScheme(host: "127.0.0.1", port: 10444, http: true)
        let secret = TransportScheme(
            host: "127.0.0.2", port: 443, obfuscated: true, secret: Array(repeating: 7, count: 16))
        old.setTransportScheme(http, datacenter: 2, network: "default")
        old.setTransportScheme(secret, datacenter: 2, network: "office-wifi")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        let again = try FileNetworkKeyStore(path: path)
        #expect(again.transportScheme(datacenter: 2, network: "default") == http)
        #expect(again.transportScheme(datacenter: 2, network: "office-wifi") == secret)
        #expect(again.transportScheme(datacenter: 1, network: "default") == nil)
        again.setTransportScheme(nil, datacenter: 2, network: "default")
        let last = try FileNetworkKeyStore(path: path)
        #expect(last.transportScheme(datacenter: 2, network: "default") == nil)
        #expect(last.transportScheme(datacenter: 2, network: "office-wifi") == secret)
        #expect(last.mainDatacenter() == 2)
    }
}
