import PasswordSRP
import Testing

@testable import ServerAPI

/// `PasswordRounds`: one round per account, answered once, for ten minutes, for at most 10,000 accounts.
@Suite struct PasswordRoundsTests {
    static func round() throws -> SRPServerRound {
        let algorithm = SRPAlgorithm.offeredForNewPassword()
        return try SRPServerRound.start(
            algorithm: algorithm, verifier: try SRPVerifier(password: "correct horse", algorithm: algorithm))
    }

    @Test func aRoundIsTakenOnceAndTheOfferedAlgorithmStays() throws {
        let rounds = PasswordRounds(clock: { 1_800_000_000 })
        let round = try Self.round()
        let offered = SRPAlgorithm.offeredForNewPassword()
        rounds.remember(userId: 7, round: round, offered: offered)
        #expect(rounds.takeRound(userId: 7)?.id == round.id)
        #expect(rounds.takeRound(userId: 7) == nil, "a round answers one proof")
        #expect(rounds.offeredAlgorithm(userId: 7) == offered)
        #expect(rounds.takeRound(userId: 8) == nil && rounds.offeredAlgorithm(userId: 8) == nil)
    }

    @Test func aNewRoundReplacesTheLast() throws {
        let rounds = PasswordRounds(clock: { 1_800_000_000 })
        let first = try Self.round()
        let second = try Self.round()
        rounds.remember(userId: 7, round: first, offered: SRPAlgorithm.offeredForNewPassword())
        rounds.remember(userId: 7, round: second, offered: SRPAlgorithm.offeredForNewPassword())
        #expect(rounds.takeRound(userId: 7)?.id == second.id)
    }

    @Test func anEntryExpiresAfterTenMinutes() throws {
        let clock = AttackHarness.Clock()
        let rounds = PasswordRounds(clock: { clock.now })
        let offered = SRPAlgorithm.offeredForNewPassword()
        rounds.remember(userId: 7, round: try Self.round(), offered: offered)
        clock.advance(599)
        #expect(rounds.offeredAlgorithm(userId: 7) == offered)
        clock.advance(1)
        #expect(rounds.offeredAlgorithm(userId: 7) == nil)
        #expect(rounds.takeRound(userId: 7) == nil)
    }

    @Test func atMostTenThousandAccountsHaveAnEntryUntilSomeExpire() {
        let clock = AttackHarness.Clock()
        let rounds = PasswordRounds(clock: { clock.now })
        let offered = SRPAlgorithm.offeredForNewPassword()
        for userId in Int64(1)...10_000 { rounds.remember(userId: userId, round: nil, offered: offered) }
        rounds.remember(userId: 10_001, round: nil, offered: offered)
        #expect(rounds.offeredAlgorithm(userId: 10_001) == nil, "full: a new account's round is not kept")
        clock.advance(300)
        rounds.remember(userId: 1, round: nil, offered: offered)
        #expect(rounds.offeredAlgorithm(userId: 1) == offered, "an account that has one is still served")
        clock.advance(300)
        rounds.remember(userId: 10_001, round: nil, offered: offered)
        #expect(rounds.offeredAlgorithm(userId: 10_001) == offered, "expired entries make room")
        #expect(rounds.offeredAlgorithm(userId: 2) == nil)
    }
}
