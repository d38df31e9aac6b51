/// What to do with a failed request, by Telegram's rules (core.telegram.org "Error handling"; Telegram-iOS
/// MtProtoKit `MTRequestMessageService.m` and TelegramCore `Network/Network.swift`): a pure function of the error, the
/// attempt and where the request went, so the rules are tested without sockets.
public enum RequestErrorPolicy {
    /// The decision.
    public enum Decision: Equatable, Sendable {
        /// Give up with this error.
        case fail(NetworkError)
        /// Try again on the same DC after this many seconds.
        case retry(after: Double)
        /// Send it to this DC instead; `movesMainDc` for `PHONE_MIGRATE`, `NETWORK_MIGRATE` and `USER_MIGRATE` on the
        /// main DC (sign-in's home is elsewhere), not for `FILE_MIGRATE` (only this file lives there).
        case migrate(to: Int32, movesMainDc: Bool)
        /// The DC does not know this key's authorization: export it from the main DC, import it there, then retry.
        case importAuthorization
        /// 401 on the main DC: the account is logged out (the key's authorization is gone).
        case loggedOut(String)
    }

    /// Options a caller chooses per request.
    public struct Options: Sendable, Equatable {
        /// `FLOOD_WAIT_X` up to this many seconds waits and retries; longer (or with 0) fails.
        public var automaticFloodWait: Double
        /// Internal server errors (5xx, −500) are retried this many times with a growing delay.
        public var serverErrorRetries: Int

        public init(automaticFloodWait: Double = 60, serverErrorRetries: Int = 5) {
            self.automaticFloodWait = automaticFloodWait
            self.serverErrorRetries = serverErrorRetries
        }
    }

    /// The decision for `error` from attempt `attempt` (1 for the first) of a request sent to the main DC or not.
    public static func decide(
        _ error: NetworkError, attempt: Int, onMainDc: Bool, options: Options = Options()
    ) -> Decision {
        guard case .rpc(let code, let message) = error else {
            // Transport failures are the connection's to retry; what reaches here is final.
            return .fail(error)
        }
        switch code {
        case 420:
            guard
                let seconds = suffixNumber(message, after: "FLOOD_WAIT_")
                    ?? suffixNumber(message, after: "FLOOD_PREMIUM_WAIT_"),
                Double(seconds) <= options.automaticFloodWait
            else { return .fail(error) }
            return .retry(after: Double(max(seconds, 1)))
        case 303:
            for kind in ["PHONE_MIGRATE_", "NETWORK_MIGRATE_", "USER_MIGRATE_", "FILE_MIGRATE_", "STATS_MIGRATE_"] {
                if let dc = suffixNumber(message, after: kind) {
                    return .migrate(
                        to: Int32(dc), movesMainDc: onMainDc && kind != "FILE_MIGRATE_" && kind != "STATS_MIGRATE_")
                }
            }
            return .fail(error)
        case 401:
            if message == "SESSION_PASSWORD_NEEDED" { return .fail(error) }
            if !onMainDc && (message == "AUTH_KEY_UNREGISTERED" || message == "AUTH_KEY_PERM_EMPTY") {
                return attempt <= 2 ? .importAuthorization : .fail(error)
            }
            return onMainDc ? .loggedOut(message) : .fail(error)
        case 500...599, -500:
            // Telegram sends `RANDOM_ID_DUPLICATE` as a 500; it says an earlier attempt already landed, so sending
            // again can only repeat it: the caller acts on it at once (PendingMessageManager).
            guard attempt <= options.serverErrorRetries, message != "RANDOM_ID_DUPLICATE" else { return .fail(error) }
            // 1, 2, 4, 8 … seconds, at most 16.
            return .retry(after: min(16, Double(1 << min(attempt - 1, 4))))
        default:
            return .fail(error)
        }
    }

    /// The number after `prefix` in `message` (`FLOOD_WAIT_30` → 30), if it is exactly that.
    static func suffixNumber(_ message: String, after prefix: String) -> Int? {
        guard message.hasPrefix(prefix) else { return nil }
        return Int(message.dropFirst(prefix.count))
    }
}
