public import Postbox
import SwiftSignalKit
import SyncCore
public import TelegramCore

/// A chat's newest messages: the account's history view, whose holes are filled from the server
/// (`messages.getHistory`), taken once it shows `limit` messages or the chat's beginning.
public enum HistoryLoading {
    /// The longest a channel's history waits for its poll (`view`).
    public static let channelPollWait = 10.0

    /// Up to `limit` newest messages of `peerId`, oldest first, with the server's reactions
    /// (`Account.refreshReactions`). A channel's posts shown are counted as seen (`Account.viewChannelPosts`, as
    /// Telegram's apps count a post on screen) and come with the server's new view counts; a failure to count leaves
    /// the stored counts.
    public static func messages(
        _ account: Account, peerId: PeerId, limit: Int, timeout: Double
    ) async throws(ClientError) -> [Message] {
        if SecretChatting.isSecret(peerId) { return try SecretChatting.messages(account, peerId: peerId, limit: limit) }
        let messages = Array(
            try await view(account, peerId: peerId, limit: limit, timeout: timeout).entries.map(\.message).suffix(limit)
        )
        // Reactions come in no difference: ask for those of the messages shown (a failure leaves the stored ones).
        let reactionsRefreshed = (try? await account.refreshReactions(messages.map(\.id))) != nil
        let pollsRefreshed = await refreshPolls(account, messages)
        var viewsCounted = false
        if peerId.namespace == Namespaces.Peer.cloudChannel {
            viewsCounted = (try? await account.viewChannelPosts(messages.map(\.id))) != nil
        }
        guard reactionsRefreshed || viewsCounted || pollsRefreshed else { return messages }
        return messages.map { message in
            (try? account.postbox.readTransactionSync { try $0.getMessage(message.id) }) ?? message
        }
    }

    /// The history view of `peerId` once its newest `limit` messages (or all it has) are stored. A channel is polled
    /// first (`AccountStateManager.pollChannel`, as Telegram-iOS polls a channel whose chat is open) and its
    /// difference awaited, so posts made while the account was away are there — for at most `channelPollWait` seconds:
    /// a channel the server no longer answers for (one that banned the account) shows what is stored.
    public static func view(
        _ account: Account, peerId: PeerId, limit: Int, timeout: Double
    ) async throws(ClientError) -> MessageHistoryView {
        if peerId.namespace == Namespaces.Peer.cloudChannel {
            await account.stateManager.pollChannel(peerId.id.rawValue)
            _ = try? await firstValue(
                "the channel's news", of: account.stateManager.isUpdating, timeout: min(timeout, channelPollWait),
                where: { !$0 })
        }
        return try await firstValue(
            "loading the history", of: account.historyView(peerId: peerId, count: limit), timeout: timeout
        ) { view in
            !view.holeLater && (!view.holeEarlier || view.entries.count >= limit)
        }
    }

    /// `view`, with the server's reactions of the messages it shows stored first (`Account.refreshReactions`: they
    /// come in no difference), as a chat drawn on screen shows them; a failure to ask shows the stored ones.
    public static func viewWithReactions(
        _ account: Account, peerId: PeerId, limit: Int, timeout: Double
    ) async throws(ClientError) -> MessageHistoryView {
        let loaded = try await view(account, peerId: peerId, limit: limit, timeout: timeout)
        guard !SecretChatting.isSecret(peerId) else { return loaded }
        let pollsRefreshed = await refreshPolls(account, loaded.entries.map(\.message))
        guard (try? await account.refreshReactions(loaded.entries.map(\.message.id))) != nil || pollsRefreshed
        else { return loaded }
        return try await firstValue(
            "reading the history", of: account.historyView(peerId: peerId, count: limit), timeout: timeout
        ) { view in !view.holeLater }
    }

    /// The most polls one history asks the server about.
    static let pollRefreshLimit = 20

    /// Asks the server for the results of the newest polls among `messages` (`Account.refreshPollResults`: votes made
    /// while this account was away come in no difference, as reactions do); whether any was stored.
    static func refreshPolls(_ account: Account, _ messages: [Message]) async -> Bool {
        let polls = messages.filter { message in
            message.id.namespace == Namespaces.Message.cloud && message.media.contains { $0 is TelegramMediaPoll }
        }
        var refreshed = false
        for message in polls.suffix(pollRefreshLimit) {
            if (try? await account.refreshPollResults(message.id)) != nil { refreshed = true }
        }
        return refreshed
    }

    /// The chat's read states as stored (`nil` when it has none or they cannot be read): what `MessageSummary.read`
    /// compares our messages with.
    public static func readState(_ account: Account, peerId: PeerId) -> CombinedPeerReadState? {
        (try? account.postbox.readTransactionSync { try $0.getCombinedPeerReadState(peerId) }) ?? nil
    }

    /// The stored message `id` of `peerId` (a server id), `.notFound` if there is none.
    public static func message(_ account: Account, peerId: PeerId, id: Int32) throws(ClientError) -> Message {
        let messageId =
            SecretChatting.isSecret(peerId)
            ? try SecretChatting.message(id, chatId: SecretChatting.chatId(peerId), account: account)
            : MessageId(peerId: peerId, namespace: Namespaces.Message.cloud, id: id)
        let found: Message?
        do { found = try account.postbox.readTransactionSync { try $0.getMessage(messageId) } } catch {
            throw .storage("reading message \(id): \(error)")
        }
        guard let found else { throw .notFound("no message \(id) in this chat — see 'tg history'") }
        return found
    }

    /// Message `id` of `peerId`: the stored one, or else the chat's newest 100 loaded from the server first.
    public static func find(
        _ account: Account, peerId: PeerId, id: Int32, timeout: Double
    ) async throws(ClientError) -> Message {
        if let stored = try? message(account, peerId: peerId, id: id) { return stored }
        _ = try await view(account, peerId: peerId, limit: 100, timeout: timeout)
        return try message(account, peerId: peerId, id: id)
    }

    /// Message `id` once an edit has reached it (its `EditedMessageAttribute` stored).
    public static func edited(_ account: Account, _ id: MessageId, timeout: Double) async throws(ClientError) -> Message
    {
        try await waitUntil("the edit", timeout: timeout, wakingOn: account.postbox.messageView(id)) {
            () throws(ClientError) -> Message? in
            let current = try message(account, peerId: id.peerId, id: id.id)
            return current.attributes.contains { $0 is EditedMessageAttribute } ? current : nil
        }
    }
}
