import Postbox
import PostboxTesting
import SyncCore
import TLRuntime
import TelegramApi
import Testing

@testable import SyncCoreApi

/// Every `MessageMedia` constructor is kept: the modelled ones as their types, the rest with their exact TL bytes,
/// through a real Postbox.
@Suite struct ApiMessageMediaTests {
    init() { registerSyncCoreTypes() }

    static let point = Api.GeoPoint.geoPoint(.init(long: 105.8523, lat: 21.0285, accessHash: 7, accuracyRadius: 12))

    @Test func locationVenueAndLiveLocation() throws {
        let geo = try #require(telegramMedia(.messageMediaGeo(.init(geo: Self.point))).first as? TelegramMediaMap)
        #expect(geo == TelegramMediaMap(latitude: 21.0285, longitude: 105.8523, accuracyRadius: 12))
        let venue = try #require(
            telegramMedia(
                .messageMediaVenue(
                    .init(
                        geo: Self.point, title: "Hồ Hoàn Kiếm", address: "Hà Nội", provider: "foursquare",
                        venueId: "v1", venueType: "lake"))
            ).first as? TelegramMediaMap)
        #expect(
            venue.venue
                == MapVenue(
                    title: "Hồ Hoàn Kiếm", address: "Hà Nội", provider: "foursquare", venueId: "v1", venueType: "lake"))
        let live = try #require(
            telegramMedia(
                .messageMediaGeoLive(.init(geo: Self.point, heading: 90, period: 900, proximityNotificationRadius: 50))
            ).first as? TelegramMediaMap)
        #expect(live.liveBroadcastingTimeout == 900 && live.heading == 90 && live.liveProximityNotificationRadius == 50)
        #expect(live.liveUntil(messageDate: 1_000) == 1_900)
        #expect(geo.liveUntil(messageDate: 1_000) == nil)
    }

    @Test func contactAndDice() throws {
        let contact = try #require(
            telegramMedia(
                .messageMediaContact(
                    .init(phoneNumber: "+84 123", firstName: "Lan", lastName: "Trần", vcard: "", userId: 100_002))
            ).first as? TelegramMediaContact)
        #expect(contact.peerId == .user(100_002) && contact.vCardData == nil && contact.displayName == "Lan Trần")
        let dice = try #require(
            telegramMedia(.messageMediaDice(.init(value: 64, emoticon: "🎰"))).first as? TelegramMediaDice)
        #expect(dice == TelegramMediaDice(emoji: "🎰", value: 64))
    }

    @Test func linkPreviews() throws {
        let page = Api.WebPage.webPage(
            .init(
                id: 77, url: "http://example.com/a", displayUrl: "example.com/a", hash: 1, siteName: "Example",
                title: "Title", description: "About"))
        let ready = try #require(
            telegramMedia(.messageMediaWebPage(.init(webpage: page))).first as? TelegramMediaWebpage)
        #expect(!ready.isPending && ready.title == "Title" && ready.siteName == "Example" && ready.text == "About")
        #expect(ready.url == "http://example.com/a" && ready.displayUrl == "example.com/a")
        #expect(ready.id == MediaId(namespace: Namespaces.Media.cloudWebpage, id: 77))
        #expect(ready.apiBytes == page.serialized())
        let pending = try #require(
            telegramMedia(
                .messageMediaWebPage(
                    .init(webpage: .webPagePending(.init(id: 77, url: "http://example.com/a", date: 5))))
            ).first as? TelegramMediaWebpage)
        #expect(pending.isPending && pending.title == nil && pending.id == ready.id)
        #expect(telegramMedia(.messageMediaWebPage(.init(webpage: .webPageEmpty(.init(id: 77))))).isEmpty)
        #expect(ready.image == nil && ready.type == nil && !ready.hasLargeImage)
    }

    @Test func aLinkPreviewsPhotoIsKeptAsAnImage() throws {
        let photo = Api.Photo.photo(
            .init(
                id: 501, accessHash: 9, fileReference: [1, 2, 3], date: 10,
                sizes: [
                    .photoStrippedSize(.init(type: "i", bytes: [1, 40, 30])),
                    .photoSize(.init(type: "m", w: 320, h: 240, size: 9_000)),
                    .photoSize(.init(type: "x", w: 640, h: 480, size: 30_000)),
                ], dcId: 2))
        for (type, large) in [("article", false), ("photo", true)] {
            let page = Api.WebPage.webPage(
                .init(
                    hasLargeMedia: true, id: 78, url: "http://example.com/p", displayUrl: "example.com/p", hash: 2,
                    type: type, title: "Pictured", photo: photo))
            let media = try #require(
                telegramMedia(.messageMediaWebPage(.init(webpage: page))).first as? TelegramMediaWebpage)
            let image = try #require(media.image)
            #expect(media.type == type && media.hasLargeImage == large)
            #expect(image.imageId == MediaId(namespace: Namespaces.Media.cloudImage, id: 501))
            #expect(image.largestRepresentation?.dimensions == PixelDimensions(width: 640, height: 480))
            #expect(image.reference == .init(accessHash: 9, fileReference: [1, 2, 3]))
        }
    }

    static func poll(quiz: Bool = false, chosen: Int? = nil, min: Bool = false) -> Api.MessageMedia {
        let answers = ["Phở", "Bún chả", "Bánh mì"].enumerated().map { index, text in
            Api.PollAnswer.pollAnswer(
                .init(text: .textWithEntities(.init(text: text, entities: [])), option: [UInt8(index)]))
        }
        let voters = (0..<3).map { index in
            Api.PollAnswerVoters.pollAnswerVoters(
                .init(
                    chosen: index == chosen, correct: quiz && chosen != nil && index == 1, option: [UInt8(index)],
                    voters: index == 0 ? 2 : 1, recentVoters: []))
        }
        return .messageMediaPoll(
            .init(
                poll: .poll(
                    .init(
                        id: 5_551, publicVoters: true, multipleChoice: !quiz, quiz: quiz,
                        question: .textWithEntities(.init(text: "Ăn gì?", entities: [])), answers: answers, hash: 0)),
                results: .pollResults(
                    .init(
                        min: min, results: voters, totalVoters: 4, recentVoters: [.peerUser(.init(userId: 9))],
                        solution: quiz ? "Bún chả is Hà Nội's" : nil, solutionEntities: quiz ? [] : nil))))
    }

    @Test func pollWithResults() throws {
        let poll = try #require(telegramMedia(Self.poll(chosen: 0)).first as? TelegramMediaPoll)
        #expect(poll.id == MediaId(namespace: Namespaces.Media.cloudPoll, id: 5_551))
        #expect(poll.text == "Ăn gì?" && poll.options.map(\.text) == ["Phở", "Bún chả", "Bánh mì"])
        #expect(poll.kind == .poll(multipleAnswers: true) && poll.publicity == .public && !poll.isClosed)
        #expect(poll.results.voters?.map(\.count) == [2, 1, 1] && poll.results.totalVoters == 4)
        #expect(poll.hasVoted && poll.results.recentVoters == [.user(9)])
        let quiz = try #require(telegramMedia(Self.poll(quiz: true, chosen: 2)).first as? TelegramMediaPoll)
        #expect(quiz.kind == .quiz && quiz.results.voters?.map(\.isCorrect) == [false, true, false])
        #expect(quiz.results.solution?.text == "Bún chả is Hà Nội's")
        // `min` results (the same for everyone) keep our choice.
        let minResults = TelegramMediaPoll(
            .poll(.init(id: 5_551, question: .textWithEntities(.init(text: "", entities: [])), answers: [], hash: 0)),
            results: .pollResults(.init(min: true))
        ).results
        let updated = poll.withUpdatedResults(
            TelegramMediaPollResults(
                voters: (0..<3).map {
                    TelegramMediaPollOptionVoters(
                        selected: false, opaqueIdentifier: [UInt8($0)], count: 3, isCorrect: false)
                },
                totalVoters: 5), min: true)
        #expect(updated.results.voters?.map(\.selected) == [true, false, false] && updated.results.totalVoters == 5)
        #expect(minResults.voters == nil)
    }

    /// Kinds not modelled yet keep their exact bytes: a game, an invoice, `messageMediaUnsupported`, an empty photo.
    @Test func unmodelledKindsKeepTheirBytesThroughPostbox() throws {
        let game = Api.MessageMedia.messageMediaGame(
            .init(
                game: .game(
                    .init(
                        id: 31, accessHash: -2, shortName: "tetris", title: "Tetris", description: "Blocks",
                        photo: .photoEmpty(.init(id: 0))))))
        let invoice = Api.MessageMedia.messageMediaInvoice(
            .init(
                test: true, title: "Phở", description: "One bowl", currency: "VND", totalAmount: 45_000,
                startParam: "bowl"))
        let kinds: [(Api.MessageMedia, String)] = [
            (game, "messageMediaGame"), (invoice, "messageMediaInvoice"),
            (.messageMediaUnsupported, "messageMediaUnsupported"),
            (.messageMediaPhoto(.init(ttlSeconds: 10)), "messageMediaPhoto"),
        ]
        #expect(telegramMedia(.messageMediaEmpty).isEmpty && telegramMedia(nil).isEmpty)
        let directory = TemporaryDirectory(prefix: "synccoreapi-media")
        defer { directory.remove() }
        let postbox = try Postbox.open(accountPath: directory.path + "/account-1", encryption: nil)
        let chat = PeerId.user(1_000_001)
        let messages = kinds.enumerated().map { index, kind in
            StoreMessage(
                id: .id(MessageId(peerId: chat, namespace: Namespaces.Message.cloud, id: Int32(index + 1))),
                timestamp: 10, flags: [.incoming], authorId: chat, text: "", attributes: [],
                media: telegramMedia(kind.0))
        }
        try postbox.transactionSync { tx in _ = try tx.addMessages(messages) }
        for (index, kind) in kinds.enumerated() {
            let stored = try postbox.readTransactionSync { tx in
                try tx.getMessage(MessageId(peerId: chat, namespace: Namespaces.Message.cloud, id: Int32(index + 1)))
            }
            let media = try #require(stored?.media.first as? TelegramMediaUnsupported)
            #expect(media.constructor == kind.1)
            #expect(media.bytes == kind.0.serialized())
            // The bytes are the server's value whole: they parse back to the same constructor and re-serialize the same.
            #expect(try Api.MessageMedia(tlBytes: media.bytes).serialized() == kind.0.serialized())
        }
    }

    /// The modelled kinds are stored too; a poll is shared media, updated in place by its id.
    @Test func modelledKindsThroughPostbox() throws {
        let directory = TemporaryDirectory(prefix: "synccoreapi-modelled")
        defer { directory.remove() }
        let postbox = try Postbox.open(accountPath: directory.path + "/account-1", encryption: nil)
        let chat = PeerId.user(1_000_001)
        let kinds: [Api.MessageMedia] = [
            .messageMediaGeoLive(.init(geo: Self.point, period: 60)),
            .messageMediaContact(
                .init(phoneNumber: "1", firstName: "A", lastName: "", vcard: "BEGIN:VCARD", userId: 0)),
            .messageMediaDice(.init(value: 3, emoticon: "🎲")), Self.poll(quiz: true, chosen: 1),
        ]
        let messages = kinds.enumerated().map { index, kind in
            StoreMessage(
                id: .id(MessageId(peerId: chat, namespace: Namespaces.Message.cloud, id: Int32(index + 1))),
                timestamp: 10, flags: [.incoming], authorId: chat, text: "", attributes: [], media: telegramMedia(kind))
        }
        try postbox.transactionSync { tx in _ = try tx.addMessages(messages) }
        let read = try postbox.readTransactionSync { tx in
            try (1...4).map { try tx.getMessage(MessageId(peerId: chat, namespace: 0, id: $0))?.media.first }
        }
        for (stored, kind) in zip(read, kinds) {
            let expected = try #require(telegramMedia(kind).first)
            #expect(stored.map { $0.isEqual(to: expected) } == true)
        }
    }
}
