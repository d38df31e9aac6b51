import ServerStore
import TLRuntime
import TelegramApi

/// What `messages.editMessage`'s `media` may change (core.telegram.org "Live geolocation": a live location is moved
/// and stopped by editing its message; "Polls and quizzes": a poll is closed by editing its message with its poll
/// `closed`).
extension ServerBackend {
    /// The message's new media bytes, or `nil` when the edit leaves its media alone. A live location moves or stops;
    /// a poll closes (its creator only: `MESSAGE_AUTHOR_REQUIRED`; a closed one is `MESSAGE_NOT_MODIFIED`). Anything
    /// else is `MEDIA_NOT_MODIFIABLE`: tg-server does not replace a message's photo or file in an edit.
    func editedMedia(
        _ input: Api.InputMedia?, stored: [UInt8]?, sentAt: Int32, caller: Caller, tx: StoreTransaction
    ) throws -> [UInt8]? {
        guard let input else { return nil }
        guard let stored, let current = try? Api.MessageMedia(tlBytes: stored) else {
            throw APIError.badRequest("MEDIA_NOT_MODIFIABLE")
        }
        switch input {
        case .inputMediaGeoLive(let live):
            return try editedLiveLocation(live, original: current, sentAt: sentAt).serialized()
        case .inputMediaPoll(let edit):
            guard case .poll(let wanted) = edit.poll, wanted.closed, case .messageMediaPoll(let media) = current,
                case .poll(let poll) = media.poll, let record = try tx.poll(id: poll.id)
            else { throw APIError.badRequest("MEDIA_NOT_MODIFIABLE") }
            guard record.creator == caller.userId else { throw APIError.forbidden("MESSAGE_AUTHOR_REQUIRED") }
            guard !record.isClosed(at: now) else { throw APIError.badRequest("MESSAGE_NOT_MODIFIED") }
            guard case .poll(let fields) = apiPoll(record) else { throw APIError.internalError }
            let closed = Self.closed(fields)
            try tx.closePoll(id: record.id, poll: closed.serialized())
            return Api.MessageMedia.messageMediaPoll(
                .init(poll: closed, results: .pollResults(.init(results: [], totalVoters: 0)))
            ).serialized()
        default:
            throw APIError.badRequest("MEDIA_NOT_MODIFIABLE")
        }
    }
}
