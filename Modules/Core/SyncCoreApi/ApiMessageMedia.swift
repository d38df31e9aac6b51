public import Postbox
public import SyncCore
import TLRuntime
public import TelegramApi

/// The media of an API message as the product stores it (Telegram-iOS `textMediaAndExpirationTimerFromApiMedia`):
/// photos, documents, locations, venues, live locations, contacts, dice, polls and link previews as their own types;
/// every other constructor — and a photo, document or point that is empty — as `TelegramMediaUnsupported` with its TL
/// bytes, so nothing the server sent is dropped. `messageMediaEmpty` and a `webPageEmpty` preview are no media.
public func telegramMedia(_ media: Api.MessageMedia?) -> [Media] {
    guard let media else { return [] }
    let modelled: Media?
    switch media {
    case .messageMediaEmpty:
        return []
    case .messageMediaPhoto(let photo):
        modelled = photo.photo.flatMap(TelegramMediaImage.init)
    case .messageMediaDocument(let document):
        modelled = document.document.flatMap(TelegramMediaFile.init)
    case .messageMediaGeo(let geo):
        modelled = TelegramMediaMap(geo.geo)
    case .messageMediaVenue(let venue):
        modelled = TelegramMediaMap(venue.geo).map { map in
            var map = map
            map.venue = MapVenue(
                title: venue.title, address: venue.address, provider: venue.provider, venueId: venue.venueId,
                venueType: venue.venueType)
            return map
        }
    case .messageMediaGeoLive(let live):
        modelled = TelegramMediaMap(live.geo).map { map in
            var map = map
            map.liveBroadcastingTimeout = live.period
            map.heading = live.heading
            map.liveProximityNotificationRadius = live.proximityNotificationRadius
            return map
        }
    case .messageMediaContact(let contact):
        modelled = TelegramMediaContact(
            firstName: contact.firstName, lastName: contact.lastName, phoneNumber: contact.phoneNumber,
            peerId: contact.userId == 0 ? nil : .user(contact.userId),
            vCardData: contact.vcard.isEmpty ? nil : contact.vcard)
    case .messageMediaDice(let dice):
        modelled = TelegramMediaDice(emoji: dice.emoticon, value: dice.value)
    case .messageMediaPoll(let poll):
        modelled = TelegramMediaPoll(poll.poll, results: poll.results)
    case .messageMediaWebPage(let page):
        // `webPageEmpty`: the server has no preview for the link.
        if case .webPageEmpty = page.webpage { return [] }
        modelled = TelegramMediaWebpage(page.webpage)
    default:
        modelled = nil
    }
    return [modelled ?? TelegramMediaUnsupported(constructor: constructorName(of: media), bytes: media.serialized())]
}

extension TelegramMediaWebpage {
    /// A page or a page being fetched (`webPage`, `webPagePending`); `nil` for `webPageEmpty` and
    /// `webPageNotModified`.
    public init?(_ page: Api.WebPage) {
        switch page {
        case .webPage(let page):
            self.init(
                webpageId: page.id, isPending: false, url: page.url, displayUrl: page.displayUrl,
                siteName: page.siteName, title: page.title, text: page.description, type: page.type,
                image: page.photo.flatMap(TelegramMediaImage.init), apiBytes: Api.WebPage.webPage(page).serialized())
        case .webPagePending(let pending):
            self.init(
                webpageId: pending.id, isPending: true, url: pending.url,
                apiBytes: Api.WebPage.webPagePending(pending).serialized())
        default:
            return nil
        }
    }
}

extension TelegramMediaMap {
    /// A point from the API, without venue or live fields; `nil` for `geoPointEmpty`.
    public init?(_ point: Api.GeoPoint) {
        guard case .geoPoint(let point) = point else { return nil }
        self.init(latitude: point.lat, longitude: point.long, accuracyRadius: point.accuracyRadius)
    }
}

extension TelegramMediaPollResults {
    /// Results from the API (`pollResults`); `min` results are merged with the stored ones by the caller.
    public init(_ results: Api.PollResults) {
        guard case .pollResults(let results) = results else {
            self.init()
            return
        }
        self.init(
            voters: results.results.map { voters in
                voters.map { item in
                    guard case .pollAnswerVoters(let item) = item else {
                        return TelegramMediaPollOptionVoters(
                            selected: false, opaqueIdentifier: [], count: nil, isCorrect: false)
                    }
                    return TelegramMediaPollOptionVoters(
                        selected: item.chosen, opaqueIdentifier: item.option, count: item.voters,
                        isCorrect: item.correct)
                }
            },
            totalVoters: results.totalVoters, recentVoters: (results.recentVoters ?? []).map(PeerId.init),
            solution: results.solution.map {
                Solution(text: $0, entities: (results.solutionEntities ?? []).compactMap(MessageTextEntity.init))
            })
    }

    /// Whether the API's results are `min`: the same for everyone, without which answers we chose.
    public static func isMin(_ results: Api.PollResults) -> Bool {
        guard case .pollResults(let results) = results else { return false }
        return results.min
    }
}

extension TelegramMediaPoll {
    /// A poll from the API with its results (Telegram-iOS `TelegramMediaPoll(apiPoll:results:)`).
    public init(_ poll: Api.Poll, results: Api.PollResults) {
        guard case .poll(let poll) = poll else {
            self.init(
                pollId: MediaId(namespace: Namespaces.Media.cloudPoll, id: 0), publicity: .anonymous,
                kind: .poll(multipleAnswers: false), text: "", options: [])
            return
        }
        let question: (String, [MessageTextEntity])
        switch poll.question {
        case .textWithEntities(let text): question = (text.text, text.entities.compactMap(MessageTextEntity.init))
        }
        let options = poll.answers.compactMap { answer -> TelegramMediaPollOption? in
            guard case .pollAnswer(let answer) = answer, case .textWithEntities(let text) = answer.text else {
                return nil
            }
            return TelegramMediaPollOption(text: text.text, opaqueIdentifier: answer.option)
        }
        self.init(
            pollId: MediaId(namespace: Namespaces.Media.cloudPoll, id: poll.id),
            publicity: poll.publicVoters ? .public : .anonymous,
            kind: poll.quiz ? .quiz : .poll(multipleAnswers: poll.multipleChoice), text: question.0,
            textEntities: question.1, options: options, results: TelegramMediaPollResults(results),
            isClosed: poll.closed, deadlineDate: poll.closeDate)
    }
}
