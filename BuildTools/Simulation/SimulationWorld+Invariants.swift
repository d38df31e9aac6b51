import Foundation
import Postbox
import SwiftSignalKit
import SyncCore
import TelegramCore
import UpdateSequencing

/// What must hold in the world: checked at every settle (`missing`, `views`), continuously (pts), and at the end
/// (`exactlyOnceInOrder`).
extension SimulationWorld {
    /// Runs the world (`drive`) until it is quiet — held pushes handed over, every online account caught up with
    /// nothing unsent, every message of an online sender acknowledged and every acknowledged message at its online
    /// recipients, the group known to every member — and the read states and live views check out; returns nil, or
    /// what was still missing or wrong when the world gave up.
    func settle() async -> String? {
        await drive {
            for account in faults { account.flush() }
            return self.missing() ?? readStateViolation() ?? staleChatList() ?? staleHistory()
        }
    }

    private func missing() -> String? {
        for (index, account) in accounts.enumerated() where online[index] {
            guard account.stateManager.hasCaughtUp else { return "a\(index) has not caught up" }
            guard let unsent = try? account.postbox.readTransactionSync({ tx in try tx.unsentMessageIds() }),
                unsent.isEmpty
            else {
                return "a\(index) still has unsent messages"
            }
            for (name, peer) in [("the group", group), ("the supergroup", supergroup)] {
                guard let peer, (try? account.postbox.readTransactionSync { tx in try tx.getPeer(peer) }) == nil
                else { continue }
                return "a\(index) does not know \(name)"
            }
            if let violation = channelPtsViolation(of: index) { return violation }
        }
        // What each account holds, by tag: its own copies the server acknowledged, and what it received.
        var acknowledged: [Int: [String: String]] = [:]
        var held: [Int: [String: String]] = [:]
        for index in accounts.indices {
            // A secret message is the server's once its sealed copy left the chat's outbox.
            let secretSent = secretChat.map { chat in
                (try? accounts[index].secretChats.record(chatId: chat)?.outbox.isEmpty) ?? false
            }
            for message in stored(index) where !message.text.isEmpty {
                let tag = Self.tag(of: message.text)
                if message.flags.contains(.incoming) {
                    held[index, default: [:]][tag] = message.text
                } else if message.id.namespace == Namespaces.Message.cloud
                    || (message.id.peerId.namespace == Namespaces.Peer.secretChat && secretSent == true)
                {
                    acknowledged[index, default: [:]][tag] = message.text
                }
            }
        }
        for message in sent {
            let mine = acknowledged[message.from]?[message.tag]
            if message.deleted {
                if mine != nil { return "\(message.tag) is still at a\(message.from) after its delete" }
                for recipient in recipients(of: message) where online[recipient] && held[recipient]?[message.tag] != nil
                {
                    return "\(message.tag) is still at a\(recipient) after its delete"
                }
                continue
            }
            if online[message.from], mine == nil { return "\(message.tag) is not acknowledged" }
            if online[message.from], let mine, mine != message.text {
                return "a\(message.from) shows \(mine), not \(message.text)"
            }
            guard mine != nil else { continue }
            for recipient in recipients(of: message) where online[recipient] {
                guard let theirs = held[recipient]?[message.tag] else {
                    return "\(message.tag) has not reached a\(recipient)"
                }
                if theirs != message.text { return "a\(recipient) shows \(theirs), not \(message.text)" }
            }
        }
        return nil
    }

    /// Every online account's unread count of each chat equals a recount of its incoming messages past the read
    /// mark; a private message its recipient read shows read at its sender.
    private func readStateViolation() -> String? {
        for index in accounts.indices where online[index] {
            for (name, peer) in chatPeers(of: index) {
                let state = try? accounts[index].postbox.readTransactionSync { tx in
                    try tx.getCombinedPeerReadState(peer)?.states[Namespaces.Message.cloud]
                }
                let incoming = messages(of: index, in: peer).filter {
                    $0.flags.contains(.incoming) && $0.id.namespace == Namespaces.Message.cloud
                }
                let readMark = state?.maxIncomingReadId ?? 0
                let recount = incoming.filter { $0.id.id > readMark }.count
                let count = Int(state?.count ?? 0)
                if count != recount {
                    return "a\(index)'s unread count with \(name) is \(count), a recount gives \(recount)"
                }
            }
        }
        for message in sent where readTags.contains(message.tag) && !message.deleted && online[message.from] {
            let peer = chat(of: message, at: message.from)
            guard
                let copy = messages(of: message.from, in: peer).first(where: {
                    !$0.flags.contains(.incoming) && Self.tag(of: $0.text) == message.tag
                })
            else { continue }
            let outboxMark =
                (try? accounts[message.from].postbox.readTransactionSync { tx in
                    try tx.getCombinedPeerReadState(peer)?.states[Namespaces.Message.cloud]?.maxOutgoingReadId
                }) ?? nil
            if (outboxMark ?? 0) < copy.id.id {
                return "a\(message.from) does not see \(message.tag) read (outbox mark \(outboxMark ?? 0))"
            }
        }
        return nil
    }

    /// Every online account's live chat list view shows what a fresh read of its Postbox shows.
    private func staleChatList() -> String? {
        for index in accounts.indices where online[index] {
            let fresh = Self.first(
                of: accounts[index].postbox.tailChatListView(count: Self.chatListCount), on: accounts[index].postbox)
            let live = lock.withLock { liveChatLists[index] }
            if fresh != live {
                return
                    "a\(index)'s live chat list (\(Self.describe(live))) differs from a fresh read (\(Self.describe(fresh)))"
            }
        }
        return nil
    }

    /// Every online account's live history view of each chat shows what a fresh read of its Postbox shows.
    private func staleHistory() -> String? {
        for index in accounts.indices where online[index] {
            let live = lock.withLock { liveHistories[index] ?? [:] }
            for (name, peer) in chatPeers(of: index) where live[peer] != nil {
                let fresh = Self.first(of: historyView(of: accounts[index], peer: peer), on: accounts[index].postbox)
                guard fresh != live[peer] else { continue }
                let shown = { (view: MessageHistoryView?) in
                    view?.entries.map(\.message.text).joined(separator: ", ") ?? "none"
                }
                return "a\(index)'s live history with \(name) (\(shown(live[peer]))) differs from a fresh read "
                    + "(\(shown(fresh)))"
            }
        }
        return nil
    }

    /// Each side of each chat holds exactly what was sent in it, once, in the order it was enqueued; every member of
    /// the group holds its messages in one order, each sender's in the order it enqueued them.
    func exactlyOnceInOrder() -> [String] {
        var failures: [String] = []
        for a in accounts.indices {
            for b in accounts.indices where a != b {
                let expected = sent.filter { $0.from == a && $0.to == .account(b) && !$0.deleted }.map(\.text)
                let outgoing = messages(of: a, in: peers[b]).filter { !$0.flags.contains(.incoming) }.map(\.text)
                if outgoing != expected { failures.append("a\(a)'s copies to a\(b): \(outgoing), sent \(expected)") }
                let incoming = messages(of: b, in: peers[a]).filter { $0.flags.contains(.incoming) }.map(\.text)
                if incoming != expected { failures.append("a\(b) received from a\(a): \(incoming), sent \(expected)") }
                // Both sides list the chat in one order: every message carries the server's date on both sides,
                // whatever each device's clock says.
                if a < b {
                    let mine = messages(of: a, in: peers[b]).map(\.text).filter { !$0.isEmpty }
                    let theirs = messages(of: b, in: peers[a]).map(\.text).filter { !$0.isEmpty }
                    if mine != theirs {
                        failures.append("a\(a) lists its chat with a\(b) as \(mine), a\(b) as \(theirs)")
                    }
                }
            }
        }
        if let secretChat {
            let peer = SecretChatRecord.peerId(secretChat)
            for a in 0...1 {
                let expected = sent.filter { $0.from == a && $0.to == .secret }.map(\.text)
                let outgoing = messages(of: a, in: peer).filter { !$0.flags.contains(.incoming) }.map(\.text)
                if outgoing != expected { failures.append("a\(a)'s secret messages: \(outgoing), sent \(expected)") }
                let incoming = messages(of: 1 - a, in: peer).filter { $0.flags.contains(.incoming) }.map(\.text)
                if incoming != expected {
                    failures.append("a\(1 - a) decrypted from a\(a): \(incoming), sent \(expected)")
                }
            }
            // Both sides date every message by the server (a sent one by `sentEncryptedMessage`, a received one by
            // its `encryptedMessage`), so they agree on the order of messages of different seconds; within one second
            // each side lists its own first (outgoing and incoming secret messages are in different namespaces, as in
            // Telegram-iOS), so a second's messages are compared as a set.
            let orders = (0...1).map { messages(of: $0, in: peer).filter { !$0.text.isEmpty } }
            let bySecond = { (list: [Message]) -> [[String]] in
                var seconds: [[String]] = []
                var last: Int32?
                for message in list {
                    if message.timestamp != last { seconds.append([]) }
                    seconds[seconds.count - 1].append(message.text)
                    last = message.timestamp
                }
                return seconds.map { $0.sorted() }
            }
            if bySecond(orders[0]) != bySecond(orders[1]) {
                // Each with its date, relative to the first's: an order is wrong because a date is.
                let shown = { (list: [Message]) in
                    list.map { "\($0.text) @\($0.timestamp - (list.first?.timestamp ?? 0))" }
                }
                failures.append("a0 lists the secret chat as \(shown(orders[0])), a1 as \(shown(orders[1]))")
            }
        }
        if let group { failures += oneOrder(of: .group, peer: group) }
        if let supergroup { failures += oneOrder(of: .supergroup, peer: supergroup) }
        return failures
    }

    /// Every member holds the chat's messages in one and the same order, each sender's in the order it enqueued them.
    private func oneOrder(of chat: SimulationWorkload.Chat, peer: PeerId) -> [String] {
        var failures: [String] = []
        let orders = accounts.indices.map { messages(of: $0, in: peer).map(\.text).filter { !$0.isEmpty } }
        for (member, order) in orders.enumerated() {
            if order != orders[0] { failures.append("a\(member)'s order in \(chat) \(order) is not a0's \(orders[0])") }
            for sender in accounts.indices {
                let expected = sent.filter { $0.from == sender && $0.to == chat && !$0.deleted }.map(\.text)
                let held = order.filter { $0.hasPrefix("a\(sender)→\(Self.short(chat)) ") }
                if held != expected {
                    failures.append("a\(member) holds a\(sender)'s messages in \(chat) \(held), sent \(expected)")
                }
            }
        }
        return failures
    }

    /// The supergroup's own pts at account `index` never goes back (read at each settle: it is stored with the
    /// updates it accounts for, `ChannelState`).
    private func channelPtsViolation(of index: Int) -> String? {
        guard let supergroup,
            let pts =
                (try? accounts[index].postbox.readTransactionSync { tx in
                    (try tx.getPeerChatState(supergroup) as? ChannelState)?.pts
                }) ?? nil
        else { return nil }
        return lock.withLock {
            defer { lastChannelPts[index] = max(lastChannelPts[index] ?? pts, pts) }
            guard let last = lastChannelPts[index], pts < last else { return nil }
            return "a\(index)'s supergroup pts went back from \(last) to \(pts)"
        }
    }

    /// The first time an account's pts went back, if ever.
    var ptsViolation: String? { lock.withLock { firstPtsViolationValue } }

    func watchPts(of account: Account, index: Int) {
        watch(
            account.stateManager.state.start(next: { [weak self] state in
                guard let self, let pts = state?.pts else { return }
                self.recordPts(pts, of: index)
            }))
    }

    /// Keeps the account's chat list as its live view shows it, for `staleChatList`.
    func watchChatList(of account: Account, index: Int) {
        watch(
            account.postbox.tailChatListView(count: Self.chatListCount).start(next: { [weak self] view in
                guard let self else { return }
                self.lock.withLock { self.liveChatLists[index] = view }
            }))
    }

    /// Keeps a chat's history as its live view shows it, for `staleHistory`.
    func watchHistory(of account: Account, index: Int, peer: PeerId) {
        watch(
            historyView(of: account, peer: peer).start(next: { [weak self] view in
                guard let self else { return }
                self.lock.withLock { self.liveHistories[index, default: [:]][peer] = view }
            }))
    }

    /// The newest messages of a chat, straight from Postbox (no hole filling: every chat here starts empty).
    func historyView(of account: Account, peer: PeerId) -> Signal<MessageHistoryView, NoError> {
        account.postbox.aroundMessageHistoryViewForLocation(peerId: peer, anchor: .upperBound, count: Self.historyCount)
    }

    /// How many messages the history views hold: more than any chat of a seed has.
    static let historyCount = 100

    /// How many chats the chat-list views hold: more than any seed has.
    static let chatListCount = 20

    /// A view's first value, waited for synchronously: a Postbox view emits it on `postbox`'s writer queue once the
    /// subscription's task runs there. The writer is one of the world's queues, and the task, enqueued from outside
    /// the world, is held behind its gate: waiting for the writer (`waitForWrites`, a sync from outside) takes it
    /// along.
    static func first<T: Sendable>(of signal: Signal<T, NoError>, on postbox: Postbox) -> T? {
        let value = Atomic<T?>(value: nil)
        let done = DispatchSemaphore(value: 0)
        let disposable = (signal |> take(1)).start(next: { next in
            _ = value.swap(next)
            done.signal()
        })
        postbox.waitForWrites()
        _ = done.wait(timeout: .now() + 2)
        disposable.dispose()
        return value.with { $0 }
    }

    static func describe(_ view: ChatListView?) -> String {
        guard let view else { return "none" }
        return view.entries.map { "\($0.peerId): \($0.topMessage?.text ?? "-") unread \($0.unreadCount)" }
            .joined(separator: "; ")
    }
}
