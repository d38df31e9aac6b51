import ServerStore
import TelegramApi

/// Link previews of scheduled messages (core.telegram.org "Link previews", "Scheduled messages"): a scheduled
/// message gets its link's preview when it is scheduled or edited, as a sent one would; while the page is still
/// coming it carries `webPagePending`, and when the fetch ends the scheduled message gets the page (or loses the
/// preview) and its owner's sessions `updateNewScheduledMessage` with it. When it is sent, a page still pending is
/// looked up once more.
extension ServerBackend {
    /// Remembers that the scheduled message in `answer` (a `schedule` or scheduled edit answer) waits for page `id`.
    func awaitScheduledWebPage(_ id: Int64, link: WebPageURL, answer: Api.Updates, owner: Int64) {
        guard case .updates(let body) = answer else { return }
        let ids = body.updates.compactMap { update -> Int32? in
            if case .updateNewScheduledMessage(let new) = update { return Self.messageId(new.message) }
            return nil
        }
        awaitWebPage(id, link: link, messages: ids.map { .scheduled(owner: owner, id: Int64($0)) })
    }

    /// A scheduled message's page arrived: it gets it (or loses its preview) and its owner's sessions are pushed
    /// `updateNewScheduledMessage`; `nil` when it was sent, deleted, or no longer waits for that page.
    func scheduledWebPageFetched(
        media: [UInt8]?, pendingId: Int64, owner: Int64, id: Int64, date: Int32, tx: StoreTransaction
    ) throws -> Push? {
        guard var record = try tx.scheduledMessage(owner: owner, id: id), let stored = record.media,
            Self.isPendingWebPage(stored, id: pendingId)
        else { return nil }
        record.media = media
        try tx.updateScheduled(record)
        let (users, chats) = try scheduledParticipants(record.peerKind, record.peerId, viewer: owner, tx: tx)
        let update = Api.Update.updateNewScheduledMessage(.init(message: scheduledMessage(record)))
        return Push(
            authKeyIds: try authKeys(of: owner, tx: tx),
            updates: .updates(.init(updates: [update], users: users, chats: chats, date: date, seq: 0)))
    }

    /// A scheduled message whose page was still coming when it was scheduled (`webPagePending`) takes what is known
    /// of its link as it is sent: the page, a fetch still running (or started again) that the sent message then
    /// waits for (returned), or no preview. A page it already had is kept.
    func scheduledWebPage(_ outgoing: inout Outgoing, caller: Caller) -> (id: Int64, link: WebPageURL)? {
        guard case .messageMediaWebPage(let stored)? = outgoing.media, case .webPagePending = stored.webpage,
            let link = WebPageURL.firstLink(in: outgoing.text, entities: outgoing.entities)
        else { return nil }
        let (media, pending) = webPageForSending(text: outgoing.text, entities: outgoing.entities, dc: caller.dc)
        outgoing.media = media
        return pending.map { ($0, link) }
    }

}
