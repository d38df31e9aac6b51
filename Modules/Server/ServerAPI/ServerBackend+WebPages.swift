import Logging
import ServerStore
import Synchronization
import TLRuntime
import TelegramApi

/// Link previews (core.telegram.org "Link previews", `messages.getWebPagePreview`, `messageMediaWebPage`,
/// `updateWebPage`, `updateChannelWebPage`): the first link of a text gets the page's preview when `WebPageRules` allow
/// fetching it. A message sent while its page is being fetched carries `webPagePending`; when the fetch ends, every
/// copy of it gets the `webPage` (or loses the preview) and each box's owner gets `updateWebPage`, a pts update like
/// Telegram's; a channel post gets it once, with `updateChannelWebPage` in the channel's own pts sequence, pushed to
/// its online members (the others find it in `updates.getChannelDifference`).
extension ServerBackend {
    /// The most messages remembered as waiting for one page (more keep `webPagePending`).
    static let maximumMessagesPerPendingPage = 1000

    /// `messages.getWebPagePreview`: the preview of the text's first link, waiting up to `previewWait` for a fetch
    /// it starts; `webPagePending` if the page is still coming, `messageMediaEmpty` when there is no preview.
    func getWebPagePreview(
        _ call: Api.functions.messages.getWebPagePreview, caller: Caller
    ) throws -> Api.messages.WebPagePreview {
        try TextLimit.message.check(call.message)
        var media = Api.MessageMedia.messageMediaEmpty
        if let link = WebPageURL.firstLink(in: call.message, entities: call.entities) {
            var found = webPages.lookup(link, dc: caller.dc)
            if case .pending = found { found = webPages.wait(for: link, timeout: webPages.rules.previewWait) }
            media = Self.webPageMedia(found, link: link) ?? .messageMediaEmpty
        }
        return .webPagePreview(.init(media: media, chats: [], users: []))
    }

    /// `messages.getWebPage`: the page of `url` as cached, fetched (waiting as `getWebPagePreview` does) when it is
    /// allowed and not known; `webPageNotModified` when `hash` is the page's; `webPagePending` while it is still
    /// coming; `webPageEmpty` (with the url) when there is no preview.
    func getWebPage(_ call: Api.functions.messages.getWebPage, caller: Caller) throws -> Api.messages.WebPage {
        var page = Api.WebPage.webPageEmpty(.init(id: 0, url: call.url))
        if let link = WebPageURL(call.url) {
            var found = webPages.lookup(link, dc: caller.dc)
            if case .pending = found { found = webPages.wait(for: link, timeout: webPages.rules.previewWait) }
            switch found {
            case .ready(let ready):
                page = ready.api
                if call.hash != 0, case .webPage(let fields) = page, fields.hash == call.hash {
                    page = .webPageNotModified(.init())
                }
            case .pending(let id, let date):
                page = .webPagePending(.init(id: id, url: link.url, date: date))
            case .unavailable:
                break
            }
        }
        return .webPage(.init(webpage: page, chats: [], users: []))
    }

    /// The media a message with `link` carries now (`nil`: no preview), and the id of the page it waits for; a
    /// fetch it starts stores the page's photo on DC `dc` (the sender's).
    func webPageForSending(
        text: String, entities: [Api.MessageEntity]?, dc: Int32
    ) -> (media: Api.MessageMedia?, pending: Int64?) {
        guard let link = WebPageURL.firstLink(in: text, entities: entities) else { return (nil, nil) }
        let found = webPages.lookup(link, dc: dc)
        if case .pending(let id, _) = found { return (Self.webPageMedia(found, link: link), id) }
        return (Self.webPageMedia(found, link: link), nil)
    }

    /// A preview for an edit (an edited text's first link is previewed as a sent one's): `nil` when the edit leaves
    /// the media alone — new media, no new text, or media that is not a preview; else the media to store (`nil`
    /// inside: the preview goes, as with `no_webpage` or no link) and the page it waits for, if any.
    func editedWebPage(
        _ call: Api.functions.messages.editMessage, stored: [UInt8]?, dc: Int32
    ) -> (media: [UInt8]?, pending: (id: Int64, link: WebPageURL)?)? {
        guard call.media == nil, let text = call.message else { return nil }
        if let stored, !Self.isWebPage(stored) { return nil }
        guard !call.noWebpage, let link = WebPageURL.firstLink(in: text, entities: call.entities) else {
            return (nil, nil)
        }
        let (media, pending) = webPageForSending(text: text, entities: call.entities, dc: dc)
        return (media?.serialized(), pending.map { ($0, link) })
    }

    /// `messageMediaWebPage` for what is known of `link`, or `nil` for no preview.
    static func webPageMedia(_ found: WebPagePreviews.Lookup, link: WebPageURL) -> Api.MessageMedia? {
        switch found {
        case .ready(let page):
            return .messageMediaWebPage(.init(webpage: page.api))
        case .pending(let id, let date):
            return .messageMediaWebPage(.init(webpage: .webPagePending(.init(id: id, url: link.url, date: date))))
        case .unavailable:
            return nil
        }
    }

    /// Remembers that `messages` wait for page `id` of `link`; if the fetch already ended, applies it now (exactly
    /// one of this and `webPageFetched` applies it: whichever takes the waiting list).
    func awaitWebPage(_ id: Int64, link: WebPageURL, messages: [WebPageWaiter]) {
        webPageWaiters.withLock { waiters in
            var list = waiters[id] ?? []
            list += messages.prefix(max(0, Self.maximumMessagesPerPendingPage - list.count))
            waiters[id] = list
        }
        let found = webPages.known(link)
        if case .pending(let current, _) = found, current == id { return }
        if case .ready(let page) = found, page.id == id {
            webPageFetched(page, id: id)
        } else {
            webPageFetched(nil, id: id)
        }
    }

    /// A fetch ended: every copy of every message waiting for page `id` gets `page` (or, `nil`, loses its preview),
    /// and each box's owner gets `updateWebPage` with the page (`webPageEmpty` when there is none).
    func webPageFetched(_ page: WebPagePreviews.WebPage?, id: Int64) {
        guard let waiting = webPageWaiters.withLock({ $0.removeValue(forKey: id) }), !waiting.isEmpty else {
            return
        }
        let webPage: Api.WebPage = page?.api ?? .webPageEmpty(.init(id: id))
        let media = page.map { Api.MessageMedia.messageMediaWebPage(.init(webpage: $0.api)).serialized() }
        let date = now
        var pushes: [Push] = []
        do {
            try store.write(
                { [self] tx in
                    for waiter in waiting {
                        guard case .box(let globalId) = waiter else {
                            if case .channel(let channelId, let messageId) = waiter,
                                let push = try channelWebPageFetched(
                                    webPage, media: media, pendingId: id, channelId: channelId, messageId: messageId,
                                    date: date, tx: tx)
                            {
                                pushes += push
                            }
                            if case .scheduled(let owner, let messageId) = waiter,
                                let push = try scheduledWebPageFetched(
                                    media: media, pendingId: id, owner: owner, id: messageId, date: date, tx: tx)
                            {
                                pushes.append(push)
                            }
                            continue
                        }
                        for var copy in try tx.copies(globalId: globalId) {
                            guard let stored = copy.media, Self.isPendingWebPage(stored, id: id) else { continue }
                            copy.media = media
                            try tx.updateContent(of: copy)
                            let pts = try tx.appendUpdate(owner: copy.owner, ptsCount: 1, date: date) { pts in
                                Api.Update.updateWebPage(
                                    .init(webpage: webPage, pts: Int32(truncatingIfNeeded: pts), ptsCount: 1)
                                ).serialized()
                            }
                            pushes.append(
                                Push(
                                    authKeyIds: try authKeys(of: copy.owner, tx: tx),
                                    updates: .updates(
                                        .init(
                                            updates: [
                                                .updateWebPage(
                                                    .init(
                                                        webpage: webPage, pts: Int32(truncatingIfNeeded: pts),
                                                        ptsCount: 1))
                                            ], users: [], chats: [], date: date, seq: 0))))
                        }
                    }
                },
                then: { [self] _ in send(pushes, caller: nil) })
        } catch {
            logger.error("could not store a fetched link preview", metadata: ["error": "\(error)"])
        }
    }

    /// A channel post's page arrived: the post gets it (or loses its preview) and the channel's pts log an
    /// `updateChannelWebPage`, pushed to the online members; `nil` when the post is gone or no longer waits.
    private func channelWebPageFetched(
        _ webPage: Api.WebPage, media: [UInt8]?, pendingId: Int64, channelId: Int64, messageId: Int64, date: Int32,
        tx: StoreTransaction
    ) throws -> [Push]? {
        guard var message = try tx.channelMessage(channelId: channelId, id: messageId),
            let stored = message.media, Self.isPendingWebPage(stored, id: pendingId),
            let channel = try tx.channel(id: channelId)
        else { return nil }
        message.media = media
        try tx.updateContent(of: message)
        let pts = try tx.appendChannelUpdate(channelId: channelId, ptsCount: 1, date: date) { pts in
            Api.Update.updateChannelWebPage(
                .init(channelId: channelId, webpage: webPage, pts: Int32(truncatingIfNeeded: pts), ptsCount: 1)
            ).serialized()
        }
        return try channelPushes(channel, userIds: [], date: date, tx: tx) { _ in
            [
                .updateChannelWebPage(
                    .init(channelId: channelId, webpage: webPage, pts: Int32(truncatingIfNeeded: pts), ptsCount: 1))
            ]
        }
    }

    /// Whether stored media bytes are a link preview (`messageMediaWebPage`, pending or not).
    static func isWebPage(_ bytes: [UInt8]) -> Bool {
        if case .messageMediaWebPage? = try? Api.MessageMedia(tlBytes: bytes) { return true }
        return false
    }

    /// Whether stored media is media a message may consist of alone: a link preview is not (it goes with the text
    /// whose link it shows, so a text edited to nothing is `MESSAGE_EMPTY` even with a preview stored).
    static func carriesMedia(_ stored: [UInt8]?) -> Bool { stored.map { !isWebPage($0) } ?? false }

    /// Whether stored media bytes are `messageMediaWebPage(webPagePending)` with page `id`.
    static func isPendingWebPage(_ bytes: [UInt8], id: Int64) -> Bool {
        guard case .messageMediaWebPage(let media)? = try? Api.MessageMedia(tlBytes: bytes),
            case .webPagePending(let pending) = media.webpage
        else { return false }
        return pending.id == id
    }
}

/// A message waiting for its link's page: every copy of a message in the boxes of a private chat or basic group (by
/// its global id), a channel's post, or an account's scheduled message.
enum WebPageWaiter: Sendable, Equatable {
    case box(globalId: Int64)
    case channel(channelId: Int64, messageId: Int64)
    case scheduled(owner: Int64, id: Int64)
}

/// The messages waiting for each page being fetched, by page id.
typealias WebPageWaiters = Mutex<[Int64: [WebPageWaiter]]>
