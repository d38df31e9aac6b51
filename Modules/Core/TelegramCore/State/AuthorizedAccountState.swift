public import Postbox
public import PostboxCoding
public import UpdateSequencing

/// What Postbox keeps as its state for a signed-in account (Telegram-iOS `AuthorizedAccountState`): who the account
/// is and where its update sequence stands. Written in the same transaction as the updates it accounts for.
public struct AuthorizedAccountState: PostboxCoding, Equatable, Sendable {
    public var peerId: PeerId
    /// `nil` until the first `updates.getState`.
    public var state: UpdatesState?

    public init(peerId: PeerId, state: UpdatesState?) {
        self.peerId = peerId
        self.state = state
    }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        peerId = PeerId(try decoder.decodeInt64(forKey: "p"))
        if let pts = decoder.decodeOptionalInt32ForKey("pts") {
            state = UpdatesState(
                pts: pts, qts: decoder.decodeInt32ForKey("qts", orElse: 0),
                seq: decoder.decodeInt32ForKey("seq", orElse: 0),
                date: decoder.decodeInt32ForKey("date", orElse: 0))
        } else {
            state = nil
        }
    }

    public func encode(_ encoder: PostboxEncoder) {
        encoder.encodeInt64(peerId.toInt64(), forKey: "p")
        if let state {
            encoder.encodeInt32(state.pts, forKey: "pts")
            encoder.encodeInt32(state.qts, forKey: "qts")
            encoder.encodeInt32(state.seq, forKey: "seq")
            encoder.encodeInt32(state.date, forKey: "date")
        }
    }
}
