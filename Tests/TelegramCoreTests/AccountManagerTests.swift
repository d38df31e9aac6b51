import Foundation
import NIOPosix
import Network
import PostboxTesting
import TelegramCore
import Testing

/// The account manager's folder on its own (no server): records, the current account and shared data survive a
/// restart, each account gets an owner-only key and its own encrypted Postbox, and a damaged records file is a clear
/// error that leaves the file as it was.
@Suite struct AccountManagerTests {
    static let environment = NetworkEnvironment(
        datacenters: [2: .init(host: "127.0.0.1", port: 1, dcId: 2)], defaultMainDc: 2, publicKeys: [],
        group: MultiThreadedEventLoopGroup.singleton)

    @Test func recordsKeysAndSharedDataSurviveARestart() throws {
        let root = TemporaryDirectory(prefix: "account-manager")
        defer { root.remove() }
        let manager = try AccountManager(rootPath: root.path, environment: Self.environment)
        let first = try manager.addUnauthorizedAccount()
        let second = try manager.addUnauthorizedAccount()
        #expect(first.id != second.id)
        #expect(manager.currentAccountId == second.id)
        try manager.switchTo(first.id)
        try manager.setSharedData("theme", Array("night".utf8))
        #expect(throws: AccountManager.Failure.unknownAccount(.init(rawValue: 42))) { try manager.switchTo(.init(rawValue: 42)) }

        // Each account: a folder with its Postbox, a 0600 key file, the sign-in step stored.
        for account in [first, second] {
            #expect(FileManager.default.fileExists(atPath: account.basePath + "/postbox/db/db_sqlite"))
            let key = root.path + "/accounts-metadata/keys/account-\(account.id.rawValue).key"
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: key)[.posixPermissions] as? Int)
            #expect(mode == 0o600)
            #expect(try account.state() == .phoneEntry)
        }
        let recordsMode = try #require(
            try FileManager.default.attributesOfItem(atPath: root.path + "/accounts-metadata/records.json")[.posixPermissions] as? Int)
        #expect(recordsMode == 0o600)

        let restarted = try AccountManager(rootPath: root.path, environment: Self.environment)
        #expect(restarted.records.map(\.id) == [first.id, second.id])
        #expect(restarted.currentAccountId == first.id)
        #expect(AccountManager.storedCurrentAccountId(rootPath: root.path) == first.id)
        #expect(AccountManager.storedCurrentAccountId(rootPath: root.path + "/nothing-here") == nil)
        #expect(restarted.sharedData("theme") == Array("night".utf8))
        #expect(throws: AccountManager.Failure.notAuthorized(first.id)) { _ = try restarted.account(first.id) }
    }

    @Test func aDamagedRecordsFileIsAClearErrorAndStaysAsItWas() throws {
        let root = TemporaryDirectory(prefix: "account-manager")
        defer { root.remove() }
        let manager = try AccountManager(rootPath: root.path, environment: Self.environment)
        _ = try manager.addUnauthorizedAccount()
        let path = root.path + "/accounts-metadata/records.json"
        try Data("{\"records\": [oops".utf8).write(to: URL(fileURLWithPath: path))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            _ = try AccountManager(rootPath: root.path, environment: Self.environment)
            Issue.record("a damaged records file opened")
        } catch {
            #expect("\(error)".contains("records.json"))
            #expect("\(error)".contains("unreadable account records"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}
