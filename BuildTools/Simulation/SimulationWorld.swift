import AccountNetworking
import CryptoUtils
import Foundation
import NIOPosix
import Postbox
import ServerLoopback
import SwiftSignalKit
import SyncCore
import SyncCoreApi
import Synchronization
import TelegramApi
import TelegramCore
import UpdateSequencing

/// One seed's server and accounts, and what was sent: where the steps act and the invariants look.
///
/// `@unchecked Sendable`: the simulation drives it from one task at a time; the pts watch writes under `lock`.
final class SimulationWorld: @unchecked Sendable {
    private let server: LoopbackServer
    /// The world's virtual time: every device's clock and the server's read it, every account's timers wait on it.
    let clock: SimulationClock
    /// The server's time: the world's clock plus the seed's skew.
    private let serverClock: ServerClock
    private let root: URL
    /// One account manager per account, each with its device's clock.
    private var managers: [AccountManager] = []
    private let faultsByNetwork: LockedFaults
    private(set) var accounts: [Account] = []
    private(set) var faults: [NetworkFaults] = []
    private var phones: [String] = []
    private(set) var peers: [PeerId] = []
    /// The basic group of every account, made by a0 once all have started (three accounts or more).
    private(set) var group: PeerId?
    /// The supergroup of every account (a channel: its own pts, `channels.*` calls), made by a0 once all have started.
    private(set) var supergroup: PeerId?
    /// The secret chat a0 asked a1 for once both had started, and a1 accepted.
    private(set) var secretChat: Int32?
    private(set) var online: [Bool] = []
    /// Every message enqueued, in order: sender, chat, its tag (its first text), what it says now, and whether it
    /// was deleted for everyone.
    private(set) var sent: [Sent] = []
    /// Messages read by their recipient in a private chat (by tag): their sender must see them read.
    private(set) var readTags: Set<String> = []

    struct Sent {
        let from: Int
        let to: SimulationWorkload.Chat
        let tag: String
        var text: String
        var deleted = false
        /// A document's size and SHA-256, for a message that carries one.
        var file: (size: Int, sha256: [UInt8])? = nil
    }
    private var watches: [any Disposable] = []
    let lock = NSLock()
    private var lastPts: [Int: Int32] = [:]
    /// Each account's supergroup pts at the last settle (under `lock`).
    var lastChannelPts: [Int: Int32] = [:]
    /// The first time an account's pts went back (under `lock`).
    private(set) var firstPtsViolationValue: String?
    /// Each account's chat list as its live view last showed it (compared with a fresh read at each settle).
    var liveChatLists: [Int: ChatListView] = [:]
    /// Each account's chats as their live history views last showed them, by account and chat.
    var liveHistories: [Int: [PeerId: MessageHistoryView]] = [:]

    /// Faults made per network as the account manager opens it, found again by the network's identity.
    private final class LockedFaults: @unchecked Sendable {
        private let lock = NSLock()
        private var byNetwork: [ObjectIdentifier: NetworkFaults] = [:]
        func make(for network: ObjectIdentifier) -> NetworkFaults {
            lock.withLock {
                let faults = NetworkFaults()
                byNetwork[network] = faults
                return faults
            }
        }
        func faults(of network: any AccountNetworking) -> NetworkFaults? {
            lock.withLock { byNetwork[ObjectIdentifier(network)] }
        }
    }

    /// Signs up an account per DC in `datacenters` (through PHONE_MIGRATE where the number lives off DC 2), lets
    /// every account know every other, and starts them.
    init(
        seed: UInt64, datacenters: [Int32], serverClockSkew: Double = 0, deviceClockSkews: [Double] = [],
        tracingTasks: Bool = false
    ) async throws {
        // The world's one clock starts at the same instant for every seed (2027-01-15 08:00 UTC), whatever the
        // machine's clock says; from here on only the simulation moves it.
        let clock = SimulationClock(start: Simulation.epoch, tracingTasks: tracingTasks)
        self.clock = clock
        let serverClock = ServerClock(clock: clock, offset: serverClockSkew)
        self.serverClock = serverClock
        let root = Simulation.scratchDirectory.appendingPathComponent("simulation-\(seed)-\(UUID().uuidString)")
        self.root = root
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        server = try LoopbackServer(clock: { serverClock.now }, under: root)
        let faultsByNetwork = LockedFaults()
        self.faultsByNetwork = faultsByNetwork
        var environment = NetworkEnvironment(
            datacenters: [:], defaultMainDc: 2, publicKeys: [], group: MultiThreadedEventLoopGroup.singleton)
        environment.customNetwork = { [server] store in
            // The filter is installed before the network exists; it finds its faults by the network it is given.
            let box = NetworkBox()
            let network = server.network(
                store: store,
                pushes: { body, deliver in
                    clock.noteActivity()
                    box.faults?.filter(body, deliver) ?? deliver(.updates(body))
                },
                calls: { function in
                    clock.noteActivity()
                    return box.faults?.loseAnswer(function) ?? false
                },
                sleep: { try await clock.sleep($0) })
            box.faults = faultsByNetwork.make(for: ObjectIdentifier(network))
            return network
        }
        let random = SimulationRandom(seed: seed)
        for (index, dc) in datacenters.enumerated() {
            let skew = index < deviceClockSkews.count ? deviceClockSkews[index] : 0
            managers.append(
                try AccountManager(
                    rootPath: root.appendingPathComponent("a\(index)").path, environment: environment,
                    stateConfiguration: .init(gapWait: 0.05), clock: { clock.now + skew },
                    scheduling: clock.scheduling))
            let phone = "99966\(dc)\(String(format: "%04d", index + 1))"
            let account = try await signUp(phone: phone, name: "A\(index)", with: managers[index])
            guard let accountFaults = faultsByNetwork.faults(of: account.network) else {
                throw SimulationError.setup("no faults")
            }
            accountFaults.configure(random: random.split(UInt64(index + 1)))
            accounts.append(account)
            faults.append(accountFaults)
            phones.append(phone)
            peers.append(account.peerId)
            online.append(true)
        }
        for (index, account) in accounts.enumerated() {
            for other in accounts.indices where other != index {
                try await introduce(phone: phones[other], name: "A\(other)", to: account)
            }
        }
        // From the first start on, what other threads enqueue on the accounts' queues waits for the world's driver to
        // admit it once the world is quiet (`SimulationExecutor`): the order the queues run in is the seed's.
        clock.executor.close()
        for (index, account) in accounts.enumerated() {
            watchPts(of: account, index: index)
            watchChatList(of: account, index: index)
            account.start()
        }
        // An account's live updates are what follows its first state; what was sent before it is history (a chat
        // shows it when opened). So the workload starts once every account has its first state.
        if let missing = await settle() { throw SimulationError.setup("the accounts did not start: \(missing)") }
        if accounts.count >= 3 {
            if let stuck = try await driven("the group is being made", { try await self.makeGroup() }) {
                throw SimulationError.setup("the group: \(stuck)")
            }
            if let missing = await settle() {
                throw SimulationError.setup("the group did not reach everyone: \(missing)")
            }
        }
        if let stuck = try await driven("the supergroup is being made", { try await self.makeSupergroup() }) {
            throw SimulationError.setup("the supergroup: \(stuck)")
        }
        if let missing = await settle() {
            throw SimulationError.setup("the supergroup did not reach everyone: \(missing)")
        }
        try await makeSecretChat()
        // Every chat's history is open from here on, as a chat screen keeps it: each must stay equal to a fresh read.
        for index in accounts.indices {
            for (_, peer) in chatPeers(of: index) { watchHistory(of: accounts[index], index: index, peer: peer) }
        }
    }

    /// a0 asks a1 for a secret chat; a1 accepts once the request reached it; both then hold the chat's key.
    private func makeSecretChat() async throws {
        let user = try accounts[0].postbox.readTransactionSync { tx in try tx.getPeer(self.peers[1]) as? TelegramUser }
        guard let user, let hash = user.accessHash else { throw SimulationError.setup("a0 does not know a1") }
        let requested = Mutex<Int32?>(nil)
        if let stuck = try await driven(
            "a0 asks for a secret chat",
            {
                let chatId = try await self.accounts[0].secretChats.request(
                    userId: user.id.id.rawValue, accessHash: hash.value)
                requested.withLock { $0 = chatId }
            })
        {
            throw SimulationError.setup(stuck)
        }
        guard let chatId = requested.withLock({ $0 }) else { throw SimulationError.setup("no secret chat") }
        try await waitFor("a1 hears of the secret chat") {
            if case .incoming? = try self.accounts[1].secretChats.record(chatId: chatId)?.phase { true } else { false }
        }
        if let stuck = try await driven(
            "a1 accepts the secret chat", { try await self.accounts[1].secretChats.accept(chatId: chatId) })
        {
            throw SimulationError.setup(stuck)
        }
        try await waitFor("a0 holds the secret chat's key") {
            try self.accounts[0].secretChats.record(chatId: chatId)?.session != nil
        }
        secretChat = chatId
    }

    /// Runs the world (`drive`) until `condition` holds.
    private func waitFor(_ what: String, _ condition: () throws -> Bool) async throws {
        var failure: (any Error)?
        let missing = await drive(missing: {
            do {
                return try condition() ? nil : what
            } catch {
                failure = error
                return nil
            }
        })
        if let failure { throw SimulationError.setup("\(what): \(failure)") }
        if let missing { throw SimulationError.setup("not yet: \(missing)") }
    }

    /// a0 makes a supergroup (`channels.createChannel` with `megagroup`) and invites every other account
    /// (`channels.inviteToChannel`); they learn of it by push.
    private func makeSupergroup() async throws {
        do {
            let made = try await accounts[0].createChannel(title: "Everyone", kind: .supergroup)
            if accounts.count > 1 { try await accounts[0].invite(Array(peers.dropFirst()), to: made) }
            supergroup = made
        } catch {
            throw SimulationError.setup("the supergroup: \(error)")
        }
    }

    /// a0 makes a basic group of every account (`messages.createChat`); the others learn of it by push.
    private func makeGroup() async throws {
        let creator = accounts[0]
        let users = try creator.postbox.readTransactionSync { tx in
            try self.peers.dropFirst().compactMap { peerId -> Api.InputUser? in
                guard let user = try tx.getPeer(peerId) as? TelegramUser, let hash = user.accessHash else { return nil }
                return .inputUser(.init(userId: peerId.id.rawValue, accessHash: hash.value))
            }
        }
        let answer = try await creator.network.request(Api.functions.messages.createChat(users: users, title: "All"))
        guard case .invitedUsers(let invited) = answer, case .updates(let updates) = invited.updates,
            let made = updates.chats.compactMap(TelegramGroup.init).first
        else { throw SimulationError.setup("no group in the answer") }
        creator.stateManager.addUpdates(invited.updates)
        group = made.id
    }

    private final class NetworkBox: @unchecked Sendable {
        var faults: NetworkFaults?
    }

    // MARK: - Steps

    /// `perform(step)` while the world runs (`drive`: a step waiting for a retry needs the clock moved), or what it
    /// was waiting for when it did not finish (the step is abandoned, not cancelled).
    func performWithin(_ step: SimulationWorkload.Step) async throws -> String? {
        // Time passing moves the clock itself; a drive beside it would fire the same timers against its own bound.
        if case .timePasses(let seconds) = step { return await passTime(Double(seconds)) }
        return try await driven("the step is running") { try await self.perform(step) }
    }

    /// Runs `body` while the world runs (`drive`): what it waits for (a queue's task, a timer) happens meanwhile.
    /// `body` is a task of the world (on its executor, admitted when the world is quiet), so that the product code it
    /// calls takes its turns among the world's tasks rather than racing them from another thread. Returns nil, or what
    /// was still missing when the drive gave up (the work is abandoned, not cancelled); throws what `body` threw.
    func driven(_ what: String, _ body: @escaping @Sendable () async throws -> Void) async throws -> String? {
        let outcome = StepOutcome()
        let work = Task(executorPreference: clock.executor) {
            do {
                try await body()
                outcome.set(.success(()))
            } catch {
                outcome.set(.failure(error))
            }
        }
        if let stuck = await drive(missing: { outcome.result == nil ? what : nil }) {
            _ = work
            return "did not finish: \(stuck)"
        }
        if case .failure(let error)? = outcome.result { throw error }
        return nil
    }

    /// A step's result, once it has one.
    private final class StepOutcome: Sendable {
        private let value = Mutex<Result<Void, any Error>?>(nil)
        var result: Result<Void, any Error>? { value.withLock { $0 } }
        func set(_ result: Result<Void, any Error>) { value.withLock { $0 = result } }
    }

    func perform(_ step: SimulationWorkload.Step) async throws {
        switch step {
        case .send(let from, .secret, let count):
            // A secret message is sealed and sent by the online account's secret-chat manager.
            guard online[from], let secretChat else { return }
            for _ in 0..<count {
                let text = "a\(from)→s #\(sent.count + 1)"
                sent.append(Sent(from: from, to: .secret, tag: text, text: text))
                try await accounts[from].secretChats.send(text: text, chatId: secretChat)
            }
        case .send(let from, let to, let count):
            var messages: [EnqueueMessage] = []
            for _ in 0..<count {
                let text = "a\(from)→\(Self.short(to)) #\(sent.count + 1)"
                sent.append(Sent(from: from, to: to, tag: text, text: text))
                messages.append(EnqueueMessage(text: text))
            }
            _ = try accounts[from].enqueue(messages, to: chat(to))
        case .sendFile(let from, let to, let bytes):
            let text = "a\(from)→\(Self.short(to)) #\(sent.count + 1) 📎"
            let content = Self.fileContent(size: bytes, salt: UInt64(sent.count + 1))
            let path = root.appendingPathComponent("file-\(sent.count + 1).bin")
            try Data(content).write(to: path)
            let file = try accounts[from].prepareFile(
                path: path.path, name: "file-\(sent.count + 1).bin", mimeType: "application/octet-stream")
            sent.append(
                Sent(from: from, to: to, tag: Self.tag(of: text), text: text, file: (bytes, Digest.sha256(content))))
            _ = try accounts[from].enqueue([EnqueueMessage(text: text, file: file)], to: chat(to))
        case .offline(let account):
            await accounts[account].shutdown()
            online[account] = false
        case .online(let account):
            accounts[account].start()
            online[account] = true
        case .restartServer:
            try server.restart()
        case .faultyNetwork(let account, let on):
            faults[account].setFaulty(on)
        case .edit(let account, let pick):
            guard let index = candidate(of: account, pick: pick), let id = cloudId(of: sent[index]) else { return }
            let text = sent[index].tag + " (edited \(pick))"
            try await accounts[account].editMessage(id, text: text)
            sent[index].text = text
        case .delete(let account, let pick):
            guard let index = candidate(of: account, pick: pick), let id = cloudId(of: sent[index]) else { return }
            try await accounts[account].deleteMessages([id], forEveryone: true)
            sent[index].deleted = true
        case .read(let account, let chat):
            try await read(account, chat)
        case .timePasses(let seconds):
            // `performWithin` moves the clock for this step itself; `perform` alone (no world running) does too.
            if let stuck = await passTime(Double(seconds)) { throw SimulationError.setup(stuck) }
        }
    }

    /// The reader marks the chat read up to its newest incoming message; in a private chat the messages it read are
    /// noted, for their sender to see read.
    private func read(_ reader: Int, _ chat: SimulationWorkload.Chat) async throws {
        guard online[reader] else { return }
        let peer = self.chat(chat)
        let incoming = messages(of: reader, in: peer).filter {
            $0.flags.contains(.incoming) && $0.id.namespace == Namespaces.Message.cloud
        }
        guard let newest = incoming.last else { return }
        try await accounts[reader].markRead(peerId: peer, upTo: newest.id.id)
        if case .account = chat { readTags.formUnion(incoming.map { Self.tag(of: $0.text) }) }
    }

    /// How a message's text names its chat: the other account, `g` for the group, `sg` for the supergroup.
    static func short(_ chat: SimulationWorkload.Chat) -> String {
        switch chat {
        case .group: return "g"
        case .supergroup: return "sg"
        case .account, .secret: return chat.description
        }
    }

    /// The peer of a chat as seen by the account that writes in it.
    func chat(_ chat: SimulationWorkload.Chat) -> PeerId {
        switch chat {
        case .account(let index): return peers[index]
        case .group: return group ?? peers[0]
        case .supergroup: return supergroup ?? peers[0]
        case .secret: return SecretChatRecord.peerId(secretChat ?? 0)
        }
    }

    /// Where `holder` keeps `message`: the sender in its chat with the recipient, the recipient in its chat with the
    /// sender, every member in the group.
    func chat(of message: Sent, at holder: Int) -> PeerId {
        switch message.to {
        case .group, .supergroup, .secret: return chat(message.to)
        case .account: return holder == message.from ? chat(message.to) : peers[message.from]
        }
    }

    /// Who receives `message`.
    func recipients(of message: Sent) -> [Int] {
        switch message.to {
        case .account(let index): return [index]
        case .group, .supergroup: return accounts.indices.filter { $0 != message.from }
        case .secret: return [1 - message.from]
        }
    }

    /// The `pick`-th message `account` sent that is still there, if it is online and has one.
    private func candidate(of account: Int, pick: Int) -> Int? {
        guard online[account] else { return nil }
        let mine = sent.indices.filter { sent[$0].from == account && !sent[$0].deleted }
        return mine.isEmpty ? nil : mine[pick % mine.count]
    }

    /// The sender's server id of a message (after a settle every message of an online sender has one).
    private func cloudId(of message: Sent) -> MessageId? {
        messages(of: message.from, in: chat(message.to)).first {
            !$0.flags.contains(.incoming) && $0.id.namespace == Namespaces.Message.cloud
                && Self.tag(of: $0.text) == message.tag
        }?.id
    }

    /// A message's tag: its text up to the first space after the number (an edit appends to it).
    static func tag(of text: String) -> String {
        guard let hash = text.firstIndex(of: "#") else { return text }
        return String(text[..<(text[hash...].firstIndex(of: " ") ?? text.endIndex)])
    }

    /// Every network clean, every account back online — one at a time, each settled before the next, so that two
    /// queues flushing at once do not make the order of a chat depend on the threads (the trace must replay).
    func finish() async throws -> String? {
        for index in accounts.indices { faults[index].setFaulty(false) }
        for index in accounts.indices where !online[index] {
            if let stuck = try await performWithin(.online(index)) { return "a\(index) coming back: \(stuck)" }
            if let missing = await settle() { return "a\(index) coming back: \(missing)" }
        }
        return nil
    }

    /// Notes an account's published pts; the first that goes back is kept as the violation.
    func recordPts(_ pts: Int32, of index: Int) {
        lock.withLock {
            if let last = lastPts[index], pts < last, firstPtsViolationValue == nil {
                firstPtsViolationValue = "a\(index)'s pts went back from \(last) to \(pts)"
            }
            lastPts[index] = max(lastPts[index] ?? pts, pts)
        }
    }

    /// Keeps a subscription until `shutdown`.
    func watch(_ disposable: any Disposable) {
        watches.append(disposable)
    }

    // MARK: - Trace

    /// Every chat's messages in order, one line per account and chat, each with its date (seconds from
    /// `Simulation.epoch`: the world's clock starts there and moves only as the seed says, so dates replay too).
    func chats() -> [String] {
        var lines: [String] = []
        for a in accounts.indices {
            for (name, peer) in chatPeers(of: a) {
                let texts = messages(of: a, in: peer).filter { !$0.text.isEmpty }.map {
                    "\($0.text) @\(Int64($0.timestamp) - Int64(Simulation.epoch))"
                }
                if !texts.isEmpty { lines.append("a\(a) with \(name): \(texts.joined(separator: ", "))") }
            }
        }
        return lines
    }

    func pushCounts() -> [String] {
        faults.enumerated().map { "a\($0.offset)'s pushes: \($0.element.counts)" }
    }

    func shutdown() async {
        // Nothing drives the world any more: its queues run what arrives as it arrives.
        clock.executor.open()
        for watch in watches { watch.dispose() }
        for account in accounts { await account.shutdown() }
    }

    func remove() {
        server.remove()
        try? FileManager.default.removeItem(at: root)
    }

    // MARK: - Helpers

    /// Every chat `index` has with the others, named: each other account's, then the group's, the supergroup's and the secret chat.
    func chatPeers(of index: Int) -> [(name: String, peer: PeerId)] {
        let secret = secretChat.flatMap { index <= 1 ? [("the secret chat", SecretChatRecord.peerId($0))] : nil }
        return accounts.indices.filter { $0 != index }.map { ("a\($0)", peers[$0]) }
            + (group.map { [("the group", $0)] } ?? []) + (supergroup.map { [("the supergroup", $0)] } ?? [])
            + (secret ?? [])
    }

    /// Every message `index` holds in its chats.
    func stored(_ index: Int) -> [Message] {
        chatPeers(of: index).flatMap { messages(of: index, in: $0.peer) }
    }

    /// `a`'s messages in the chat `peer`, oldest first.
    func messages(of a: Int, in peer: PeerId) -> [Message] {
        let messages =
            (try? accounts[a].postbox.readTransactionSync { tx in
                try tx.earlierMessages(peerId: peer, before: nil, count: 100_000)
            }) ?? []
        return messages.sorted { $0.index < $1.index }
    }

    private func signUp(phone: String, name: String, with manager: AccountManager) async throws -> Account {
        let unauthorized = try manager.addUnauthorizedAccount()
        let authorization = manager.authorization(unauthorized)
        _ = try await authorization.sendCode(phoneNumber: phone).get()
        let code = String(repeating: String(Array(phone)[5]), count: 5)
        guard try await authorization.signIn(code: code).get() == .signUpRequired else {
            throw SimulationError.setup("\(phone) exists")
        }
        guard case .loggedIn = try await authorization.signUp(firstName: name, lastName: "").get() else {
            throw SimulationError.setup("\(phone) did not sign up")
        }
        return try manager.account(unauthorized.id)
    }

    /// Finds `phone` over `account`'s network and keeps the user in its Postbox, as a contact import does.
    private func introduce(phone: String, name: String, to account: Account) async throws {
        let answer = try await account.network.request(
            Api.functions.contacts.importContacts(
                contacts: [.inputPhoneContact(.init(clientId: 1, phone: phone, firstName: "", lastName: ""))]))
        guard case .importedContacts(let imported) = answer, case .user(let user)? = imported.users.first,
            let hash = user.accessHash
        else { throw SimulationError.setup("\(phone) not found") }
        try account.postbox.transactionSync { tx in
            try tx.updatePeers([
                TelegramUser(
                    id: .user(user.id), accessHash: .personal(hash), firstName: name, lastName: nil, username: nil,
                    phone: nil)
            ])
        }
    }
}

enum SimulationError: Error {
    case setup(String)
}

/// The simulated server's clock: the world's clock plus the seed's skew (the world's clock only goes forward, as
/// Telegram's servers' do; a client's clock may be anywhere).
final class ServerClock: Sendable {
    private let clock: SimulationClock
    private let offset: Double

    init(clock: SimulationClock, offset: Double) {
        self.clock = clock
        self.offset = offset
    }

    var now: Double { clock.now + offset }
}
