import Testing

@testable import ServerAPI

/// `ExportedAuthorizations`: tokens imported once, for five minutes, at most 10,000 live at once; a key signed in to
/// another account cannot use up an account's token.
@Suite struct ExportedAuthorizationsTests {
    @Test func aTokenIsTakenOnce() {
        let exported = ExportedAuthorizations(clock: { 1_800_000_000 })
        exported.keep(id: 9, userId: 100, bytes: [1, 2, 3], dc: 1)
        let token = exported.take(id: 9)
        #expect(token == .init(userId: 100, bytes: [1, 2, 3], dc: 1, expires: 1_800_000_300))
        #expect(exported.take(id: 9) == nil)
        #expect(exported.take(id: 10) == nil)
    }

    @Test func aTokenExpiresAfterFiveMinutes() {
        let clock = AttackHarness.Clock()
        let exported = ExportedAuthorizations(clock: { clock.now })
        exported.keep(id: 9, userId: 100, bytes: [1], dc: 1)
        exported.keep(id: 10, userId: 100, bytes: [1], dc: 1)
        clock.advance(299)
        #expect(exported.take(id: 9)?.userId == 100)
        clock.advance(1)
        #expect(exported.take(id: 10) == nil)
    }

    @Test func aKeySignedInToAnotherAccountLeavesTheTokenUnused() {
        let exported = ExportedAuthorizations(clock: { 1_800_000_000 })
        exported.keep(id: 9, userId: 100, bytes: [1], dc: 1)
        #expect(exported.take(id: 9, keySignedInTo: 200) == nil)
        #expect(exported.take(id: 9, keySignedInTo: 100)?.userId == 100, "the account's own key may import it")
        exported.keep(id: 10, userId: 100, bytes: [1], dc: 1)
        #expect(exported.take(id: 10, keySignedInTo: 200) == nil)
        #expect(exported.take(id: 10)?.userId == 100, "a key signed in to nothing may import it")
    }

    @Test func atMostTenThousandTokensLiveAtOnce() {
        let clock = AttackHarness.Clock()
        let exported = ExportedAuthorizations(clock: { clock.now })
        for id in Int64(1)...10_000 { exported.keep(id: id, userId: 100, bytes: [1], dc: 1) }
        exported.keep(id: 10_001, userId: 100, bytes: [1], dc: 1)
        #expect(exported.take(id: 10_001) == nil, "full: a new token is not kept")
        #expect(exported.take(id: 1)?.userId == 100)
        exported.keep(id: 10_002, userId: 100, bytes: [1], dc: 1)
        #expect(exported.take(id: 10_002)?.userId == 100, "a token taken makes room")
        clock.advance(300)
        exported.keep(id: 10_003, userId: 100, bytes: [1], dc: 1)
        #expect(exported.take(id: 10_003)?.userId == 100, "expired tokens make room")
    }
}
