public import Postbox
import SyncCore
public import TelegramCore

/// Editing, deleting, reading and searching as commands do them, over TelegramCore's calls, with their errors as the
/// client's.
public enum MessageCommands {
    /// Replaces the text of message `id` (stored, or among the chat's newest 100) and returns it once the edit is
    /// stored.
    public static func edit(
        _ account: Account, peerId: PeerId, id: Int32, markdown: String, timeout: Double
    ) async throws(ClientError) -> Message {
        let message = try await HistoryLoading.find(account, peerId: peerId, id: id, timeout: timeout)
        let (text, entities) = OutgoingText.parse(markdown)
        do { try await account.editMessage(message.id, text: text, entities: entities) } catch {
            throw clientError(error)
        }
        return try await HistoryLoading.edited(account, message.id, timeout: timeout)
    }

    /// Deletes messages `ids` of `peerId`, for everyone with `revoke`.
    public static func delete(_ account: Account, peerId: PeerId, ids: [Int32], revoke: Bool) async throws(ClientError)
    {
        if SecretChatting.isSecret(peerId) {
            // A secret chat's messages go on both sides (`decryptedMessageActionDeleteMessages`), revoke or not.
            return try await SecretChatting.delete(ids, chatId: SecretChatting.chatId(peerId), account: account)
        }
        let messageIds = ids.map { MessageId(peerId: peerId, namespace: Namespaces.Message.cloud, id: $0) }
        do { try await account.deleteMessages(messageIds, forEveryone: revoke) } catch { throw clientError(error) }
    }

    /// Marks `peerId` read up to `upTo`, or its newest message; returns the id read up to.
    public static func read(
        _ account: Account, peerId: PeerId, upTo: Int32?, timeout: Double
    ) async throws(ClientError) -> Int32 {
        var maxId = upTo
        if maxId == nil {
            maxId = try await HistoryLoading.messages(account, peerId: peerId, limit: 1, timeout: timeout)
                .last(where: { $0.id.namespace == Namespaces.Message.cloud })?.id.id
        }
        guard let maxId else { throw .notFound("the chat has no messages to read") }
        do { try await account.markRead(peerId: peerId, upTo: maxId) } catch { throw clientError(error) }
        return maxId
    }

    /// Messages of every chat with `text`: the stored ones (Postbox's full-text index: word prefixes, case and
    /// diacritics ignored), or with `server` the server's (`messages.searchGlobal`); newest first.
    public static func search(
        _ account: Account, text: String, server: Bool, limit: Int
    ) async throws(ClientError) -> [Message] {
        if server {
            do { return try await account.searchMessagesOnServer(text, limit: Int32(clamping: limit)) } catch {
                throw .unreachable("searching on the server: \(error) — check that it is running")
            }
        }
        do { return try account.postbox.readTransactionSync { try $0.searchMessages(text, limit: limit) } } catch {
            throw .storage("searching the stored messages: \(error)")
        }
    }

    /// A message action's error as the client's.
    public static func clientError(_ error: MessageActionError) -> ClientError {
        switch error {
        case .unknownPeer(let peer):
            return .notFound("the chat \(PeerResolver.handle(peer)) is not stored — see 'tg chats'")
        case .notSent(let id): return .badInput("message \(id.id) is not sent yet")
        case .refused(let text): return .refused("the server refused: \(text)")
        case .network(let error):
            return .unreachable("the server did not answer (\(error)); the action is kept and sent by the next command")
        case .storage(let text): return .storage(text)
        }
    }
}
