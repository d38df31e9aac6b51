import UpdateSequencing
import AccountNetworking
import Foundation
import Network
import Postbox
import PostboxTesting
import NIOPosix
import ServerAPI
import ServerLoopback
import ServerTestSupport
import SwiftSignalKit
import SyncCore
import TLRuntime
import TelegramApi
import TelegramCore
import Testing

/// Accounts of our own against a real tg-server on 127.0.0.1: sign-up through `Authorization` (with a
/// `PHONE_MIGRATE`), live messages into Postbox, catching up after being offline, history and the chat list filled
/// from holes, a log-out that removes the folder, and a second account that none of it touches.
@Suite(.serialized) struct AccountIntegrationTests {
    /// The server and an account manager over it. By default the accounts reach tg-server's application layer in
    /// this process (`LoopbackServer`: no socket, no event loop, no key exchange); `.sockets` runs a tg-server on
    /// 127.0.0.1 behind real MTProto connections, for what only a transport shows (fault proxies, restarts that cut
    /// sockets, third-party clients, tg-server's push directory).
    struct World {
        /// How the accounts reach the server.
        enum Transport {
            case loopback
            case sockets
        }

        /// The server behind the accounts.
        enum Server {
            case loopback(LoopbackServer)
            case sockets(BackendServer)
        }

        let backend: Server
        let root: TemporaryDirectory
        let manager: AccountManager

        init(
            gapWait: Double = 0.5, differenceTotalLimit: Int32? = nil,
            flood: FloodControl.Configuration = .init(messagesPerSecond: 0), stickerSet: Bool = false,
            pushDirectory: URL? = nil, restartable: Bool = false, transport: Transport = .loopback,
            serverClock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
            channelDifferenceGap: Int64? = nil,
            deviceClock: @escaping @Sendable () -> Double = AccountManager.deviceClock
        ) async throws {
            let configuration = UpdateSequencer.Configuration(
                gapWait: gapWait, differenceTotalLimit: differenceTotalLimit)
            root = TemporaryDirectory(prefix: "accounts")
            if transport == .loopback {
                // The loopback has no push directory, and its restart is `LoopbackServer.restart()`.
                try #require(
                    pushDirectory == nil && !restartable && channelDifferenceGap == nil,
                    "a push directory, a restart or a channel difference gap needs `.sockets`")
                let server = try LoopbackServer(flood: flood, clock: serverClock)
                if stickerSet { try server.backend.prepareStickerSet() }
                backend = .loopback(server)
                // No DC addresses or keys: nothing connects, and the event loop group is never used.
                var environment = NetworkEnvironment(
                    datacenters: [:], defaultMainDc: 2, publicKeys: [], group: MultiThreadedEventLoopGroup.singleton)
                environment.customNetwork = { store in server.network(store: store) }
                manager = try AccountManager(
                    rootPath: root.path, environment: environment, stateConfiguration: configuration,
                    clock: deviceClock)
            } else {
                let server = try await BackendServer(
                    flood: flood, stickerSet: stickerSet, pushDirectory: pushDirectory, restartable: restartable,
                    channelDifferenceGap: channelDifferenceGap ?? ServerBackend.defaultChannelDifferenceGap)
                backend = .sockets(server)
                manager = try AccountManager(
                    rootPath: root.path,
                    environment: NetworkEnvironment(
                        datacenters: server.endpoints, defaultMainDc: 2, publicKeys: server.publicKeys,
                        group: server.group),
                    stateConfiguration: configuration)
            }
        }

        /// The tg-server behind real sockets (a `.sockets` world's).
        var server: BackendServer {
            get throws {
                guard case .sockets(let server) = backend else {
                    Issue.record("this world has no sockets: make it with `transport: .sockets`")
                    throw CancellationError()
                }
                return server
            }
        }

        /// The in-process server (a `.loopback` world's).
        var loopback: LoopbackServer {
            get throws {
                guard case .loopback(let server) = backend else {
                    Issue.record("this world runs on sockets: make it with `transport: .loopback`")
                    throw CancellationError()
                }
                return server
            }
        }

        func close(_ accounts: [Account]) async throws {
            for account in accounts { await account.shutdown() }
            switch backend {
            case .loopback(let server): server.remove()
            case .sockets(let server): try await server.close()
            }
            root.remove()
        }
    }

    /// Signs up `phone` (`99966XYYYY`: DC X, code X five times) through the account manager and opens the account.
    static func signUp(_ world: World, phone: String, name: String) async throws -> Account {
        try await signUp(world.manager, phone: phone, name: name)
    }

    /// `signUp` through any account manager (a loopback one included).
    static func signUp(_ manager: AccountManager, phone: String, name: String) async throws -> Account {
        let world = (manager: manager, ())
        let unauthorized = try world.manager.addUnauthorizedAccount()
        let authorization = world.manager.authorization(unauthorized)
        let sent = try await authorization.sendCode(phoneNumber: phone).get()
        guard case .confirmationCodeEntry(_, _, let length) = sent else { throw CancellationError() }
        #expect(length == 5)
        let digit = String(Array(phone)[5])
        #expect(await failure(of: authorization.signIn(code: "00000")) == .invalidCode)
        #expect(try await authorization.signIn(code: String(repeating: digit, count: 5)).get() == .signUpRequired)
        #expect(try unauthorized.state() == .signUp(phone: phone, codeHash: try #require({ if case .confirmationCodeEntry(_, let hash, _) = sent { hash } else { nil } }())))
        let result = try await authorization.signUp(firstName: name, lastName: "").get()
        guard case .loggedIn(let userId) = result else { throw CancellationError() }
        let account = try world.manager.account(unauthorized.id)
        #expect(account.peerId == .user(userId))
        return account
    }

    /// A raw client of a third user (as Telethon would be), signed up on `dc`: a connection of its own on a
    /// `.sockets` world, a loopback network with its own keys otherwise.
    static func rawUser(_ world: World, phone: String, name: String) async throws -> (any RawClient, Int64) {
        let dc = Int32(String(Array(phone)[5]))!
        let client: any RawClient
        switch world.backend {
        case .sockets(let server): client = try await server.connect(dc: dc)
        case .loopback(let server):
            client = server.network(store: InMemoryNetworkKeyStore(mainDatacenter: dc), defaultMainDc: dc)
        }
        let user = try await BackendServer.signUp(client, phone: phone, name: name)
        guard case .user(let value) = user else { throw CancellationError() }
        return (client, value.id)
    }

    /// Finds `phone` through `contacts.importContacts` and returns its input peer.
    static func find(phone: String, with request: (Api.functions.contacts.importContacts) async throws -> Api.contacts.ImportedContacts) async throws -> Api.InputPeer {
        let answer = try await request(
            Api.functions.contacts.importContacts(contacts: [.inputPhoneContact(.init(clientId: 1, phone: phone, firstName: "", lastName: ""))]))
        guard case .importedContacts(let imported) = answer, case .user(let user)? = imported.users.first, let hash = user.accessHash else {
            throw CancellationError()
        }
        return .inputPeerUser(.init(userId: user.id, accessHash: hash))
    }

    /// Finds `phone` over `account`'s network and stores the user in its Postbox (as a contact import would), so the
    /// account can address it; returns the user's input peer.
    @discardableResult
    static func introduce(phone: String, name: String, to account: Account) async throws -> Api.InputPeer {
        let peer = try await find(phone: phone) { try await account.network.request($0) }
        guard case .inputPeerUser(let user) = peer else { throw CancellationError() }
        try account.postbox.transactionSync { tx in
            try tx.updatePeers([
                TelegramUser(id: .user(user.userId), accessHash: .personal(user.accessHash), firstName: name, lastName: nil, username: nil, phone: nil)
            ])
        }
        return peer
    }

    static func storedMessages(_ account: Account, with peer: PeerId) throws -> [Message] {
        try account.postbox.readTransactionSync { tx in try tx.earlierMessages(peerId: peer, before: nil, count: 100_000) }
    }

    static func wait(
        _ what: String, timeout: Double = 20, explain: (() -> String)? = nil, _ condition: () throws -> Bool
    ) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try !condition() {
            guard Date() < deadline else {
                Issue.record("\(what): not within \(timeout) s\(explain.map { "; \($0())" } ?? "")")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test func liveMessagesCatchUpAfterBeingOfflineAndLogOut() async throws {
        let world = try await World()
        // Ann's number lives on DC 1: sendCode on the default DC 2 is answered PHONE_MIGRATE_1, which moves her main DC.
        let ann = try await Self.signUp(world, phone: "9996611001", name: "Ann")
        #expect(await ann.network.mainDc == 1)
        let ben = try await Self.signUp(world, phone: "9996622002", name: "Ben")
        #expect(world.manager.records.count == 2)
        #expect(world.manager.currentAccountId == ben.id)
        ann.start()
        ben.start()
        // Live pushes are what follows each account's first state (what precedes it is history, filled when opened).
        try await Self.wait("both first states") { ann.stateManager.hasCaughtUp && ben.stateManager.hasCaughtUp }
        let annPeer = try await Self.find(phone: "9996611001") { try await ben.network.request($0) }
        let benPeerId = ben.peerId

        // Live: Ben's messages reach Ann's Postbox through pushes, once each.
        let history = LockedValue<[Int]>([])
        let view = ann.historyView(peerId: benPeerId).start(next: { view in history.withLock { $0.append(view.entries.count) } })
        defer { view.dispose() }
        for index in 1...3 {
            let sent = try await ben.network.request(Api.functions.messages.sendMessage(peer: annPeer, message: "live \(index)", randomId: Int64(index)))
            ben.stateManager.addUpdates(sent)
        }
        try await Self.wait("three live messages in Ann's view", explain: {
            "views \(history.withLock { $0 }), stored \((try? Self.storedMessages(ann, with: benPeerId).count) ?? -1), "
                + "caught up \(ann.stateManager.hasCaughtUp), \(ann.stateManager.statistics)"
        }) { history.withLock { $0.last } == 3 }
        #expect(try Self.storedMessages(ann, with: benPeerId).map(\.text).sorted() == ["live 1", "live 2", "live 3"])
        let stored = try #require(try ann.postbox.readTransactionSync { tx in try tx.getPeer(benPeerId) } as? TelegramUser)
        #expect(stored.firstName == "Ben")

        // Offline: Ann's app stops; Ben sends 40 more; on start Ann catches up through the difference.
        await ann.shutdown()
        for index in 4...43 {
            _ = try await ben.network.request(Api.functions.messages.sendMessage(peer: annPeer, message: "offline \(index)", randomId: Int64(index)))
        }
        let differencesBefore = ann.stateManager.statistics.differences
        ann.start()
        try await Self.wait("43 messages after catching up") { try Self.storedMessages(ann, with: benPeerId).count == 43 }
        #expect(ann.stateManager.statistics.differences > differencesBefore)
        let texts = try Self.storedMessages(ann, with: benPeerId).map(\.text)
        #expect(Set(texts).count == 43)
        let unread = try ann.postbox.readTransactionSync { tx in try tx.getCombinedPeerReadState(benPeerId)?.count }
        #expect(unread == 43)

        // Log-out: the server is told, the folder and key go; Ben keeps working.
        let annPath = ann.basePath
        try await world.manager.logOut(ann)
        #expect(!FileManager.default.fileExists(atPath: annPath))
        #expect(world.manager.records.map(\.id) == [ben.id])
        let sent = try await ben.network.request(Api.functions.messages.sendMessage(peer: .inputPeerSelf, message: "still here", randomId: 99))
        ben.stateManager.addUpdates(sent)
        try await world.close([ben])
    }

    /// A fresh sign-in: messages sent before the account's first state are history, not updates. Opening the chat,
    /// which this account has never stored anything of (so it starts as one hole), fetches them.
    @Test func aChatFromBeforeTheFirstStateIsFilledWhenOpened() async throws {
        let world = try await World()
        let ann = try await Self.signUp(world, phone: "9996622011", name: "Ann")
        let ben = try await Self.signUp(world, phone: "9996622012", name: "Ben")
        let annPeer = try await Self.find(phone: "9996622011") { try await ben.network.request($0) }
        for index in 1...3 {
            _ = try await ben.network.request(Api.functions.messages.sendMessage(peer: annPeer, message: "early \(index)", randomId: Int64(index)))
        }
        ann.start()
        try await Self.wait("Ann's first state") { ann.stateManager.hasCaughtUp }
        #expect(try Self.storedMessages(ann, with: ben.peerId).isEmpty, "sent before her state began: not updates")
        // Ann opens the chat from Ben's contact (stored, as a contact import stores him), not from the chat list.
        try await Self.introduce(phone: "9996622012", name: "Ben", to: ann)
        let counts = LockedValue<[Int]>([])
        let view = ann.historyView(peerId: ben.peerId).start(next: { view in counts.withLock { $0.append(view.entries.count) } })
        defer { view.dispose() }
        try await Self.wait("the three, fetched") { counts.withLock { $0.last } == 3 }
        #expect(try Self.storedMessages(ann, with: ben.peerId).map(\.text).sorted() == ["early 1", "early 2", "early 3"])
        #expect(try ann.postbox.readTransactionSync { tx in try tx.getHoles(peerId: ben.peerId, namespace: Namespaces.Message.cloud) }.isEmpty)
        try await world.close([ann, ben])
    }

    @Test func historyAndChatListComeFromHoles() async throws {
        let world = try await World()
        let ann = try await Self.signUp(world, phone: "9996612003", name: "Ann")
        // Before Ann's app starts, Cat (a raw client) writes 150 messages: Ann's state starts after them.
        let (cat, catId) = try await Self.rawUser(world, phone: "9996622004", name: "Cat")
        let annPeer = try await Self.find(phone: "9996612003") { try await cat.invoke($0) }
        for index in 1...150 {
            _ = try await cat.invoke(Api.functions.messages.sendMessage(peer: annPeer, message: "old \(index)", randomId: Int64(index)))
            if index % 50 == 0 {
                // Three documents among them, for the shared-files view.
                let fileId = Int64(9_000 + index)
                _ = try await cat.invoke(Api.functions.upload.saveFilePart(fileId: fileId, filePart: 0, bytes: Array(repeating: UInt8(index), count: 1_000)))
                _ = try await cat.invoke(
                    Api.functions.messages.sendMedia(
                        peer: annPeer,
                        media: .inputMediaUploadedDocument(
                            .init(file: .inputFile(.init(id: fileId, parts: 1, name: "f\(index).pdf", md5Checksum: "")),
                                  mimeType: "application/pdf", attributes: [.documentAttributeFilename(.init(fileName: "f\(index).pdf"))])),
                        message: "", randomId: Int64(10_000 + index)))
            }
        }
        ann.start()
        let catPeerId = PeerId.user(catId)
        #expect(try Self.storedMessages(ann, with: catPeerId).isEmpty)

        // The chat list's hole: the first page of getDialogs brings Cat's chat, its top message and its unread count.
        let chats = LockedValue<[ChatListEntry]>([])
        let list = ann.chatListView(count: 20).start(next: { view in chats.withLock { $0 = view.entries } })
        defer { list.dispose() }
        try await Self.wait("Cat's chat in the list") { chats.withLock { $0.contains { $0.peerId == catPeerId } } }
        let entry = try #require(chats.withLock { $0.first { $0.peerId == catPeerId } })
        #expect(entry.topMessage?.media.first is TelegramMediaFile)
        #expect(entry.unreadCount == 153)
        #expect((entry.peer as? TelegramUser)?.firstName == "Cat")

        // The shared-files view has its own hole space: messages.search with the document filter fills it, and the
        // history's own hole stays for the history view.
        let files = LockedValue<[String]>([])
        let filesView = ann.historyView(peerId: catPeerId, count: 20, tag: .file).start(next: { view in
            files.withLock { $0 = view.entries.compactMap { ($0.message.media.first as? TelegramMediaFile)?.fileName } }
        })
        try await Self.wait("three files in the shared-files view") { files.withLock { $0.count } == 3 }
        filesView.dispose()
        #expect(files.withLock { $0 } == ["f50.pdf", "f100.pdf", "f150.pdf"])
        #expect(try ann.postbox.readTransactionSync { tx in try tx.getHoles(peerId: catPeerId, namespace: 0, space: .tag(.file)) }.isEmpty)
        #expect(try !ann.postbox.readTransactionSync { tx in try tx.getHoles(peerId: catPeerId, namespace: 0) }.isEmpty)
        let requestsBefore = ann.holes.requestCount

        // Opening the chat shows the top message at once; the hole below it is fetched (100 per page), once however
        // many views reach it.
        let counts = LockedValue<[Int]>([])
        let views = (0..<3).map { _ in ann.historyView(peerId: catPeerId, count: 44).start(next: { view in counts.withLock { $0.append(view.entries.count) } }) }
        defer { views.forEach { $0.dispose() } }
        try await Self.wait("the first page of history") { try Self.storedMessages(ann, with: catPeerId).count >= 100 }
        try await Task.sleep(for: .milliseconds(200))
        #expect(ann.holes.requestCount == requestsBefore + 1)
        // Scrolling to the oldest stored message reaches the rest of the hole.
        let oldest = ann.historyView(peerId: catPeerId, anchor: .lowerBound, count: 44).start()
        defer { oldest.dispose() }
        try await Self.wait("all 153 messages") { try Self.storedMessages(ann, with: catPeerId).count == 153 }
        try await Self.wait("no hole left") {
            try ann.postbox.readTransactionSync { tx in try tx.getHoles(peerId: catPeerId, namespace: 0) }.isEmpty
        }
        let texts = try Self.storedMessages(ann, with: catPeerId).map(\.text)
        #expect(Set(texts.filter { !$0.isEmpty }) == Set((1...150).map { "old \($0)" }))
        #expect(texts.count == 153)
        await cat.close()
        try await world.close([ann])
    }
}

/// The error a signal fails with, or `nil` when it delivers a value.
func failure<T: Sendable, E: Error & Sendable>(of signal: Signal<T, E>) async -> E? {
    do {
        _ = try await signal.get()
        return nil
    } catch {
        return error as? E
    }
}

/// Two-step verification and a sign-in that survives a restart of the app between its steps.
@Suite(.serialized) struct PasswordSignInTests {
    @Test func passwordSignInSurvivesARestart() async throws {
        let world = try await AccountIntegrationTests.World()
        let dan = try await AccountIntegrationTests.signUp(world, phone: "9996622005", name: "Dan")
        try await updateTwoStepVerificationPassword(network: dan.network, currentPassword: nil, newPassword: "hunter2", hint: "the usual")

        // Dan signs in on a second account slot: the code is right, then the password is asked for.
        let slot = try world.manager.addUnauthorizedAccount()
        let authorization = world.manager.authorization(slot)
        _ = try await authorization.sendCode(phoneNumber: "9996622005").get()
        #expect(try await authorization.signIn(code: "22222").get() == .passwordRequired(hint: "the usual"))
        #expect(await failure(of: authorization.checkPassword("hunter3")) == .invalidPassword)
        #expect(await failure(of: authorization.signUp(firstName: "X", lastName: "")) == .wrongState)
        await slot.network.close()

        // The app restarts: a new account manager over the same folder finds the slot at the password step.
        let restarted = try AccountManager(rootPath: world.root.path, environment: world.manager.environment)
        #expect(restarted.records.map(\.kind).contains(.unauthorized))
        let reopened = try restarted.unauthorizedAccount(slot.id)
        #expect(try reopened.state() == .passwordEntry(phone: "9996622005", hint: "the usual"))
        let result = try await restarted.authorization(reopened).checkPassword("hunter2").get()
        #expect(result == .loggedIn(userId: dan.peerId.id.rawValue))
        let again = try restarted.account(slot.id)
        #expect(again.peerId == dan.peerId)
        #expect(restarted.currentAccountId == slot.id)
        await again.shutdown()
        try await world.close([dan])
    }
}

/// A push lost on the way (dropped between the network and the state manager, as a lossy link would) opens a gap the
/// state manager closes with `updates.getDifference` after its wait.
@Suite(.serialized) struct ForcedGapTests {
    @Test func aDroppedPushIsRecoveredByTheDifference() async throws {
        let world = try await AccountIntegrationTests.World()
        let eve = try await AccountIntegrationTests.signUp(world, phone: "9996622006", name: "Eve")
        let fay = try await AccountIntegrationTests.signUp(world, phone: "9996622007", name: "Fay")
        let evePeer = try await AccountIntegrationTests.find(phone: "9996622006") { try await fay.network.request($0) }
        var environment = AccountStateManager.Environment.network(eve.network)
        let seen = LockedValue(0)
        environment.updates = environment.updates |> filter { updates in
            guard let updates else { return true }
            // Pushes outside the pts sequence (Fay's `updateUserStatus` as she comes online) are not counted.
            if case .updateShort = updates { return true }
            return seen.withLock { count in
                count += 1
                return count != 2  // the second push never arrives
            }
        }
        let manager = AccountStateManager(
            accountPeerId: eve.peerId, postbox: eve.postbox, environment: environment, configuration: .init(gapWait: 0.5))
        manager.start()
        try await AccountIntegrationTests.wait("the initial state") { try eve.postbox.readTransactionSync { tx in (try tx.getState() as? AuthorizedAccountState)?.state } != nil }
        for index in 1...3 {
            _ = try await fay.network.request(Api.functions.messages.sendMessage(peer: evePeer, message: "gap \(index)", randomId: Int64(index)))
            try await Task.sleep(for: .milliseconds(50))
        }
        try await AccountIntegrationTests.wait("all three after the gap closed") {
            try AccountIntegrationTests.storedMessages(eve, with: fay.peerId).count == 3
        }
        #expect(seen.withLock { $0 } >= 3)
        #expect(manager.statistics.differences >= 1)
        #expect(try AccountIntegrationTests.storedMessages(eve, with: fay.peerId).map(\.text).sorted() == ["gap 1", "gap 2", "gap 3"])
        manager.stop()
        try await world.close([eve, fay])
    }
}

/// An account too far behind: `updates.getDifference` with `pts_total_limit` answers `differenceTooLong`; the chats
/// become holes above what is stored and an open view fills them from the server.
@Suite(.serialized) struct DifferenceTooLongTests {
    @Test func tooFarBehindIsFilledFromHoles() async throws {
        let world = try await AccountIntegrationTests.World(gapWait: 0.5, differenceTotalLimit: 50)
        let gus = try await AccountIntegrationTests.signUp(world, phone: "9996622008", name: "Gus")
        let hal = try await AccountIntegrationTests.signUp(world, phone: "9996622009", name: "Hal")
        let gusPeer = try await AccountIntegrationTests.find(phone: "9996622008") { try await hal.network.request($0) }
        gus.start()
        try await AccountIntegrationTests.wait("Gus's first state") {
            try gus.postbox.readTransactionSync { tx in (try tx.getState() as? AuthorizedAccountState)?.state } != nil
        }
        _ = try await hal.network.request(Api.functions.messages.sendMessage(peer: gusPeer, message: "first", randomId: 1))
        try await AccountIntegrationTests.wait("the first message") { try AccountIntegrationTests.storedMessages(gus, with: hal.peerId).count == 1 }
        await gus.shutdown()
        for index in 1...80 {
            _ = try await hal.network.request(Api.functions.messages.sendMessage(peer: gusPeer, message: "missed \(index)", randomId: Int64(1 + index)))
        }
        gus.start()
        try await AccountIntegrationTests.wait("the reset") { gus.stateManager.statistics.resets == 1 }
        // Only the chat list's reload (its first page: each chat's top message) came; the 79 between are a hole.
        try await AccountIntegrationTests.wait("the chat list reloaded") { gus.chatList.pagesFetched == 1 }
        let afterReset = try AccountIntegrationTests.storedMessages(gus, with: hal.peerId).map(\.text)
        #expect(afterReset.sorted() == ["first", "missed 80"], "\(afterReset.count): \(afterReset.prefix(5))")
        let holes = try gus.postbox.readTransactionSync { tx in try tx.getHoles(peerId: hal.peerId, namespace: 0) }
        #expect(holes.last?.upperBound == Int32.max - 1)
        // The chat's open view reaches the hole above its newest message and fills it.
        let view = gus.historyView(peerId: hal.peerId, count: 44).start()
        defer { view.dispose() }
        try await AccountIntegrationTests.wait("81 messages from the hole") {
            try AccountIntegrationTests.storedMessages(gus, with: hal.peerId).count == 81
        }
        #expect(Set(try AccountIntegrationTests.storedMessages(gus, with: hal.peerId).map(\.text)).count == 81)
        try await world.close([gus, hal])
    }
}
