import Postbox
import PostboxCoding
import Testing

@testable import SyncCore

/// Channels, their state and their posts' attributes through PostboxCoding; damaged channel bytes are errors, never
/// traps.
@Suite struct TelegramChannelCodingTests {
    init() { registerSyncCoreTypes() }

    static let broadcast = TelegramChannel(
        id: .channel(1_000_000_777), accessHash: .personal(-9_000_000_001), title: "Tin tức", username: "tintuc",
        photo: [
            TelegramMediaImageRepresentation(
                dimensions: PixelDimensions(width: 160, height: 160),
                resource: .cloudPeerPhoto(datacenterId: 2, peerId: 1_000_000_777, photoId: 3, big: false), type: "a",
                immediateThumbnailData: [1, 2, 3])
        ],
        creationDate: 1_700_000_000, version: 3, participationStatus: .member,
        info: .broadcast([.messagesShouldHaveSignatures, .hasDiscussionGroup]), flags: [.isCreator, .isVerified],
        adminRights: TelegramChatAdminRights(rights: [.canPostMessages, .canEditMessages, .canDeleteMessages]),
        participantCount: 12_345)

    static let megagroup = TelegramChannel(
        id: .channel(42), accessHash: .genericPublic(5), title: "Nhóm lớn", creationDate: 9, participationStatus: .left,
        info: .group([.slowModeEnabled], slowModeTimeout: 30), flags: [.isGigagroup, .joinToSend],
        bannedRights: TelegramChatBannedRights(flags: [.banSendMedia, .banSendPolls], untilDate: 1_800_000_000),
        defaultBannedRights: TelegramChatBannedRights(flags: [.banPinMessages], untilDate: Int32.max))

    private func roundTrip<T: PostboxCoding>(_ value: T) throws -> T {
        let encoder = PostboxEncoder()
        encoder.encodeRootObject(value)
        let decoded = try PostboxDecoder(bytes: encoder.makeData()).decodeRootObject()
        return try #require(decoded as? T)
    }

    @Test func channelsRoundTripWithEveryField() throws {
        #expect(try roundTrip(Self.broadcast) == Self.broadcast)
        #expect(try roundTrip(Self.megagroup) == Self.megagroup)
        var bare = TelegramChannel(
            id: .channel(1), accessHash: nil, title: "", creationDate: 0, participationStatus: .kicked,
            info: .group([], slowModeTimeout: nil))
        #expect(try roundTrip(bare) == bare)
        bare.info = .broadcast([])
        #expect(try roundTrip(bare) == bare)
        #expect(Self.broadcast.indexName == "Tin tức tintuc")
        #expect(bare.indexName == nil)
        #expect(Self.broadcast.info.isBroadcast && !Self.megagroup.info.isBroadcast)
        #expect(Self.broadcast.isEqual(Self.broadcast) && !Self.broadcast.isEqual(Self.megagroup))
    }

    @Test func channelStateAndPostAttributesRoundTrip() throws {
        #expect(try roundTrip(ChannelState(pts: 123_456)) == ChannelState(pts: 123_456))
        #expect(try roundTrip(ViewCountMessageAttribute(count: 9_001)) == ViewCountMessageAttribute(count: 9_001))
        let signature = AuthorSignatureMessageAttribute(signature: "Biên tập viên")
        #expect(try roundTrip(signature) == signature)
    }

    @Test func damagedChannelBytesThrowOrDecode() throws {
        let encoder = PostboxEncoder()
        encoder.encodeRootObject(Self.broadcast)
        let bytes = encoder.makeData()
        for cut in 0..<bytes.count {
            _ = try? PostboxDecoder(bytes: Array(bytes[0..<cut])).decodeRootObject()
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            var damaged = bytes
            damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            _ = try? PostboxDecoder(bytes: damaged).decodeRootObject()
        }
        // A channel without its title is a clear error.
        let missing = PostboxEncoder()
        missing.encodeInt64(PeerId.channel(1).toInt64(), forKey: "i")
        #expect(throws: PostboxDecodingError.self) {
            _ = try TelegramChannel(decoder: PostboxDecoder(bytes: missing.makeData()))
        }
    }
}
