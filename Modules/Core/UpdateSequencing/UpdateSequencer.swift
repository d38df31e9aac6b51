public import SecretChats
public import TelegramApi

/// The account's update state machine (core.telegram.org "Working with updates"; Telegram-iOS
/// `TelegramCore/Sources/State/AccountStateManager.swift` and `AccountStateManagementUtils.swift`), without I/O:
/// `Updates` from the network go in with the time, and out come batches to apply — each one Postbox transaction in the
/// shell — requests for `updates.getDifference`, and when to call back.
///
/// Rules, per update or container:
/// - pts (common message box): applied when `local + pts_count == pts`; skipped when `local + pts_count > pts`
///   (already applied); otherwise a gap. qts the same with a count of one; `seq` the same for `updates` /
///   `updatesCombined` with a non-zero seq (`local + 1 == seq_start`); seq 0 and updates outside every sequence
///   apply as they come.
/// - A gap holds what arrived (sorted, up to `Configuration.maximumHeld`) for `Configuration.gapWait` seconds,
///   applying anything the missing piece unblocks; if the gap is still there when the wait ends, the machine asks for
///   the difference. `updatesTooLong` asks at once.
/// - While a difference is fetched, what arrives is held. `difference` and each `differenceSlice` are applied as
///   one batch each (a slice asks for the next part); `differenceEmpty` only moves seq and date;
///   `differenceTooLong` tells the shell to reset (mark holes) and continues from its pts. Then the held updates are
///   checked again: those the difference already covered are skipped.
/// - Channel updates follow their own channel's pts (`channels`, a `ChannelSequencer`): released into the same
///   batches as the common updates around them, a channel's gap asks for `updates.getChannelDifference`
///   (`fetchChannelDifference`), whose answer goes to `receiveChannelDifference`.
public struct UpdateSequencer: Sendable {
    /// Timing and bounds.
    public struct Configuration: Sendable, Equatable {
        /// How long a gap may wait for its missing updates before the difference is fetched. Telegram's docs say 0.5 s;
        /// Telegram-iOS waits longer; ours defaults to 2 s.
        public var gapWait: Double
        /// Updates held at most; past it they are dropped and the difference fetched (it brings them again).
        public var maximumHeld: Int
        /// `pts_total_limit` of `updates.getDifference`: an account further behind gets `differenceTooLong` and
        /// fills its chats from holes instead (`nil`: the server's choice).
        public var differenceTotalLimit: Int32?
        /// When a secret chat's key is replaced (the account's other sequence; tests shorten it).
        public var secretChatRekeyPolicy: SecretChatRekeyPolicy

        public init(
            gapWait: Double = 2, maximumHeld: Int = 10_000, differenceTotalLimit: Int32? = nil,
            secretChatRekeyPolicy: SecretChatRekeyPolicy = .standard
        ) {
            self.gapWait = gapWait
            self.maximumHeld = maximumHeld
            self.differenceTotalLimit = differenceTotalLimit
            self.secretChatRekeyPolicy = secretChatRekeyPolicy
        }
    }

    /// One applied item.
    public enum Entry: @unchecked Sendable {
        /// An update, in the order it applies (short forms already expanded to `updateNewMessage`).
        case update(Api.Update)
        /// A new message of a difference.
        case newMessage(Api.Message)
        /// A new secret-chat message of a difference.
        case newEncryptedMessage(Api.EncryptedMessage)
        /// The answer to our own `messages.sendMessage` (`updateShortSentMessage`): the pending message it confirms
        /// is the shell's to match.
        case sentMessage(Api.Updates.Cons_updateShortSentMessage)
        /// `updates.channelDifferenceTooLong`: the channel's newest `messages` replace what is known of its recent
        /// history (a hole below them) and `dialog` has its read state.
        case channelTooLong(channelId: Int64, dialog: Api.Dialog, messages: [Api.Message])
    }

    /// What to apply in one transaction, and the state after it.
    public struct Batch: @unchecked Sendable {
        public var entries: [Entry] = []
        public var users: [Api.User] = []
        public var chats: [Api.Chat] = []
        public var state: UpdatesState
        /// Each channel's pts after this batch, to store with it (only channels it moved).
        public var channelStates: [Int64: Int32] = [:]
    }

    /// What the shell must do.
    public enum Action: @unchecked Sendable {
        /// Store these in one transaction (with the new state).
        case apply(Batch)
        /// Call `updates.getDifference(pts:date:qts:)` from this state and pass the answer to `receiveDifference`.
        case fetchDifference(UpdatesState)
        /// The server could not give the whole difference: drop what is cached about chats (mark holes); the state
        /// now continues from `pts`.
        case resetChats(pts: Int32)
        /// Call `tick(now:)` at this time (the earliest gap wait ends; replaces the previous wake).
        case wake(at: Double)
        /// Call `updates.getChannelDifference` for this channel from `pts` and pass the answer to
        /// `receiveChannelDifference` (or `channelDifferenceFailed`, `channelDifferenceUnavailable`).
        case fetchChannelDifference(channelId: Int64, pts: Int32)
    }

    /// Where the machine is.
    public enum Phase: Equatable, Sendable {
        case ready
        /// A gap waits until `deadline`.
        case waitingForGap(deadline: Double)
        case fetchingDifference
    }

    public let configuration: Configuration
    public let selfUserId: Int64
    public private(set) var state: UpdatesState
    public private(set) var phase: Phase = .ready
    /// The channels' sequences.
    public private(set) var channels: ChannelSequencer
    private var held: [Held] = []

    /// Something that could not apply yet.
    private struct Held: @unchecked Sendable {
        enum Item {
            /// One update (with its container's date, 0 inside a container).
            case entry(Entry, UpdatePosition, date: Int32)
            case container(
                updates: [Api.Update], users: [Api.User], chats: [Api.Chat], date: Int32, seqStart: Int32, seq: Int32)
        }
        let item: Item
        /// Where it starts in its sequence, for ordering: pts − count, qts − 1, seq_start − 1.
        var start: Int32 {
            switch item {
            case .entry(_, .pts(let pts, let count), _): return pts - count
            case .entry(_, .qts(let qts), _): return qts - 1
            case .entry(_, .none, _): return Int32.min
            case .container(_, _, _, _, let seqStart, _): return seqStart - 1
            }
        }
    }

    /// The number of updates waiting for a gap to close or a difference to end.
    public var heldCount: Int { held.count }

    public init(state: UpdatesState, selfUserId: Int64, configuration: Configuration = Configuration()) {
        self.state = state
        self.selfUserId = selfUserId
        self.configuration = configuration
        channels = ChannelSequencer(gapWait: configuration.gapWait, maximumHeld: configuration.maximumHeld)
    }

    // MARK: - Input

    /// Takes one `Updates` object pushed by the server (or returned by a call) at time `now`.
    public mutating func receive(_ updates: Api.Updates, now: Double) -> [Action] {
        var batch = Batch(state: state)
        var actions: [Action] = []
        switch updates {
        case .updatesTooLong:
            return withChannelActions(startDifference(), now: now)
        case .updateShort(let short):
            offer(.entry(.update(short.update), UpdatePosition(short.update), date: short.date), into: &batch)
        case .updateShortMessage(let short):
            let update = Api.Update.updateNewMessage(
                .init(message: .fromShort(short, selfUserId: selfUserId), pts: short.pts, ptsCount: short.ptsCount))
            offer(.entry(.update(update), .pts(pts: short.pts, count: short.ptsCount), date: short.date), into: &batch)
        case .updateShortChatMessage(let short):
            let update = Api.Update.updateNewMessage(
                .init(message: .fromShortChat(short), pts: short.pts, ptsCount: short.ptsCount))
            offer(.entry(.update(update), .pts(pts: short.pts, count: short.ptsCount), date: short.date), into: &batch)
        case .updateShortSentMessage(let sent):
            offer(.entry(.sentMessage(sent), .pts(pts: sent.pts, count: sent.ptsCount), date: sent.date), into: &batch)
        case .updates(let all):
            offer(
                .container(
                    updates: all.updates, users: all.users, chats: all.chats, date: all.date, seqStart: all.seq,
                    seq: all.seq),
                into: &batch)
        case .updatesCombined(let all):
            offer(
                .container(
                    updates: all.updates, users: all.users, chats: all.chats, date: all.date, seqStart: all.seqStart,
                    seq: all.seq),
                into: &batch)
        }
        if phase != .fetchingDifference { drainHeld(into: &batch) }
        finish(batch, into: &actions)
        actions += afterHolding(now: now)
        return withChannelActions(actions, now: now)
    }

    /// Call when a `wake(at:)` time comes: a gap still open then is fetched as a difference.
    public mutating func tick(now: Double) -> [Action] {
        channels.tick(now: now)
        return withChannelActions(tickCommon(now: now), now: now, rescheduling: true)
    }

    private mutating func tickCommon(now: Double) -> [Action] {
        guard case .waitingForGap(let deadline) = phase else { return [] }
        guard now >= deadline else { return [.wake(at: deadline)] }
        guard !held.isEmpty else {
            phase = .ready
            return []
        }
        return startDifference()
    }

    /// Takes the answer to the `fetchDifference` asked for.
    public mutating func receiveDifference(_ difference: Api.updates.Difference, now: Double) -> [Action] {
        guard phase == .fetchingDifference else { return [] }
        var actions: [Action] = []
        switch difference {
        case .differenceEmpty:
            break  // it moves only seq and date: they go out in the batch below, so the shell stores them
        case .difference(let all):
            actions.append(
                .apply(
                    differenceBatch(
                        all.newMessages, all.newEncryptedMessages, all.otherUpdates, all.users, all.chats, all.state)))
            state = Self.state(all.state)
        case .differenceSlice(let slice):
            actions.append(
                .apply(
                    differenceBatch(
                        slice.newMessages, slice.newEncryptedMessages, slice.otherUpdates, slice.users, slice.chats,
                        slice.intermediateState)))
            state = Self.state(slice.intermediateState)
            actions.append(.fetchDifference(state))
            return withChannelActions(actions, now: now)
        case .differenceTooLong(let tooLong):
            state.pts = tooLong.pts
            actions.append(.resetChats(pts: tooLong.pts))
            actions.append(.fetchDifference(state))
            return actions
        }
        phase = .ready
        var batch = Batch(state: state)
        if case .differenceEmpty(let empty) = difference {
            batch.state.date = empty.date
            batch.state.seq = empty.seq
        }
        drainHeld(into: &batch)
        finish(batch, into: &actions)
        actions += afterHolding(now: now)
        return withChannelActions(actions, now: now)
    }

    /// The difference could not be fetched (the network failed): ask again (the shell retries with its backoff).
    public mutating func differenceFailed() -> [Action] {
        guard phase == .fetchingDifference else { return [] }
        return [.fetchDifference(state)]
    }

    // MARK: - Channels

    /// Tells the machine a channel's stored pts (`nil`: none stored) before updates naming it are received; ignored
    /// for a channel it already knows. A channel it was never told of starts from its first update.
    public mutating func seedChannel(_ channelId: Int64, pts: Int32?) {
        channels.seed(channelId, pts: pts)
    }

    /// Takes the answer to a `fetchChannelDifference`: one batch with the channel's messages and its new pts (and the
    /// channel's held updates that now fit); another `fetchChannelDifference` while the answer is not `final`.
    public mutating func receiveChannelDifference(
        channelId: Int64, _ difference: Api.updates.ChannelDifference, now: Double
    ) -> [Action] {
        guard channels.phase(of: channelId) == .fetchingDifference else { return [] }
        var batch = Batch(state: state)
        channels.receiveDifference(channelId: channelId, difference, into: &batch)
        var actions: [Action] = []
        finish(batch, into: &actions)
        return withChannelActions(actions, now: now)
    }

    /// The pts from which the machine asks for the channel's next slice once it takes `difference`, when it asks for
    /// one: a `channelDifference` that is not `final` continues from its own pts (`channelDifferenceTooLong` and
    /// empty answers are left to the machine). The shell may ask for that slice as soon as the answer arrives, before
    /// the machine has taken it: the request is the same.
    public static func nextChannelSlicePts(after difference: Api.updates.ChannelDifference) -> Int32? {
        guard case .channelDifference(let slice) = difference, !slice.final else { return nil }
        return slice.pts
    }

    /// The channel's difference could not be fetched: ask again (the shell retries after its delay).
    public mutating func channelDifferenceFailed(channelId: Int64, now: Double) -> [Action] {
        channels.differenceFailed(channelId: channelId)
        return withChannelActions([], now: now)
    }

    /// The channel's difference cannot be asked for (the channel or its access hash is not stored): its held updates
    /// are dropped and it is ready again.
    public mutating func channelDifferenceUnavailable(channelId: Int64) -> [Action] {
        channels.differenceUnavailable(channelId: channelId)
        return []
    }

    /// Adds the channels' requests to `actions` and, when a wake-up is due (a gap started, or `rescheduling` after a
    /// wake-up), one wake-up at the earliest deadline of all sequences in place of any other: the shell keeps one
    /// timer, so a later gap must not push an earlier one's wake-up back.
    private mutating func withChannelActions(_ actions: [Action], now: Double, rescheduling: Bool = false) -> [Action] {
        channels.afterHolding(now: now)
        let (requests, deadlinesChanged) = channels.takeRequests()
        let wakeAsked = actions.contains { if case .wake = $0 { true } else { false } }
        var result = actions.filter { if case .wake = $0 { false } else { true } }
        result += requests.map { Action.fetchChannelDifference(channelId: $0.channelId, pts: $0.pts) }
        if wakeAsked || deadlinesChanged || rescheduling {
            var deadlines: [Double] = []
            if case .waitingForGap(let deadline) = phase { deadlines.append(deadline) }
            if let deadline = channels.earliestDeadline { deadlines.append(deadline) }
            if let earliest = deadlines.min() { result.append(.wake(at: earliest)) }
        }
        return result
    }

    // MARK: - Sequencing

    /// Applies `item` to `batch` if it fits, skips it if already applied, or holds it.
    private mutating func offer(_ item: Held.Item, into batch: inout Batch) {
        if phase == .fetchingDifference {
            hold(Held(item: item))
            return
        }
        switch fit(item, state: batch.state) {
        case .apply:
            apply(item, into: &batch)
        case .skip:
            break
        case .gap:
            hold(Held(item: item))
        }
    }

    private func fit(_ item: Held.Item, state: UpdatesState) -> SequenceFit {
        switch item {
        case .entry(_, .pts(let pts, let count), _):
            return Self.compare(state.pts + count, pts)
        case .entry(_, .qts(let qts), _):
            return Self.compare(state.qts + 1, qts)
        case .entry(_, .none, _):
            return .apply
        case .container(_, _, _, _, let seqStart, let seq):
            return seq == 0 ? .apply : Self.compare(state.seq + 1, seqStart)
        }
    }

    private static func compare(_ expected: Int32, _ actual: Int32) -> SequenceFit {
        SequenceFit(expected: expected, actual: actual)
    }

    private mutating func apply(_ item: Held.Item, into batch: inout Batch) {
        switch item {
        case .entry(let entry, let position, let date):
            if case .update(let update) = entry, let channel = ChannelUpdatePosition(update) {
                channels.offer(update, at: channel, into: &batch)
                batch.state.date = max(batch.state.date, date)
                return
            }
            batch.entries.append(entry)
            switch position {
            case .pts(let pts, _): batch.state.pts = pts
            case .qts(let qts): batch.state.qts = qts
            case .none: break
            }
            batch.state.date = max(batch.state.date, date)
        case .container(let updates, let users, let chats, let date, _, let seq):
            batch.users += users
            batch.chats += chats
            // Inside a container each update still checks its own sequence (core.telegram.org "Working with
            // updates": updates inside `updates` are applied like single updates).
            for update in updates {
                let position = UpdatePosition(update)
                let item = Held.Item.entry(.update(update), position, date: 0)
                switch fit(item, state: batch.state) {
                case .apply: apply(item, into: &batch)
                case .skip: break
                case .gap: hold(Held(item: item))
                }
            }
            if seq != 0 { batch.state.seq = seq }
            batch.state.date = max(batch.state.date, date)
        }
    }

    private mutating func hold(_ held: Held) {
        self.held.append(held)
    }

    /// Applies (or skips) every held item that now fits, in sequence order, until none does.
    private mutating func drainHeld(into batch: inout Batch) {
        var progress = true
        while progress, !held.isEmpty {
            progress = false
            held.sort { $0.start < $1.start }
            var remaining: [Held] = []
            for item in held {
                switch fit(item.item, state: batch.state) {
                case .apply:
                    apply(item.item, into: &batch)
                    progress = true
                case .skip:
                    progress = true
                case .gap:
                    remaining.append(item)
                }
            }
            held = remaining
        }
    }

    /// Emits a batch that has something in it (or moved the state) and adopts its state.
    private mutating func finish(_ batch: Batch, into actions: inout [Action]) {
        guard
            !batch.entries.isEmpty || batch.state != state || !batch.users.isEmpty || !batch.chats.isEmpty
                || !batch.channelStates.isEmpty
        else {
            return
        }
        state = batch.state
        actions.append(.apply(batch))
    }

    /// After input: a gap starts its wait (or keeps it), an overfull hold fetches the difference, no gap clears it.
    private mutating func afterHolding(now: Double) -> [Action] {
        if phase == .fetchingDifference { return [] }
        if held.count > configuration.maximumHeld {
            held = []
            return startDifference()
        }
        if held.isEmpty {
            phase = .ready
            return []
        }
        if case .waitingForGap = phase { return [] }
        let deadline = now + configuration.gapWait
        phase = .waitingForGap(deadline: deadline)
        return [.wake(at: deadline)]
    }

    private mutating func startDifference() -> [Action] {
        phase = .fetchingDifference
        return [.fetchDifference(state)]
    }

    /// A difference's batch; its channel updates go through their channels' sequences.
    private mutating func differenceBatch(
        _ messages: [Api.Message], _ encrypted: [Api.EncryptedMessage], _ others: [Api.Update], _ users: [Api.User],
        _ chats: [Api.Chat], _ newState: Api.updates.State
    ) -> Batch {
        var batch = Batch(
            entries: messages.map(Entry.newMessage) + encrypted.map(Entry.newEncryptedMessage), users: users,
            chats: chats, state: Self.state(newState))
        for update in others {
            if let channel = ChannelUpdatePosition(update) {
                channels.offer(update, at: channel, into: &batch)
            } else {
                batch.entries.append(.update(update))
            }
        }
        return batch
    }

    static func state(_ state: Api.updates.State) -> UpdatesState {
        switch state {
        case .state(let s): UpdatesState(pts: s.pts, qts: s.qts, seq: s.seq, date: s.date)
        }
    }
}
