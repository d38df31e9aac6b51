/// A poll as tg-server keeps it (migration 22; core.telegram.org "Polls and quizzes"): stored once by its id and shared
/// by every message that shows it.
public struct PollRecord: Sendable, Equatable {
    public var id: Int64
    /// The account that sent it (it alone may close it, by editing its message).
    public var creator: Int64
    /// The serialized `Poll` as sent (with the server's id and `closed` as it now is).
    public var poll: [UInt8]
    /// A quiz's right answers, as indices into the poll's answers.
    public var correct: [Int]
    /// A quiz's explanation and its entities (serialized `Vector<MessageEntity>`).
    public var solution: String?
    public var solutionEntities: [UInt8]?
    public var closed: Bool
    /// When the poll closes by itself (`close_date`, or the send date plus `close_period`).
    public var closeDate: Int32?
    public var date: Int32

    public init(
        id: Int64, creator: Int64, poll: [UInt8], correct: [Int] = [], solution: String? = nil,
        solutionEntities: [UInt8]? = nil, closed: Bool = false, closeDate: Int32? = nil, date: Int32
    ) {
        self.id = id
        self.creator = creator
        self.poll = poll
        self.correct = correct
        self.solution = solution
        self.solutionEntities = solutionEntities
        self.closed = closed
        self.closeDate = closeDate
        self.date = date
    }

    /// Whether the poll takes no more votes at `now`: closed by its creator, or past its close date.
    public func isClosed(at now: Int32) -> Bool {
        closed || closeDate.map { now >= $0 } ?? false
    }
}

/// One answer one account chose in one poll (a multiple-choice vote is several).
public struct PollVoteRecord: Sendable, Equatable {
    public var userId: Int64
    /// The answer's `option` bytes.
    public var option: [UInt8]
    public var date: Int32

    public init(userId: Int64, option: [UInt8], date: Int32) {
        self.userId = userId
        self.option = option
        self.date = date
    }
}
