import AccountNetworking
import CryptoUtils
import Foundation
import MTProtoCore
import MTProtoServer
import NIOCore
import NIOPosix
import Network
import ServerAPI
import ServerTestSupport
import SwiftSignalKit
import TLRuntime
import TelegramApi
import Testing

/// The account network against tg-server's three DCs: sign-in through PHONE_MIGRATE, requests on other DCs with one
/// authorization import each, FLOOD_WAIT waited out, a key the server forgot, and logging out.
@Suite(.serialized) struct AccountNetworkTests {
    static func world(floods: [String: Int] = [:]) async throws -> BackendServer {
        try await BackendServer(flood: .init(testFloods: floods))
    }

    static func network(_ world: BackendServer, store: any NetworkKeyStore = InMemoryNetworkKeyStore(),
                        forwardSecrecy: AccountNetwork.ForwardSecrecy? = nil) -> AccountNetwork {
        AccountNetwork(
            datacenters: world.endpoints, defaultMainDc: 2, publicKeys: world.publicKeys, store: store, group: world.group,
            forwardSecrecy: forwardSecrecy)
    }

    static func close(_ world: BackendServer, _ network: AccountNetwork) async throws {
        await network.close()
        try await world.close()
    }

    /// Signs up `phone` (a test number, code X five times) through `network`, following PHONE_MIGRATE.
    static func signUp(_ network: AccountNetwork, phone: String) async throws -> Int64 {
        let sent = try await network.request(
            Api.functions.auth.sendCode(phoneNumber: phone, apiId: 1, apiHash: "", settings: .codeSettings(.init())))
        guard case .sentCode(let code) = sent else { throw CancellationError() }
        let digit = String(Array(phone)[5])
        let signIn = try await network.request(
            Api.functions.auth.signIn(phoneNumber: phone, phoneCodeHash: code.phoneCodeHash, phoneCode: String(repeating: digit, count: 5)))
        guard case .authorizationSignUpRequired = signIn else { throw CancellationError() }
        let signUp = try await network.request(
            Api.functions.auth.signUp(phoneNumber: phone, phoneCodeHash: code.phoneCodeHash, firstName: "A", lastName: ""))
        guard case .authorization(let authorization) = signUp, case .user(let user) = authorization.user else { throw CancellationError() }
        return user.id
    }

    @Test func signInFollowsPhoneMigrateAndOtherDcsImportTheAuthorizationOnce() async throws {
        let world = try await Self.world()
        let store = InMemoryNetworkKeyStore()
        let network = Self.network(world, store: store)
        // A DC 1 number while talking to DC 2: PHONE_MIGRATE_1 moves the account to DC 1.
        let userId = try await Self.signUp(network, phone: "9996610001")
        #expect(await network.mainDc == 1 && store.mainDatacenter() == 1)
        let me = try await network.request(Api.functions.users.getUsers(id: [.inputUserSelf]))
        guard case .user(let user)? = me.first else { throw CancellationError() }
        #expect(user.id == userId)
        // Files may move through other DCs: the first request there imports the authorization, once, even for
        // several requests at once.
        try await withThrowingTaskGroup(of: Bool.self) { tasks in
            for part: Int32 in 0..<4 {
                tasks.addTask {
                    try await network.request(
                        Api.functions.upload.saveFilePart(fileId: 77, filePart: part, bytes: [UInt8](repeating: 1, count: 1024)), dc: 3)
                }
            }
            for try await saved in tasks { #expect(saved) }
        }
        #expect(await network.importCount == [3: 1])
        #expect(try await network.request(Api.functions.upload.saveFilePart(fileId: 78, filePart: 0, bytes: [1]), dc: 3))
        #expect(await network.importCount == [3: 1])
        // File parts may go on the DC's media session: another session (and socket) on the same key.
        #expect(try await network.request(Api.functions.upload.saveFilePart(fileId: 79, filePart: 0, bytes: [2]), purpose: .media))
        let generic = try await network.connection(dc: 1)
        let media = try await network.connection(dc: 1, purpose: .media)
        #expect(generic !== media && generic.key == media.key)
        // A dropped socket shows as connecting, then online again.
        let states = StateLog()
        let watching = generic.state.start(next: { states.append($0) })
        await generic.dropSocket()
        _ = try await network.request(Api.functions.help.getNearestDc())
        watching.dispose()
        #expect(states.all.first == .online && states.all.contains(.connecting) && states.all.last == .online)
        // Keys were made once per DC used, and kept.
        #expect(store.key(datacenter: 1) != nil && store.key(datacenter: 3) != nil && store.key(datacenter: 2) != nil)
        try await Self.close(world, network)
    }

    @Test func floodWaitIsWaitedOutUnlessTheCallerOptsOut() async throws {
        let world = try await Self.world(floods: ["help.getNearestDc": 1])
        let network = Self.network(world)
        // Timed from the first FLOOD_WAIT_1: the answer comes no sooner than the second the server asked for, whether
        // the retry waited it out or (on a loaded machine) was sent after it had passed.
        let start = Date()
        await #expect(throws: NetworkError.rpc(code: 420, message: "FLOOD_WAIT_1")) {
            _ = try await network.request(Api.functions.help.getNearestDc(), options: .init(automaticFloodWait: 0))
        }
        let nearest = try await network.request(Api.functions.help.getNearestDc())
        #expect(Date().timeIntervalSince(start) >= 0.9)
        guard case .nearestDc(let value) = nearest else { throw CancellationError() }
        #expect(value.thisDc == 2)
        try await Self.close(world, network)
    }

    @Test func aKeyTheServerForgotIsMadeAgainAndLoggingOutIsObserved() async throws {
        let world = try await Self.world()
        let store = InMemoryNetworkKeyStore()
        // A key this server never made: the server answers −404 and the network makes a new one.
        let stranger = try #require(AuthKey(bytes: (0..<256).map { UInt8(truncatingIfNeeded: $0 * 31 + 7) }))
        store.setKey(AuthKeyExchangeResult(authKey: stranger, serverSalt: 1, timeOffset: 0), datacenter: 2)
        let network = Self.network(world, store: store)
        _ = try await network.request(Api.functions.help.getConfig())
        #expect(store.key(datacenter: 2)?.authKey.id != stranger.id)
        _ = try await Self.signUp(network, phone: "9996620009")
        let observed = LoggedOutFlag()
        let disposable = network.loggedOut.start(next: { observed.set($0) })
        #expect(observed.value == false)
        _ = try await network.request(Api.functions.auth.logOut())
        await #expect(throws: NetworkError.rpc(code: 401, message: "AUTH_KEY_UNREGISTERED")) {
            _ = try await network.request(Api.functions.users.getUsers(id: [.inputUserSelf]))
        }
        #expect(observed.value == true)
        disposable.dispose()
        try await Self.close(world, network)
    }

    @Test func cancelledRequestsEndAtOnceAndTheSessionGoesOn() async throws {
        let world = try await Self.world()
        let network = Self.network(world)
        let connection = try await network.connection(dc: 2)
        let tasks = (0..<20).map { _ in
            Task { () -> Bool in
                do {
                    _ = try await connection.invoke(Api.functions.help.getConfig())
                    return true
                } catch is CancellationError {
                    return false
                }
            }
        }
        for task in tasks { task.cancel() }
        var outcomes: [Bool] = []
        for task in tasks { outcomes.append(try await task.value) }
        #expect(outcomes.count == 20)
        // Ordered calls go one after another; the session is still usable.
        for n in 0..<3 {
            let nearest = try await connection.invoke(Api.functions.help.getNearestDc(), ordered: true)
            guard case .nearestDc(let value) = nearest else { throw CancellationError() }
            #expect(value.thisDc == 2, "call \(n)")
        }
        try await Self.close(world, network)
    }

    @Test func pushesArriveAsOneSignalAndTheStatusFollowsTheSocketAndTheStateManager() async throws {
        let world = try await Self.world()
        let ann = Self.network(world)
        let ben = Self.network(world)
        let annId = try await Self.signUp(ann, phone: "9996626001")
        _ = try await Self.signUp(ben, phone: "9996626002")
        let pushed = PushLog()
        let watching = try await ann.updates().start(next: { event in
            if case .updates(let body) = event { pushed.append(body) }
        })
        let statuses = StatusLog()
        let status = try await ann.status().start(next: { statuses.append($0) })
        // Ben finds Ann by her number (contacts.importContacts gives her access hash).
        let contacts = try await ben.request(
            Api.functions.contacts.importContacts(contacts: [.inputPhoneContact(.init(clientId: 1, phone: "9996626001", firstName: "Ann", lastName: ""))]))
        guard case .importedContacts(let imported) = contacts, case .user(let annUser)? = imported.users.first, let hash = annUser.accessHash
        else { throw CancellationError() }
        _ = try await ben.request(
            Api.functions.messages.sendMessage(peer: .inputPeerUser(.init(userId: annId, accessHash: hash)), message: "pushed", randomId: 5))
        let deadline = Date().addingTimeInterval(10)
        while pushed.count == 0, Date() < deadline { try await Task.sleep(nanoseconds: 20_000_000) }
        let first = try #require(pushed.first, "no push within 10 s")
        let updates = try Api.Updates(tlBytes: first)
        guard case .updates(let all) = updates, case .updateNewMessage(let new)? = all.updates.first, case .message(let message) = new.message
        else { throw CancellationError() }
        #expect(message.message == "pushed")
        ann.setUpdating(true)
        ann.setUpdating(false)
        watching.dispose()
        status.dispose()
        #expect(statuses.all == [.online, .updating, .online])
        await ben.close()
        try await Self.close(world, ann)
    }

    @Test func forwardSecrecyRunsSessionsOnBoundTemporaryKeysAndRenewsThem() async throws {
        let world = try await Self.world()
        let store = InMemoryNetworkKeyStore()
        let network = Self.network(world, store: store, forwardSecrecy: .init(lifetime: 60, renewBefore: 59))
        let userId = try await Self.signUp(network, phone: "9996627001")
        let first = try await network.connection(dc: 2)
        let permanent = try #require(store.key(datacenter: 2))
        #expect(first.key.expiresAt != nil && first.key.authKey.id != permanent.authKey.id)
        let bound = await network.temporaryKeysBound
        #expect(bound >= 1)
        // A second later the key has less than `renewBefore` left: the next request runs on a new temporary key,
        // still signed in as the same account (the authorization belongs to the permanent key).
        try await Task.sleep(nanoseconds: 1_200_000_000)
        let me = try await network.request(Api.functions.users.getUsers(id: [.inputUserSelf]))
        guard case .user(let user)? = me.first else { throw CancellationError() }
        #expect(user.id == userId)
        #expect(await network.temporaryKeysBound > bound)
        #expect(try await network.connection(dc: 2).key.authKey.id != first.key.authKey.id)
        #expect(store.key(datacenter: 2)?.authKey.id == permanent.authKey.id)
        try await Self.close(world, network)
    }

    @Test func addressesComeFromHelpGetConfigAndAreKept() async throws {
        let world = try await Self.world()
        let store = InMemoryNetworkKeyStore()
        // The app knows only DC 2; the server's config tells it the rest.
        let network = AccountNetwork(
            datacenters: [2: try #require(world.endpoints[2])], defaultMainDc: 2, publicKeys: world.publicKeys,
            store: store, group: world.group)
        try await network.refreshDatacenters()
        #expect(await network.datacenters.keys.sorted() == [1, 2, 3])
        #expect(store.datacenterAddresses()?[3] == DatacenterAddress(host: "127.0.0.1", port: world.endpoints[3]?.port ?? 0))
        // Sign-in on a DC 1 number follows PHONE_MIGRATE_1 to an address it learnt.
        _ = try await Self.signUp(network, phone: "9996610042")
        #expect(await network.mainDc == 1)
        // A new network over the same store starts with every address.
        let again = AccountNetwork(
            datacenters: [:], defaultMainDc: 2, publicKeys: world.publicKeys, store: store, group: world.group)
        #expect(await again.datacenters.keys.sorted() == [1, 2, 3])
        await again.close()
        try await Self.close(world, network)
    }

    final class PushLog: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [[UInt8]] = []
        func append(_ body: [UInt8]) { lock.withLock { items.append(body) } }
        var count: Int { lock.withLock { items.count } }
        var first: [UInt8]? { lock.withLock { items.first } }
    }

    final class StatusLog: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [AccountNetwork.Status] = []
        func append(_ status: AccountNetwork.Status) { lock.withLock { items.append(status) } }
        var all: [AccountNetwork.Status] { lock.withLock { items } }
    }

    final class StateLog: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [DatacenterConnection.SocketState] = []
        func append(_ state: DatacenterConnection.SocketState) { lock.withLock { items.append(state) } }
        var all: [DatacenterConnection.SocketState] { lock.withLock { items } }
    }

    final class LoggedOutFlag: @unchecked Sendable {
        private let lock = NSLock()
        private var flag = false
        func set(_ value: Bool) { lock.withLock { flag = value } }
        var value: Bool { lock.withLock { flag } }
    }
    /// A closed network opens no connection until it is reopened: a request after `close()` (a task its account
    /// started and did not wait for) fails with `connectionClosed` at once — `tg` crashed at exit when such a request
    /// connected on an event loop group already shut down — and after `reopen()` (the account starts again) it works.
    @Test func aClosedNetworkConnectsOnlyOnceReopened() async throws {
        let world = try await Self.world()
        let network = Self.network(world)
        _ = try await network.request(Api.functions.help.getNearestDc())
        await network.close()
        let started = Date()
        await #expect(throws: NetworkError.connectionClosed) {
            _ = try await network.request(Api.functions.help.getNearestDc())
        }
        #expect(Date().timeIntervalSince(started) < 3)
        network.reopen()
        _ = try await network.request(Api.functions.help.getNearestDc())
        try await Self.close(world, network)
    }
}
