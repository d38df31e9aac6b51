import CryptoUtils
import ServerStore
import TLRuntime
import TelegramApi

/// Locations, venues, live locations, contacts and dice (core.telegram.org constructors `inputMediaGeoPoint`,
/// `inputMediaVenue`, `inputMediaGeoLive`, `inputMediaContact`, `inputMediaDice`; "Live geolocation", "Dice"): each
/// becomes the `MessageMedia` it is on Telegram, stored with the message like any media.
extension ServerBackend {
    /// The dice Telegram rolls and the highest value of each (app config `emojies_send_dice`; core.telegram.org
    /// "Dice": 🎲 🎯 🎳 1–6, 🏀 ⚽ 1–5, 🎰 1–64). A football may come with or without its variation selector.
    static let diceMaximum: [String: Int32] = [
        "🎲": 6, "🎯": 6, "🎳": 6, "🏀": 5, "⚽": 5, "⚽\u{FE0F}": 5, "🎰": 64,
    ]

    /// The longest live location period short of "until stopped" (Bot API `live_period` 60–86400), and the
    /// period that means "until stopped".
    static let livePeriodRange: ClosedRange<Int32> = 60...86_400
    static let livePeriodIndefinite: Int32 = 0x7FFF_FFFF

    /// The media of a place, contact or die sent by `caller`, or `nil` when `input` is none of these.
    func placeMedia(_ input: Api.InputMedia, caller: Caller) throws -> (media: Api.MessageMedia, kind: MediaKind)? {
        switch input {
        case .inputMediaGeoPoint(let geo):
            return (.messageMediaGeo(.init(geo: try Self.geoPoint(geo.geoPoint))), .geo)
        case .inputMediaVenue(let venue):
            guard (1...128).contains(venue.title.utf16.count), venue.address.utf16.count <= 256,
                venue.provider.count <= 64, venue.venueId.count <= 128, venue.venueType.count <= 128
            else { throw APIError.badRequest("MEDIA_INVALID") }
            return (
                .messageMediaVenue(
                    .init(
                        geo: try Self.geoPoint(venue.geoPoint), title: venue.title, address: venue.address,
                        provider: venue.provider, venueId: venue.venueId, venueType: venue.venueType)), .geo
            )
        case .inputMediaGeoLive(let live):
            // A new live location needs a period; "stopped" makes sense only for an edit.
            guard !live.stopped, let period = live.period,
                Self.livePeriodRange.contains(period) || period == Self.livePeriodIndefinite
            else { throw APIError.badRequest("MEDIA_INVALID") }
            try Self.checkLiveExtras(heading: live.heading, radius: live.proximityNotificationRadius)
            return (
                .messageMediaGeoLive(
                    .init(
                        geo: try Self.geoPoint(live.geoPoint), heading: live.heading, period: period,
                        proximityNotificationRadius: live.proximityNotificationRadius)), .geo
            )
        case .inputMediaContact(let contact):
            let phone = Self.normalizedPhone(contact.phoneNumber)
            guard !phone.isEmpty, contact.phoneNumber.count <= 32, !contact.firstName.isEmpty else {
                throw APIError.badRequest("MEDIA_INVALID")
            }
            try TextLimit.firstName.check(contact.firstName)
            try TextLimit.lastName.check(contact.lastName)
            guard contact.vcard.utf8.count <= 2048 else { throw APIError.badRequest("MEDIA_INVALID") }
            // `user_id`: the account with this number, when there is one (core.telegram.org `messageMediaContact`).
            let userId = try store.read { tx in try tx.user(phone: phone)?.id } ?? 0
            return (
                .messageMediaContact(
                    .init(
                        phoneNumber: contact.phoneNumber, firstName: contact.firstName, lastName: contact.lastName,
                        vcard: contact.vcard, userId: userId)), .contact
            )
        case .inputMediaDice(let dice):
            guard let maximum = Self.diceMaximum[dice.emoticon] else { throw APIError.badRequest("EMOTICON_INVALID") }
            let value = Int32(SecureRandom.uint64() % UInt64(maximum)) + 1
            return (.messageMediaDice(.init(value: value, emoticon: dice.emoticon)), .dice)
        default:
            return nil
        }
    }

    /// A live location's new position from `messages.editMessage` (core.telegram.org "Live geolocation"): the point,
    /// heading and alert radius change; `stopped` ends it now (its period becomes the time since it was sent, as
    /// Telegram's apps then show it ended). `MESSAGE_NOT_MODIFIED` for a live location already over.
    func editedLiveLocation(
        _ live: Api.InputMedia.Cons_inputMediaGeoLive, original: Api.MessageMedia, sentAt: Int32
    ) throws -> Api.MessageMedia {
        guard case .messageMediaGeoLive(let current) = original else {
            throw APIError.badRequest("MEDIA_NOT_MODIFIABLE")
        }
        let elapsed = max(0, now - sentAt)
        guard current.period == Self.livePeriodIndefinite || elapsed < current.period else {
            throw APIError.badRequest("MESSAGE_NOT_MODIFIED")
        }
        try Self.checkLiveExtras(heading: live.heading, radius: live.proximityNotificationRadius)
        let geo: Api.GeoPoint
        if case .inputGeoPointEmpty = live.geoPoint {
            geo = current.geo
        } else {
            geo = try Self.geoPoint(live.geoPoint)
        }
        return .messageMediaGeoLive(
            .init(
                geo: geo, heading: live.stopped ? nil : live.heading ?? current.heading,
                period: live.stopped ? max(1, elapsed) : live.period ?? current.period,
                proximityNotificationRadius: live.stopped
                    ? nil : live.proximityNotificationRadius ?? current.proximityNotificationRadius))
    }

    /// A heading of 1–360 degrees and an alert radius of 0–100000 meters (core.telegram.org `inputMediaGeoLive`).
    private static func checkLiveExtras(heading: Int32?, radius: Int32?) throws {
        if let heading, !(1...360).contains(heading) { throw APIError.badRequest("MEDIA_INVALID") }
        if let radius, !(0...100_000).contains(radius) { throw APIError.badRequest("MEDIA_INVALID") }
    }

    /// A point on Earth with a random access hash (`geoPoint`); `GEO_POINT_INVALID` for `inputGeoPointEmpty`, a
    /// latitude outside ±90, a longitude outside ±180, or an accuracy outside 0–1500 m.
    static func geoPoint(_ input: Api.InputGeoPoint) throws -> Api.GeoPoint {
        guard case .inputGeoPoint(let point) = input, point.lat.isFinite, point.long.isFinite,
            (-90.0...90.0).contains(point.lat), (-180.0...180.0).contains(point.long),
            (0...1500).contains(point.accuracyRadius ?? 0)
        else { throw APIError.badRequest("GEO_POINT_INVALID") }
        return .geoPoint(
            .init(long: point.long, lat: point.lat, accessHash: randomId(), accuracyRadius: point.accuracyRadius))
    }
}
