import AccountNetworking
import Network
import Testing

/// Telegram's rules for failed requests, as a pure function.
@Suite struct RequestErrorPolicyTests {
    typealias P = RequestErrorPolicy

    static func rpc(_ code: Int32, _ message: String) -> NetworkError { .rpc(code: code, message: message) }

    @Test func floodWaitsRetryWithinTheCallersLimit() {
        #expect(P.decide(Self.rpc(420, "FLOOD_WAIT_3"), attempt: 1, onMainDc: true) == .retry(after: 3))
        #expect(P.decide(Self.rpc(420, "FLOOD_WAIT_0"), attempt: 1, onMainDc: true) == .retry(after: 1))
        #expect(P.decide(Self.rpc(420, "FLOOD_PREMIUM_WAIT_5"), attempt: 1, onMainDc: true) == .retry(after: 5))
        #expect(P.decide(Self.rpc(420, "FLOOD_WAIT_61"), attempt: 1, onMainDc: true) == .fail(Self.rpc(420, "FLOOD_WAIT_61")))
        let optOut = P.Options(automaticFloodWait: 0)
        #expect(P.decide(Self.rpc(420, "FLOOD_WAIT_3"), attempt: 1, onMainDc: true, options: optOut) == .fail(Self.rpc(420, "FLOOD_WAIT_3")))
        #expect(P.decide(Self.rpc(420, "FLOOD_WAIT_X"), attempt: 1, onMainDc: true) == .fail(Self.rpc(420, "FLOOD_WAIT_X")))
    }

    @Test func migrationsMoveTheRequestAndSignInMovesTheMainDc() {
        #expect(P.decide(Self.rpc(303, "PHONE_MIGRATE_1"), attempt: 1, onMainDc: true) == .migrate(to: 1, movesMainDc: true))
        #expect(P.decide(Self.rpc(303, "USER_MIGRATE_3"), attempt: 1, onMainDc: true) == .migrate(to: 3, movesMainDc: true))
        #expect(P.decide(Self.rpc(303, "NETWORK_MIGRATE_2"), attempt: 1, onMainDc: true) == .migrate(to: 2, movesMainDc: true))
        #expect(P.decide(Self.rpc(303, "FILE_MIGRATE_4"), attempt: 1, onMainDc: true) == .migrate(to: 4, movesMainDc: false))
        #expect(P.decide(Self.rpc(303, "PHONE_MIGRATE_1"), attempt: 1, onMainDc: false) == .migrate(to: 1, movesMainDc: false))
        #expect(P.decide(Self.rpc(303, "SOMETHING_ELSE"), attempt: 1, onMainDc: true) == .fail(Self.rpc(303, "SOMETHING_ELSE")))
    }

    @Test func unauthorizedMeansImportElsewhereAndLoggedOutOnTheMainDc() {
        #expect(P.decide(Self.rpc(401, "AUTH_KEY_UNREGISTERED"), attempt: 1, onMainDc: false) == .importAuthorization)
        #expect(P.decide(Self.rpc(401, "AUTH_KEY_UNREGISTERED"), attempt: 3, onMainDc: false) == .fail(Self.rpc(401, "AUTH_KEY_UNREGISTERED")))
        #expect(P.decide(Self.rpc(401, "AUTH_KEY_UNREGISTERED"), attempt: 1, onMainDc: true) == .loggedOut("AUTH_KEY_UNREGISTERED"))
        #expect(P.decide(Self.rpc(401, "SESSION_REVOKED"), attempt: 1, onMainDc: true) == .loggedOut("SESSION_REVOKED"))
        #expect(P.decide(Self.rpc(401, "SESSION_PASSWORD_NEEDED"), attempt: 1, onMainDc: true) == .fail(Self.rpc(401, "SESSION_PASSWORD_NEEDED")))
    }

    @Test func serverErrorsRetryWithGrowingDelaysThenFail() {
        let delays = (1...5).map { P.decide(Self.rpc(500, "INTERNAL"), attempt: $0, onMainDc: true) }
        #expect(delays == [.retry(after: 1), .retry(after: 2), .retry(after: 4), .retry(after: 8), .retry(after: 16)])
        #expect(P.decide(Self.rpc(500, "INTERNAL"), attempt: 6, onMainDc: true) == .fail(Self.rpc(500, "INTERNAL")))
        #expect(P.decide(Self.rpc(-500, "NO_WORKERS_RUNNING"), attempt: 1, onMainDc: true) == .retry(after: 1))
        // Telegram's 500 RANDOM_ID_DUPLICATE is final: the message already landed.
        let duplicate = Self.rpc(500, "RANDOM_ID_DUPLICATE")
        #expect(P.decide(duplicate, attempt: 1, onMainDc: true) == .fail(duplicate))
        #expect(P.decide(Self.rpc(400, "PEER_ID_INVALID"), attempt: 1, onMainDc: true) == .fail(Self.rpc(400, "PEER_ID_INVALID")))
        #expect(P.decide(.connectionClosed, attempt: 1, onMainDc: true) == .fail(.connectionClosed))
    }
}
