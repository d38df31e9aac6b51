import UpdateSequencing
import AccountNetworking
import Foundation
import NIOPosix
import Postbox
import ServerLoopback
import SwiftSignalKit
import SyncCore
import TelegramApi
import TelegramCore

/// One seed's server and accounts, and what was sent: where the steps act and the invariants look.
///
/// `@unchecked Sendable`: the simulation drives it from one task at a time; the pts watch writes under `lock`.
final class SimulationWorld: @unchecked Sendable {
    private let server: LoopbackServer
    private let root: URL
    private let manager: AccountManager
    private let faultsByNetwork: LockedFaults
    private(set) var accounts: [Account] = []
    private var faults: [PushFaults] = []
    private var phones: [String] = []
    private var peers: [PeerId] = []
    private var online: [Bool] = []
    /// Every message enqueued, in order: sender, recipient, its tag (its first text), what it says now, and whether
    /// it was deleted for everyone.
    private var sent: [Sent] = []

    struct Sent {
        let from: Int
        let to: Int
        let tag: String
        var text: String
        var deleted = false
    }
    private var watches: [any Disposable] = []
    private let lock = NSLock()
    private var lastPts: [Int: Int32] = [:]
    private var firstPtsViolation: String?

    /// Faults made per network as the account manager opens it, found again by the network's identity.
    private final class LockedFaults: @unchecked Sendable {
        private let lock = NSLock()
        private var byNetwork: [ObjectIdentifier: PushFaults] = [:]
        func make(for network: ObjectIdentifier) -> PushFaults {
            lock.withLock {
                let faults = PushFaults()
                byNetwork[network] = faults
                return faults
            }
        }
        func faults(of network: any AccountNetworking) -> PushFaults? {
            lock.withLock { byNetwork[ObjectIdentifier(network)] }
        }
    }

    /// Signs up an account per DC in `datacenters` (through PHONE_MIGRATE where the number lives off DC 2), lets
    /// every account know every other, and starts them.
    init(seed: UInt64, datacenters: [Int32]) async throws {
        server = try LoopbackServer()
        root = FileManager.default.temporaryDirectory.appendingPathComponent("simulation-\(seed)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let faultsByNetwork = LockedFaults()
        self.faultsByNetwork = faultsByNetwork
        var environment = NetworkEnvironment(
            datacenters: [:], defaultMainDc: 2, publicKeys: [], group: MultiThreadedEventLoopGroup.singleton)
        environment.customNetwork = { [server] store in
            // The filter is installed before the network exists; it finds its faults by the network it is given.
            let box = NetworkBox()
            let network = server.network(store: store, pushes: { body, deliver in
                box.faults?.filter(body, deliver) ?? deliver(.updates(body))
            })
            box.faults = faultsByNetwork.make(for: ObjectIdentifier(network))
            return network
        }
        manager = try AccountManager(
            rootPath: root.path, environment: environment, stateConfiguration: .init(gapWait: 0.05))
        let random = SimulationRandom(seed: seed)
        for (index, dc) in datacenters.enumerated() {
            let phone = "99966\(dc)\(String(format: "%04d", index + 1))"
            let account = try await signUp(phone: phone, name: "A\(index)")
            guard let accountFaults = faultsByNetwork.faults(of: account.network) else { throw SimulationError.setup("no faults") }
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
        for (index, account) in accounts.enumerated() {
            watchPts(of: account, index: index)
            account.start()
        }
        // An account's live updates are what follows its first state; what was sent before it is history (a chat
        // shows it when opened). So the workload starts once every account has its first state.
        if let missing = await settle() { throw SimulationError.setup("the accounts did not start: \(missing)") }
    }

    private final class NetworkBox: @unchecked Sendable {
        var faults: PushFaults?
    }

    // MARK: - Steps

    /// `perform(step)`, or what it was waiting for when `seconds` passed (the step is abandoned, not cancelled).
    func performWithin(_ step: SimulationWorkload.Step, seconds: Double) async throws -> String? {
        let outcome = AsyncStream<Result<Void, any Error>?>.makeStream()
        let work = Task {
            do {
                try await self.perform(step)
                outcome.continuation.yield(.success(()))
            } catch {
                outcome.continuation.yield(.failure(error))
            }
        }
        let timer = Task {
            try? await Task.sleep(for: .seconds(seconds))
            outcome.continuation.yield(nil)
        }
        defer { timer.cancel() }
        for await result in outcome.stream {
            switch result {
            case .success?: return nil
            case .failure(let error)?: throw error
            case nil:
                _ = work
                return "did not finish within \(Int(seconds)) s"
            }
        }
        return nil
    }

    func perform(_ step: SimulationWorkload.Step) async throws {
        switch step {
        case .send(let from, let to, let count):
            var messages: [EnqueueMessage] = []
            for _ in 0..<count {
                let text = "a\(from)→a\(to) #\(sent.count + 1)"
                sent.append(Sent(from: from, to: to, tag: text, text: text))
                messages.append(EnqueueMessage(text: text))
            }
            _ = try accounts[from].enqueue(messages, to: peers[to])
        case .offline(let account):
            await accounts[account].shutdown()
            online[account] = false
        case .online(let account):
            accounts[account].start()
            online[account] = true
        case .restartServer:
            try server.restart()
        case .faultyPushes(let account, let on):
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
        messages(of: message.from, with: message.to).first {
            !$0.flags.contains(.incoming) && $0.id.namespace == Namespaces.Message.cloud && Self.tag(of: $0.text) == message.tag
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
            try await perform(.online(index))
            if let missing = await settle() { return "a\(index) coming back: \(missing)" }
        }
        return nil
    }

    // MARK: - Invariants

    /// Waits until the world is quiet — held pushes handed over, every online account caught up with nothing
    /// unsent, every message of an online sender acknowledged and every acknowledged message at its online
    /// recipient — and returns nil, or what was still missing after `Simulation.settleTimeout`.
    func settle() async -> String? {
        let deadline = Date().addingTimeInterval(Simulation.settleTimeout)
        var missing: String?
        repeat {
            for account in faults { account.flush() }
            missing = self.missing()
            if missing == nil { return nil }
            try? await Task.sleep(for: .milliseconds(5))
        } while Date() < deadline
        return missing
    }

    private func missing() -> String? {
        for (index, account) in accounts.enumerated() where online[index] {
            guard account.stateManager.hasCaughtUp else { return "a\(index) has not caught up" }
            guard let unsent = try? account.postbox.readTransactionSync({ tx in try tx.unsentMessageIds() }), unsent.isEmpty else {
                return "a\(index) still has unsent messages"
            }
        }
        // What each account holds, by tag: its own copies the server acknowledged, and what it received.
        var acknowledged: [Int: [String: String]] = [:]
        var held: [Int: [String: String]] = [:]
        for index in accounts.indices {
            for message in stored(index) {
                let tag = Self.tag(of: message.text)
                if message.flags.contains(.incoming) {
                    held[index, default: [:]][tag] = message.text
                } else if message.id.namespace == Namespaces.Message.cloud {
                    acknowledged[index, default: [:]][tag] = message.text
                }
            }
        }
        for message in sent {
            let mine = acknowledged[message.from]?[message.tag]
            let theirs = held[message.to]?[message.tag]
            if message.deleted {
                if mine != nil { return "\(message.tag) is still at a\(message.from) after its delete" }
                if online[message.to], theirs != nil { return "\(message.tag) is still at a\(message.to) after its delete" }
                continue
            }
            if online[message.from], mine == nil { return "\(message.tag) is not acknowledged" }
            if online[message.from], let mine, mine != message.text {
                return "a\(message.from) shows \(mine), not \(message.text)"
            }
            if mine != nil, online[message.to] {
                guard let theirs else { return "\(message.tag) has not reached a\(message.to)" }
                if theirs != message.text { return "a\(message.to) shows \(theirs), not \(message.text)" }
            }
        }
        return nil
    }

    /// Each side of each chat holds exactly what was sent in it, once, in the order it was enqueued.
    func exactlyOnceInOrder() -> [String] {
        var failures: [String] = []
        for a in accounts.indices {
            for b in accounts.indices where a != b {
                let expected = sent.filter { $0.from == a && $0.to == b && !$0.deleted }.map(\.text)
                let chat = messages(of: a, with: b)
                let outgoing = chat.filter { !$0.flags.contains(.incoming) }.map(\.text)
                if outgoing != expected { failures.append("a\(a)'s copies to a\(b): \(outgoing), sent \(expected)") }
                let incoming = messages(of: b, with: a).filter { $0.flags.contains(.incoming) }.map(\.text)
                if incoming != expected { failures.append("a\(b) received from a\(a): \(incoming), sent \(expected)") }
            }
        }
        return failures
    }

    /// The first time an account's pts went back, if ever.
    var ptsViolation: String? { lock.withLock { firstPtsViolation } }

    private func watchPts(of account: Account, index: Int) {
        watches.append(
            account.stateManager.state.start(next: { [weak self] state in
                guard let self, let pts = state?.pts else { return }
                self.lock.withLock {
                    if let last = self.lastPts[index], pts < last, self.firstPtsViolation == nil {
                        self.firstPtsViolation = "a\(index)'s pts went back from \(last) to \(pts)"
                    }
                    self.lastPts[index] = max(self.lastPts[index] ?? pts, pts)
                }
            }))
    }

    // MARK: - Trace

    /// Every chat's messages in order, one line per account and peer.
    func chats() -> [String] {
        var lines: [String] = []
        for a in accounts.indices {
            for b in accounts.indices where a != b {
                let texts = messages(of: a, with: b).map(\.text)
                if !texts.isEmpty { lines.append("a\(a) with a\(b): \(texts.joined(separator: ", "))") }
            }
        }
        return lines
    }

    func pushCounts() -> [String] {
        faults.enumerated().map { "a\($0.offset)'s pushes: \($0.element.counts)" }
    }

    func shutdown() async {
        for watch in watches { watch.dispose() }
        for account in accounts { await account.shutdown() }
    }

    func remove() {
        server.remove()
        try? FileManager.default.removeItem(at: root)
    }

    // MARK: - Helpers

    private func stored(_ index: Int) -> [Message] {
        accounts.indices.filter { $0 != index }.flatMap { messages(of: index, with: $0) }
    }

    /// `a`'s messages in its chat with `b`, oldest first.
    private func messages(of a: Int, with b: Int) -> [Message] {
        let messages = (try? accounts[a].postbox.readTransactionSync { tx in
            try tx.earlierMessages(peerId: self.peers[b], before: nil, count: 100_000)
        }) ?? []
        return messages.sorted { $0.index < $1.index }
    }

    private func signUp(phone: String, name: String) async throws -> Account {
        let unauthorized = try manager.addUnauthorizedAccount()
        let authorization = manager.authorization(unauthorized)
        _ = try await authorization.sendCode(phoneNumber: phone).get()
        let code = String(repeating: String(Array(phone)[5]), count: 5)
        guard try await authorization.signIn(code: code).get() == .signUpRequired else { throw SimulationError.setup("\(phone) exists") }
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
                    id: .user(user.id), accessHash: .personal(hash), firstName: name, lastName: nil, username: nil, phone: nil)
            ])
        }
    }
}

enum SimulationError: Error {
    case setup(String)
}
