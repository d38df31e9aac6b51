import Testing

@testable import ServerAPI

/// `SignedInKeys` and `PreparedStickerSet`: what a run of the backend remembers, per key and once.
@Suite struct SignedInKeysTests {
    @Test func aKeyIsRememberedUntilForgotten() {
        let keys = SignedInKeys()
        keys.remember(.init(userId: 100, homeDc: 2), authKeyId: 1)
        keys.remember(.init(userId: 200, homeDc: 1), authKeyId: 2)
        #expect(keys.account(authKeyId: 1) == .init(userId: 100, homeDc: 2))
        keys.forget(authKeyId: 1)
        #expect(keys.account(authKeyId: 1) == nil)
        #expect(keys.account(authKeyId: 2) == .init(userId: 200, homeDc: 1))
    }

    @Test func theStickerSetIsServedOnceItIsPrepared() {
        let prepared = PreparedStickerSet()
        #expect(prepared.set == nil)
        prepared.prepare(.init(documents: [], emojis: ["👍"]))
        #expect(prepared.set?.emojis == ["👍"])
    }
}
