/// An account's position in the server's update sequences (core.telegram.org "Working with updates"): `pts` of the
/// common message box, `qts` of secret-chat (and bot) events, `seq` of the `Updates` containers that carry one, and
/// the `date` of the last update applied. TelegramCore stores it with the account's data, as Telegram-iOS's
/// `AuthorizedAccountState.State` does.
public struct UpdatesState: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var pts: Int32
    public var qts: Int32
    public var seq: Int32
    public var date: Int32

    public init(pts: Int32, qts: Int32, seq: Int32, date: Int32) {
        self.pts = pts
        self.qts = qts
        self.seq = seq
        self.date = date
    }

    public var description: String { "pts \(pts), qts \(qts), seq \(seq), date \(date)" }
}
