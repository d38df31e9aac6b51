public import Postbox
public import PostboxCoding

/// A place with a title and address: what `messageMediaVenue` adds to a point (Telegram-iOS `MapVenue`).
public struct MapVenue: Hashable, Sendable, Codable {
    public var title: String
    public var address: String
    /// The venue database it came from (`foursquare`, `gplaces`) and its id and type there; empty when none.
    public var provider: String
    public var venueId: String
    public var venueType: String

    public init(title: String, address: String, provider: String = "", venueId: String = "", venueType: String = "") {
        self.title = title
        self.address = address
        self.provider = provider
        self.venueId = venueId
        self.venueType = venueType
    }
}

/// A point on the map: a location, a venue, or a live location shared for `liveBroadcastingTimeout` seconds from the
/// message's date (Telegram-iOS `TelegramMediaMap`; the API's `messageMediaGeo`, `messageMediaVenue`,
/// `messageMediaGeoLive`).
public struct TelegramMediaMap: Media, Hashable, Codable {
    public var latitude: Double
    public var longitude: Double
    /// The point's accuracy in meters, when the sender said.
    public var accuracyRadius: Int32?
    public var venue: MapVenue?
    /// A live location's period in seconds from the message's date (`0x7FFFFFFF`: until stopped); `nil` for a
    /// location that does not move.
    public var liveBroadcastingTimeout: Int32?
    /// A live location's direction of travel in degrees (1–360).
    public var heading: Int32?
    /// A live location's proximity alert radius in meters.
    public var liveProximityNotificationRadius: Int32?

    public init(
        latitude: Double, longitude: Double, accuracyRadius: Int32? = nil, venue: MapVenue? = nil,
        liveBroadcastingTimeout: Int32? = nil, heading: Int32? = nil, liveProximityNotificationRadius: Int32? = nil
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.accuracyRadius = accuracyRadius
        self.venue = venue
        self.liveBroadcastingTimeout = liveBroadcastingTimeout
        self.heading = heading
        self.liveProximityNotificationRadius = liveProximityNotificationRadius
    }

    /// A live location's period that means "until stopped" (Telegram-iOS `liveLocationIndefinitePeriod`).
    public static let indefinitePeriod: Int32 = 0x7FFF_FFFF

    /// When a live location sent at `messageDate` stops updating; `nil` for a still location or an indefinite one.
    public func liveUntil(messageDate: Int32) -> Int32? {
        guard let period = liveBroadcastingTimeout, period != Self.indefinitePeriod else { return nil }
        return messageDate &+ period
    }

    public var id: MediaId? { nil }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        self = try decoder.decodeCodable(TelegramMediaMap.self, forKey: "m")
    }

    public func encode(_ encoder: PostboxEncoder) {
        encoder.encodeCodable(self, forKey: "m")
    }

    public func isEqual(to other: Media) -> Bool { (other as? TelegramMediaMap) == self }
}
