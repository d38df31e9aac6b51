import Foundation
import MTProtoServer
import ServerAPI
import ServerStore
import TLRuntime
import TelegramApi
import Testing

/// Locations, venues, live locations, contacts and dice (core.telegram.org "Live geolocation", "Dice", constructors
/// `inputMediaGeoPoint`, `inputMediaVenue`, `inputMediaContact`): what each becomes, Telegram's ranges, a live
/// location moved and stopped by editing, and the search filters.
@Suite struct PlaceMediaTests {
    static func send(
        _ media: Api.InputMedia, to peer: Api.InputPeer, randomId: Int64
    ) -> Api.functions.messages.sendMedia {
        Api.functions.messages.sendMedia(peer: peer, media: media, message: "", randomId: randomId)
    }

    static let hanoi = Api.InputGeoPoint.inputGeoPoint(.init(lat: 21.0285, long: 105.8542, accuracyRadius: 10))

    /// The media of the newest message of `updates`.
    static func media(_ updates: Api.Updates) -> Api.MessageMedia? {
        guard case .updates(let body) = updates else { return nil }
        for update in body.updates {
            switch update {
            case .updateNewMessage(let new): if case .message(let m) = new.message { return m.media }
            case .updateEditMessage(let edit): if case .message(let m) = edit.message { return m.media }
            default: continue
            }
        }
        return nil
    }

    @Test func locationsVenuesContactsAndDice() throws {
        let harness = try AttackHarness()
        _ = try harness.signUp("9996620001", name: "Ann", key: 1)
        let ben = try harness.signUp("9996620002", name: "Ben", key: 2)
        var randomId: Int64 = 0
        func send(_ media: Api.InputMedia) throws -> Api.MessageMedia? {
            randomId += 1
            return Self.media(
                try harness.result(
                    Self.send(media, to: ben.inputPeer, randomId: randomId), as: Api.Updates.self, key: 1))
        }
        guard case .messageMediaGeo(let geo)? = try send(.inputMediaGeoPoint(.init(geoPoint: Self.hanoi))),
            case .geoPoint(let point) = geo.geo
        else { Issue.record("no location"); return }
        #expect(point.lat == 21.0285 && point.long == 105.8542 && point.accuracyRadius == 10)
        for bad in [
            Api.InputGeoPoint.inputGeoPointEmpty, .inputGeoPoint(.init(lat: 91, long: 0)),
            .inputGeoPoint(.init(lat: 0, long: -181)), .inputGeoPoint(.init(lat: .nan, long: 0)),
        ] {
            #expect(
                harness.error(
                    Self.send(.inputMediaGeoPoint(.init(geoPoint: bad)), to: ben.inputPeer, randomId: 900), key: 1)
                    == "GEO_POINT_INVALID")
        }
        guard
            case .messageMediaVenue(let venue)? = try send(
                .inputMediaVenue(
                    .init(
                        geoPoint: Self.hanoi, title: "Hồ Hoàn Kiếm", address: "Hoàn Kiếm, Hà Nội", provider: "",
                        venueId: "", venueType: "")))
        else { Issue.record("no venue"); return }
        #expect(venue.title == "Hồ Hoàn Kiếm" && venue.address == "Hoàn Kiếm, Hà Nội")
        // A contact names the account behind its number when there is one.
        guard
            case .messageMediaContact(let known)? = try send(
                .inputMediaContact(.init(phoneNumber: "+999 66 2 0002", firstName: "Ben", lastName: "", vcard: "")))
        else { Issue.record("no contact"); return }
        #expect(known.userId == ben.id && known.phoneNumber == "+999 66 2 0002")
        guard
            case .messageMediaContact(let unknown)? = try send(
                .inputMediaContact(
                    .init(phoneNumber: "+84 24 3825 5555", firstName: "Quán", lastName: "Phở", vcard: "")))
        else { Issue.record("no contact"); return }
        #expect(unknown.userId == 0 && unknown.lastName == "Phở")
        #expect(
            harness.error(
                Self.send(
                    .inputMediaContact(.init(phoneNumber: "", firstName: "X", lastName: "", vcard: "")),
                    to: ben.inputPeer, randomId: 901), key: 1) == "MEDIA_INVALID")
        // Dice: Telegram's ranges, each value drawn by the server.
        let ranges: [String: ClosedRange<Int32>] = [
            "🎲": 1...6, "🎯": 1...6, "🏀": 1...5, "⚽": 1...5, "🎳": 1...6, "🎰": 1...64,
        ]
        for (emoticon, range) in ranges.sorted(by: { $0.key < $1.key }) {
            var seen: Set<Int32> = []
            for _ in 0..<12 {
                guard case .messageMediaDice(let dice)? = try send(.inputMediaDice(.init(emoticon: emoticon))) else {
                    Issue.record("no die"); return
                }
                #expect(dice.emoticon == emoticon && range.contains(dice.value))
                seen.insert(dice.value)
            }
            #expect(seen.count > 1, "\(emoticon) always rolled \(seen)")
        }
        #expect(
            harness.error(Self.send(.inputMediaDice(.init(emoticon: "🐉")), to: ben.inputPeer, randomId: 902), key: 1)
                == "EMOTICON_INVALID")
        // The search filters find them.
        let found = try harness.result(
            Api.functions.messages.search(
                peer: ben.inputPeer, q: "", filter: .inputMessagesFilterGeo, minDate: 0, maxDate: 0, offsetId: 0,
                addOffset: 0,
                limit: 20, maxId: 0, minId: 0, hash: 0),
            as: Api.messages.Messages.self, key: 1)
        if case .messages(let body) = found { #expect(body.messages.count == 2) } else { Issue.record("\(found)") }
        let contacts = try harness.result(
            Api.functions.messages.search(
                peer: ben.inputPeer, q: "", filter: .inputMessagesFilterContacts, minDate: 0, maxDate: 0, offsetId: 0,
                addOffset: 0, limit: 20, maxId: 0, minId: 0, hash: 0),
            as: Api.messages.Messages.self, key: 1)
        if case .messages(let body) = contacts {
            #expect(body.messages.count == 2)
        } else {
            Issue.record("\(contacts)")
        }
    }

    /// A live location for 15 minutes: moved by editing (both sides see the new point), stopped (its period becomes
    /// the time it ran), then no longer editable; a period outside 60 s–24 h is refused.
    @Test func aLiveLocationMovesAndStops() throws {
        let harness = try AttackHarness()
        let ann = try harness.signUp("9996620001", name: "Ann", key: 1)
        let ben = try harness.signUp("9996620002", name: "Ben", key: 2)
        #expect(
            harness.error(
                Self.send(.inputMediaGeoLive(.init(geoPoint: Self.hanoi, period: 30)), to: ben.inputPeer, randomId: 1),
                key: 1)
                == "MEDIA_INVALID")
        let sent = try harness.result(
            Self.send(
                .inputMediaGeoLive(.init(geoPoint: Self.hanoi, heading: 90, period: 900)), to: ben.inputPeer,
                randomId: 2),
            as: Api.Updates.self, key: 1)
        guard case .messageMediaGeoLive(let live)? = Self.media(sent) else { Issue.record("\(sent)"); return }
        #expect(live.period == 900 && live.heading == 90)
        let messageId: Int32 = {
            if case .updates(let body) = sent {
                for case .updateNewMessage(let new) in body.updates {
                    if case .message(let m) = new.message { return m.id }
                }
            }
            return 0
        }()
        harness.clock.advance(120)
        let moved = try harness.result(
            Api.functions.messages.editMessage(
                peer: ben.inputPeer, id: messageId,
                media: .inputMediaGeoLive(
                    .init(geoPoint: .inputGeoPoint(.init(lat: 21.03, long: 105.85)), heading: 180))),
            as: Api.Updates.self, key: 1)
        guard case .messageMediaGeoLive(let now)? = Self.media(moved), case .geoPoint(let point) = now.geo else {
            Issue.record("\(moved)"); return
        }
        #expect(point.lat == 21.03 && now.heading == 180 && now.period == 900)
        // Ben's history shows where Ann is now.
        let page = try harness.result(
            Api.functions.messages.getHistory(
                peer: ann.inputPeer, offsetId: 0, offsetDate: 0, addOffset: 0, limit: 5, maxId: 0, minId: 0, hash: 0),
            as: Api.messages.Messages.self, key: 2)
        if case .messages(let body) = page, case .message(let message)? = body.messages.first,
            case .messageMediaGeoLive(let seen)? = message.media, case .geoPoint(let seenPoint) = seen.geo
        {
            #expect(seenPoint.lat == 21.03 && message.editDate != nil)
        } else {
            Issue.record("\(page)")
        }
        harness.clock.advance(60)
        let stopped = try harness.result(
            Api.functions.messages.editMessage(
                peer: ben.inputPeer, id: messageId,
                media: .inputMediaGeoLive(.init(stopped: true, geoPoint: .inputGeoPointEmpty))),
            as: Api.Updates.self, key: 1)
        guard case .messageMediaGeoLive(let ended)? = Self.media(stopped) else { Issue.record("\(stopped)"); return }
        #expect(ended.period == 180 && ended.heading == nil)
        #expect(
            harness.error(
                Api.functions.messages.editMessage(
                    peer: ben.inputPeer, id: messageId, media: .inputMediaGeoLive(.init(geoPoint: Self.hanoi))), key: 1)
                == "MESSAGE_NOT_MODIFIED")
        // A photo or a plain location is not replaced by an edit.
        #expect(
            harness.error(
                Self.send(.inputMediaGeoPoint(.init(geoPoint: Self.hanoi)), to: ben.inputPeer, randomId: 3), key: 1)
                == nil)
        #expect(
            harness.error(
                Api.functions.messages.editMessage(
                    peer: ben.inputPeer, id: messageId + 1, media: .inputMediaGeoLive(.init(geoPoint: Self.hanoi))),
                key: 1)
                == "MEDIA_NOT_MODIFIABLE")
    }
}
