import ServerStore
import TelegramApi

/// Editing a scheduled message (core.telegram.org "Scheduled messages": `messages.editMessage` with `schedule_date`):
/// its text and entities, its date, and its link preview. The answer, and what the owner's other sessions are pushed,
/// is `updateNewScheduledMessage` with the edited message — the update TDLib reads an edit of a scheduled message from
/// (td/telegram/UpdatesManager.cpp `get_update_edit_message_pts`).
extension ServerBackend {
    /// `messages.editMessage` of scheduled message `id` (the caller's, in `peer`): a new text previews its first link
    /// as a sent one's does (`no_webpage` or no link: the preview goes; a page still coming is fetched again when the
    /// message is sent); a message whose media is a photo or file keeps it. `schedule_date` must be in the future
    /// (`SCHEDULE_DATE_INVALID`) and within a year (`SCHEDULE_DATE_TOO_LATE`); new media is `MEDIA_NOT_MODIFIABLE`. A page
    /// still coming is applied when it arrives (`ServerBackend+ScheduledWebPages`).
    func editScheduledMessage(_ call: Api.functions.messages.editMessage, caller: Caller) throws -> Api.Updates {
        guard let scheduleDate = call.scheduleDate else { throw APIError.internalError }
        if let text = call.message { try TextLimit.message.check(text) }
        let date = now
        guard scheduleDate > date else { throw APIError.badRequest("SCHEDULE_DATE_INVALID") }
        guard Int64(scheduleDate) - Int64(date) <= Self.scheduleHorizon else {
            throw APIError.badRequest("SCHEDULE_DATE_TOO_LATE")
        }
        guard call.media == nil else { throw APIError.badRequest("MEDIA_NOT_MODIFIABLE") }
        var pushes: [Push] = []
        var waiting: (id: Int64, link: WebPageURL)?
        let answer = try store.write(
            { [self] tx throws -> Api.Updates in
                let (kind, peerId) = try scheduledPeer(call.peer, caller: caller, tx: tx)
                guard var record = try tx.scheduledMessage(owner: caller.userId, id: Int64(call.id)),
                    record.peerKind == kind, record.peerId == peerId
                else { throw APIError.messageIdInvalid }
                let (text, entities) = try editedContent(
                    call, text: record.text, entities: record.entities, hasMedia: Self.carriesMedia(record.media),
                    otherChange: scheduleDate != record.date, caller: caller, tx: tx)
                if let preview = editedWebPage(call, stored: record.media, dc: caller.dc) {
                    record.media = preview.media
                    waiting = preview.pending
                }
                record.text = text
                record.entities = entities
                record.date = scheduleDate
                try tx.updateScheduled(record)
                let edited = [Api.Update.updateNewScheduledMessage(.init(message: scheduledMessage(record)))]
                let (users, chats) = try scheduledParticipants(kind, peerId, viewer: caller.userId, tx: tx)
                pushes = [
                    Push(
                        authKeyIds: try authKeys(of: caller.userId, tx: tx),
                        updates: .updates(.init(updates: edited, users: users, chats: chats, date: date, seq: 0)))
                ]
                return .updates(.init(updates: edited, users: users, chats: chats, date: date, seq: 0))
            }, then: { [self] _ in send(pushes, caller: caller) })
        if let waiting { awaitScheduledWebPage(waiting.id, link: waiting.link, answer: answer, owner: caller.userId) }
        return answer
    }
}
