public import Postbox
public import SwiftSignalKit
import SyncCore
import SyncCoreApi
public import TelegramApi
public import UpdateSequencing

/// The account's update pipeline (Telegram-iOS `AccountStateManager`): `Updates` pushed by the server and returned
/// by calls go through `UpdateSequencer` on one queue; the batches it releases are stored by a group commit
/// (`StateWrites`): each write transaction stores every batch waiting (`UpdateBatchApplier`, in order), so every open
/// view emits once per transaction and the queue never waits for a write; gaps wait `gapWait` on the queue's clock, then
/// `updates.getDifference` runs and its slices are applied one by one; `differenceTooLong` marks holes. Channel
/// updates follow each channel's own pts, stored as its `ChannelState`: a channel's gap waits, then
/// `updates.getChannelDifference` runs for that channel alone (Telegram-iOS `fetchChannelDifference`).
///
/// The server is reached only through `Environment`'s closures, and time only through `queue` — so tests run
/// the whole shell on SignalTesting's virtual clock with a scripted server, and the account runs it on a real queue
/// over `AccountNetwork`.
public final class AccountStateManager: @unchecked Sendable {
    /// How the manager reaches the server.
    public struct Environment: Sendable {
        /// Every `Updates` the server pushes, in arrival order. `nil` says pushes may have been lost before this point:
        /// it comes first, once the stream is listening (the manager starts catching up only then, so nothing pushed
        /// between the catch-up and the subscription is missed), and again after a new session or a new socket.
        public var updates: Signal<Api.Updates?, NoError>
        public var getState: @Sendable () -> Signal<Api.updates.State, StateManagerError>
        public var getDifference: @Sendable (UpdatesState) -> Signal<Api.updates.Difference, StateManagerError>
        /// `updates.getChannelDifference` for one channel from its pts. `nil`: channel gaps cannot be fetched (their
        /// held updates are dropped; the channel's history comes from holes).
        public var getChannelDifference:
            (@Sendable (Api.InputChannel, Int32) -> Signal<Api.updates.ChannelDifference, StateManagerError>)?
        /// Called after `differenceTooLong` marked the chats' holes: the chat list's first page should be fetched again.
        public var didResetChats: @Sendable () -> Void
        /// The server's pts of each of these channels (`messages.getPeerDialogs`), asked after a catch-up so a
        /// channel `updates.getDifference` did not name is caught up too (`ChannelPtsCheck`). `nil`: not asked.
        public var getChannelPts: (@Sendable ([Api.InputChannel]) -> Signal<[Int64: Int32], StateManagerError>)?

        public init(
            updates: Signal<Api.Updates?, NoError>,
            getState: @escaping @Sendable () -> Signal<Api.updates.State, StateManagerError>,
            getDifference: @escaping @Sendable (UpdatesState) -> Signal<Api.updates.Difference, StateManagerError>,
            getChannelDifference: (
                @Sendable (Api.InputChannel, Int32) -> Signal<Api.updates.ChannelDifference, StateManagerError>
            )? = nil,
            didResetChats: @escaping @Sendable () -> Void = {},
            getChannelPts: (@Sendable ([Api.InputChannel]) -> Signal<[Int64: Int32], StateManagerError>)? = nil
        ) {
            self.updates = updates
            self.getState = getState
            self.getDifference = getDifference
            self.getChannelDifference = getChannelDifference
            self.didResetChats = didResetChats
            self.getChannelPts = getChannelPts
        }
    }

    /// Why the state could not be read or applied.
    public enum StateManagerError: Error, Equatable, Sendable {
        case network(String)
        case storage(String)
    }

    /// Counters for tests, logs and benchmarks.
    public struct Statistics: Equatable, Sendable {
        /// `Updates` received from the stream and from calls.
        public var received = 0
        /// Times the stream said pushes may have been lost (the first, "listening", included).
        public var lossNotices = 0
        /// Short updates from a peer not stored, fetched through the difference instead.
        public var unknownPeers = 0
        public var batches = 0
        /// Write transactions that stored batches: fewer than `batches` when the group commit stored several in one.
        public var writeTransactions = 0
        public var differences = 0
        /// `updates.getChannelDifference` calls, every channel's.
        public var channelDifferences = 0
        /// Slices the machine asked for that had been asked for already, on the network's thread as the slice before
        /// them arrived (counted as the machine takes them).
        public var channelSlicesAskedAhead = 0
        /// Channels found behind by the check after a catch-up (`ChannelPtsCheck`), not named by the difference.
        public var channelsFoundBehind = 0
        public var storedMessages = 0
        /// Updates of a kind neither applied nor deliberately ignored, by constructor (`UpdateBatchApplier`'s
        /// `Summary.unhandled`): a test asserts none were dropped.
        public var unhandledUpdates: [String: Int] = [:]
        public var resets = 0
        public var failures = 0
        /// Wall-clock seconds spent in the writer's batch transactions (storing), for benchmarks.
        public var applySeconds = 0.0
        /// Wall-clock seconds spent in the state machine (ordering, gaps), for benchmarks.
        public var sequencerSeconds = 0.0
        /// Wall-clock seconds from asking for a channel's difference to its answer's arrival (on the network's thread),
        /// summed over every answer: the round trips, for benchmarks.
        public var channelRoundTripSeconds = 0.0
        /// Wall-clock seconds channel differences waited, once arrived, for the queue (busy with other work), summed,
        /// for benchmarks. A slice asked ahead waits from its arrival until the machine takes it, which may include
        /// the handling of the slice before it (counted in `channelHandlingSeconds` too).
        public var channelQueueWaitSeconds = 0.0
        /// Wall-clock seconds the queue spent handling channel differences' answers (the state machine, asking for the
        /// next slice, handing this one to the writer), summed, for benchmarks.
        public var channelHandlingSeconds = 0.0
        /// The last failure, for the log.
        public var lastFailure: String?
    }

    public let queue: Queue
    private let postbox: Postbox
    private let environment: Environment
    private let applier: UpdateBatchApplier
    /// The released batches not stored yet, written by a group commit on Postbox's writer queue (`StateWrites`).
    private var writes: StateWrites!
    /// Each channel's `InputChannel` as last read from its stored peer (on the queue): asked for again only when no
    /// write is pending, so a catch-up's next slice is requested without waiting for the slices being stored.
    private var channelInputs: [Int64: Api.InputChannel] = [:]
    /// Bumped (under its lock, with the value) each time `caughtUp` is set false: a "caught up" that waited for the
    /// writes is dropped if a newer difference began meanwhile.
    private let caughtUpGeneration = LockedValue(0)
    /// The same for `updatingValue` set true: an "updated" that waited for the writes is dropped if a fetch began.
    /// Both values are set under these locks (so a check and its set are one step): a subscriber of `isCaughtUp` or
    /// `isUpdating` must not call back into the manager synchronously (`start()` would wait for the lock it holds).
    private let updatingGeneration = LockedValue(0)
    private let configuration: UpdateSequencer.Configuration
    private let retryDelay: Double
    private var sequencer: UpdateSequencer?
    private var pending: [Api.Updates] = []
    private let updatesDisposable = MetaDisposable()
    private let requestDisposable = MetaDisposable()
    private let wakeDisposable = MetaDisposable()
    /// Each channel's difference request or retry timer (on the queue).
    private var channelRequests: [Int64: Disposable] = [:]
    /// A channel's next difference slice, asked for on the network's thread as the slice before it arrived; held on
    /// the queue only while that slice is handled, whose `fetchChannelDifference` takes it.
    private var channelSlicesAskedAhead: [Int64: SliceAskedAhead] = [:]
    private struct SliceAskedAhead: Sendable {
        let pts: Int32
        /// When it was asked for, and when its answer arrived: the round trip, whenever the manager takes it.
        let asked: ContinuousClock.Instant
        let arrived: LockedValue<ContinuousClock.Instant?>
        let request: AskedAhead<Api.updates.ChannelDifference, StateManagerError>
    }

    /// Notes when the answer arrives (on the thread it arrives on), for the round-trip statistic.
    private static func noteArrival(
        in arrived: LockedValue<ContinuousClock.Instant?>
    ) -> (Signal<Api.updates.ChannelDifference, StateManagerError>) -> Signal<
        Api.updates.ChannelDifference, StateManagerError
    > {
        { signal in signal |> beforeNext { _ in arrived.withLock { $0 = ContinuousClock.now } } }
    }
    /// The channel pts checks under way (`ChannelPtsCheck`; on the queue).
    private var channelChecks: [Disposable] = []
    /// The difference under way began a catch-up (a start or a new session): the channels are checked after it.
    private var checkChannelsAfterDifference = false
    private let statisticsValue = LockedValue(Statistics())
    private let appliedPipe = ValuePipe<UpdateBatchApplier.Summary>()
    private let stateValue = Promise<UpdatesState?>(nil)
    private let updatingValue = ValuePromise(false, ignoreRepeated: true)
    private let caughtUp = ValuePromise(false, ignoreRepeated: true)
    /// Pushes may have been lost while a difference was already on its way (the server may have answered it before
    /// them): one more difference follows it.
    private var differenceAgain = false
    /// The update stream has said it is listening (its first `nil`).
    private var listening = false

    /// A manager for the account `accountPeerId` whose data is in `postbox`.
    public init(
        accountPeerId: PeerId, postbox: Postbox, environment: Environment,
        queue: Queue = Queue(name: "AccountStateManager"),
        configuration: UpdateSequencer.Configuration = .init(), retryDelay: Double = 2,
        secretChats: (@Sendable (Api.Update, Transaction) throws -> Void)? = nil
    ) {
        self.postbox = postbox
        self.environment = environment
        self.queue = queue
        self.configuration = configuration
        self.retryDelay = retryDelay
        applier = UpdateBatchApplier(accountPeerId: accountPeerId, secretChats: secretChats)
        writes = StateWrites(
            postbox: postbox, applier: applier,
            didStore: { [weak self] stored, seconds in self?.didStore(stored, seconds: seconds) },
            didFail: { [weak self] error in self?.fail(.storage("\(error)")) })
    }

    deinit {
        updatesDisposable.dispose()
        requestDisposable.dispose()
        wakeDisposable.dispose()
        for check in channelChecks { check.dispose() }
        for request in channelRequests.values { request.dispose() }
    }

    /// The state after the last applied batch (`nil` before the first).
    public var state: Signal<UpdatesState?, NoError> { stateValue.get() }
    /// True while a difference is being fetched (the title bar's "Updating…").
    public var isUpdating: Signal<Bool, NoError> { updatingValue.get() }
    public var statistics: Statistics { statisticsValue.withLock { $0 } }
    /// What each applied batch changed, once its transaction is committed (new, edited and deleted messages, read
    /// marks): for whoever follows the account's changes as they happen (`tg watch`).
    public var appliedBatches: Signal<UpdateBatchApplier.Summary, NoError> { appliedPipe.signal() }
    /// Whether the manager has reached the server's state since it started (its first difference, or the first
    /// `getState` of a new account, is applied) and is not fetching one now.
    public var hasCaughtUp: Bool { caughtUp.value ?? false }
    /// `hasCaughtUp` now, then each time it changes: what a caller waiting for the account to be online awaits.
    public var isCaughtUp: Signal<Bool, NoError> { caughtUp.get() }

    /// Starts listening, and once the update stream says it is (its first `nil`) catches up: loads the stored state
    /// and fetches `updates.getDifference` from it (or, for an account without one, takes the server's
    /// `updates.getState` as the start: history before it comes from holes).
    public func start() {
        setNotCaughtUp()
        queue.async { [self] in
            listening = false
            updatesDisposable.set(
                (environment.updates |> enqueued(on: queue)).start(next: { [weak self] updates in
                    guard let self else { return }
                    if updates == nil { self.statisticsValue.withLock { $0.lossNotices += 1 } }
                    if let updates {
                        self.receive(updates)
                    } else if !self.listening {
                        self.listening = true
                        self.catchUp()
                    } else {
                        self.newSession()
                    }
                }))
        }
    }

    private func catchUp() {
        let stored: AuthorizedAccountState?
        do {
            stored = try postbox.transactionSync { tx in try tx.getState() as? AuthorizedAccountState }
        } catch {
            fail(.storage("\(error)"))
            return
        }
        if let state = stored?.state {
            begin(with: state)
            checkChannelsAfterDifference = true
            fetchDifference(from: state)
        } else {
            requestInitialState()
        }
    }

    /// Stops listening and drops what was held (it is fetched again by the next start's difference).
    public func stop() {
        queue.async { [self] in
            updatesDisposable.set(nil)
            requestDisposable.set(nil)
            wakeDisposable.set(nil)
            for request in channelRequests.values { request.dispose() }
            channelRequests = [:]
            for check in channelChecks { check.dispose() }
            channelChecks = []
            channelInputs = [:]
            checkChannelsAfterDifference = false
            sequencer = nil
            pending = []
            differenceAgain = false
            updatingValue.set(false)
        }
    }

    /// Feeds `Updates` a call returned (`messages.sendMessage` …) through the same sequence as pushes.
    public func addUpdates(_ updates: Api.Updates) {
        queue.async { [self] in receive(updates) }
    }

    /// Returns once the queue has handled every `Updates` handed to `addUpdates` before this call (stored, or held
    /// for a gap). A local write that must land after a call's own `Updates` awaits this first: applied later, their
    /// older copy of a peer would overwrite it.
    public func handledSoFar() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { [writes] in writes!.afterWrites { continuation.resume() } }
        }
    }

    /// Asks for what channel `channelId` has that this account has not heard of: `updates.getChannelDifference` from
    /// its stored pts, through the channel's sequence as an `updateChannelTooLong` would (nothing new is asked while
    /// its difference is out; a channel not stored cannot be asked). Telegram-iOS polls a channel whose chat is open
    /// the same way (`AccountStateManager`'s channel polling). Returns once the request is under way (`isUpdating`
    /// stays true until it is applied).
    public func pollChannel(_ channelId: Int64) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { [self] in
                receive(.updateShort(.init(update: .updateChannelTooLong(.init(channelId: channelId)), date: 0)))
                continuation.resume()
            }
        }
    }

    // MARK: - On the queue

    private func begin(with state: UpdatesState) {
        sequencer = UpdateSequencer(
            state: state, selfUserId: applier.accountPeerId.id.rawValue, configuration: configuration)
        stateValue.set(.single(state))
        let held = pending
        pending = []
        for updates in held { receive(updates) }
    }

    private func receive(_ updates: Api.Updates) {
        statisticsValue.withLock { $0.received += 1 }
        guard sequencer != nil else {
            pending.append(updates)
            return
        }
        // A short message names its chat and sender by id only: from a peer this account has not stored, it cannot
        // be shown, so the difference brings it with the users and chats it needs (Telegram-iOS does the same).
        if let missing = try? shortUpdateNamesUnknownPeer(updates), missing {
            statisticsValue.withLock { $0.unknownPeers += 1 }
            perform(sequencer!.receive(.updatesTooLong, now: queue.currentTime))
            return
        }
        seedChannels(ChannelUpdatePosition.channelIds(in: updates))
        perform(sequencer!.receive(updates, now: queue.currentTime))
    }

    /// Tells the machine the stored pts of channels it has not seen yet, before updates naming them go in.
    private func seedChannels(_ ids: Set<Int64>) {
        guard let known = sequencer?.channels else { return }
        let unknown = ids.filter { !known.knows($0) }
        guard !unknown.isEmpty else { return }
        writes.waitIfPending()
        do {
            let stored = try postbox.readTransactionSync { tx in
                try unknown.map { id in (id, (try tx.getPeerChatState(.channel(id)) as? ChannelState)?.pts) }
            }
            for (id, pts) in stored { sequencer?.seedChannel(id, pts: pts) }
        } catch {
            fail(.storage("\(error)"))
        }
    }

    private func shortUpdateNamesUnknownPeer(_ updates: Api.Updates) throws -> Bool {
        let peers: [PeerId]
        switch updates {
        case .updateShortMessage(let short): peers = [.user(short.userId)]
        case .updateShortChatMessage(let short):
            peers = [.user(short.fromId), .group(short.chatId)]
        default: return false
        }
        let unknown = { [postbox] in
            try postbox.readTransactionSync { tx in try peers.contains { try tx.getPeer($0) == nil } }
        }
        // Pending writes only add peers: a peer found is known; one not found may be in a batch not yet stored.
        guard try unknown() else { return false }
        guard !writes.isIdle else { return true }
        writes.waitIfPending()
        return try unknown()
    }

    /// Pushes may have been lost (a new session, a new socket, a late subscription): fetch what the server has.
    /// While a `getState` or a difference is under way, one more difference follows it (the server may have answered
    /// it before the lost pushes).
    private func newSession() {
        checkChannelsAfterDifference = true
        guard let sequencer else {
            differenceAgain = true
            return
        }
        guard sequencer.phase != .fetchingDifference else {
            differenceAgain = true
            return
        }
        fetchDifference(from: sequencer.state)
    }

    private func requestInitialState() {
        requestDisposable.set(
            (environment.getState() |> enqueued(on: queue)).start(
                next: { [weak self] state in
                    guard let self, case .state(let value) = state else { return }
                    let initial = UpdatesState(pts: value.pts, qts: value.qts, seq: value.seq, date: value.date)
                    do {
                        try self.postbox.transactionSync { tx in
                            try tx.setState(AuthorizedAccountState(peerId: self.applier.accountPeerId, state: initial))
                        }
                    } catch {
                        self.fail(.storage("\(error)"))
                        return
                    }
                    self.begin(with: initial)
                    if self.differenceAgain {
                        self.differenceAgain = false
                        self.fetchDifference(from: initial)
                    } else {
                        self.setCaughtUpAfterWrites()
                    }
                },
                error: { [weak self] error in
                    guard let self else { return }
                    self.fail(error)
                    self.wakeDisposable.set(
                        self.queue.schedule(after: self.retryDelay) { [weak self] in self?.requestInitialState() })
                }))
    }

    private func fetchDifference(from state: UpdatesState) {
        // The machine must know a fetch is under way so it holds what arrives meanwhile.
        if sequencer?.phase != .fetchingDifference {
            perform(sequencer?.receive(.updatesTooLong, now: queue.currentTime) ?? [])
            return
        }
        setUpdating()
        setNotCaughtUp()
        statisticsValue.withLock { $0.differences += 1 }
        requestDisposable.set(
            (environment.getDifference(state) |> enqueued(on: queue)).start(
                next: { [weak self] difference in
                    guard let self, self.sequencer != nil else { return }
                    self.seedChannels(ChannelUpdatePosition.channelIds(in: Self.otherUpdates(of: difference)))
                    let clock = ContinuousClock()
                    let started = clock.now
                    let actions = self.sequencer!.receiveDifference(difference, now: self.queue.currentTime)
                    let elapsed = clock.now - started
                    self.statisticsValue.withLock { $0.sequencerSeconds += elapsed.inSeconds }
                    self.perform(actions)
                    if let sequencer = self.sequencer, sequencer.phase != .fetchingDifference {
                        if self.differenceAgain {
                            self.differenceAgain = false
                            self.fetchDifference(from: sequencer.state)
                        } else {
                            self.updateIsUpdating()
                            self.setCaughtUpAfterWrites()
                            if self.checkChannelsAfterDifference {
                                self.checkChannelsAfterDifference = false
                                self.checkChannels()
                            }
                        }
                    }
                },
                error: { [weak self] error in
                    guard let self, self.sequencer != nil else { return }
                    self.fail(error)
                    // Asked again after `retryDelay`: a server that keeps failing is not asked in a loop.
                    self.wakeDisposable.set(
                        self.queue.schedule(after: self.retryDelay) { [weak self] in
                            guard let self, self.sequencer != nil else { return }
                            self.perform(self.sequencer!.differenceFailed())
                        })
                }))
    }

    /// Carries out the machine's actions.
    private func perform(_ actions: [UpdateSequencer.Action]) {
        // A slice's batch comes with the request for the next slice (the common difference's or a channel's): ask
        // first, so the server prepares the next slice while this one is handed to the writer.
        let asks = { (action: UpdateSequencer.Action) -> Bool in
            switch action {
            case .fetchDifference, .fetchChannelDifference: true
            default: false
            }
        }
        let ordered = actions.filter(asks) + actions.filter { !asks($0) }
        for action in ordered {
            switch action {
            case .apply(let batch):
                writes.write(batch)
            case .fetchDifference(let state):
                fetchDifference(from: state)
            case .resetChats(let pts):
                resetChats(pts: pts)
            case .fetchChannelDifference(let channelId, let pts):
                fetchChannelDifference(channelId: channelId, pts: pts)
            case .wake(let time):
                let delay = max(0, time - queue.currentTime)
                wakeDisposable.set(
                    queue.schedule(after: delay) { [weak self] in
                        guard let self, self.sequencer != nil else { return }
                        self.perform(self.sequencer!.tick(now: self.queue.currentTime))
                    })
            }
        }
    }

    private static func otherUpdates(of difference: Api.updates.Difference) -> [Api.Update] {
        switch difference {
        case .difference(let all): all.otherUpdates
        case .differenceSlice(let slice): slice.otherUpdates
        case .differenceEmpty, .differenceTooLong: []
        }
    }

    /// Asks for one channel's difference from `pts` (its access hash from the stored `TelegramChannel`); the answer
    /// goes to the machine, a failure is asked again after `retryDelay`. A channel not stored, or an environment
    /// without `getChannelDifference`, cannot be asked: the machine drops what it held for it. Returns whether it
    /// asked.
    @discardableResult
    private func fetchChannelDifference(channelId: Int64, pts: Int32) -> Bool {
        guard let getChannelDifference = environment.getChannelDifference, let input = storedInputChannel(channelId)
        else {
            perform(sequencer?.channelDifferenceUnavailable(channelId: channelId) ?? [])
            return false
        }
        setUpdating()
        channelRequests[channelId]?.dispose()
        let request: Signal<Api.updates.ChannelDifference, StateManagerError>
        // When it was asked for, and when its answer arrived (on the network's thread): the round trip.
        let asked: ContinuousClock.Instant
        let arrived: LockedValue<ContinuousClock.Instant?>
        if let ahead = channelSlicesAskedAhead.removeValue(forKey: channelId), ahead.pts == pts {
            statisticsValue.withLock { $0.channelSlicesAskedAhead += 1 }
            request = ahead.request.answer
            (asked, arrived) = (ahead.asked, ahead.arrived)
        } else {
            statisticsValue.withLock { $0.channelDifferences += 1 }
            (asked, arrived) = (ContinuousClock.now, LockedValue(nil))
            request = getChannelDifference(input, pts) |> Self.noteArrival(in: arrived)
        }
        // On the network's thread: a slice that is not final asks for the next one at once, as the machine will.
        let askAhead = { @Sendable (difference: Api.updates.ChannelDifference) -> SliceAskedAhead? in
            guard let next = UpdateSequencer.nextChannelSlicePts(after: difference) else { return nil }
            let arrival = LockedValue<ContinuousClock.Instant?>(nil)
            return SliceAskedAhead(
                pts: next, asked: ContinuousClock.now, arrived: arrival,
                request: AskedAhead(getChannelDifference(input, next) |> Self.noteArrival(in: arrival)))
        }
        let answer = request |> map { ($0, askAhead($0)) } |> enqueued(on: queue)
        channelRequests[channelId] = answer.start(
            next: { [weak self] difference, ahead in
                guard let self, self.sequencer != nil else { return }
                let handled = ContinuousClock.now
                if let ahead {
                    self.channelSlicesAskedAhead[channelId] = ahead
                    self.statisticsValue.withLock { $0.channelDifferences += 1 }
                }
                self.perform(
                    self.sequencer!.receiveChannelDifference(
                        channelId: channelId, difference, now: self.queue.currentTime))
                // A slice asked ahead that the machine did not ask for (it cannot, as `nextChannelSlicePts` says, but
                // a reset may have dropped the channel) is cancelled.
                self.channelSlicesAskedAhead.removeValue(forKey: channelId)
                self.updateIsUpdating()
                let done = ContinuousClock.now
                let arrival = arrived.withLock { $0 } ?? handled
                self.statisticsValue.withLock {
                    $0.channelRoundTripSeconds += (arrival - asked).inSeconds
                    $0.channelQueueWaitSeconds += (handled - arrival).inSeconds
                    $0.channelHandlingSeconds += (done - handled).inSeconds
                }
            },
            error: { [weak self] error in
                guard let self, self.sequencer != nil else { return }
                self.fail(error)
                self.channelRequests[channelId] = self.queue.schedule(after: self.retryDelay) { [weak self] in
                    guard let self, self.sequencer != nil else { return }
                    self.perform(
                        self.sequencer!.channelDifferenceFailed(channelId: channelId, now: self.queue.currentTime))
                }
            })
        return true
    }

    /// The channel's `InputChannel` from its stored peer. While writes are pending the one read before serves (a
    /// channel's access hash for this account does not change), so asking for a slice does not wait for the slices
    /// before it to be stored; a channel not read before waits for them, since the first of them may store it.
    private func storedInputChannel(_ channelId: Int64) -> Api.InputChannel? {
        if let known = channelInputs[channelId], !writes.isIdle { return known }
        writes.waitIfPending()
        let input =
            (try? postbox.readTransactionSync { tx in
                (try tx.getPeer(.channel(channelId)) as? TelegramChannel)?.apiInputChannel
            }) ?? nil
        channelInputs[channelId] = input
        return input
    }

    /// Asks the server's pts of every stored channel (`ChannelPtsCheck`, 100 a call) and catches up on each one found
    /// behind, as an `updateChannelTooLong` with the server's pts would.
    private func checkChannels() {
        guard let getChannelPts = environment.getChannelPts else { return }
        let stored: [ChannelPtsCheck.Stored]
        writes.waitIfPending()
        do {
            stored = try postbox.readTransactionSync { tx in try ChannelPtsCheck.storedChannels(tx) }
        } catch {
            fail(.storage("\(error)"))
            return
        }
        // A newer catch-up's check replaces one still under way.
        for check in channelChecks { check.dispose() }
        channelChecks = []
        for start in stride(from: 0, to: stored.count, by: ChannelPtsCheck.batch) {
            let part = stored[start..<min(start + ChannelPtsCheck.batch, stored.count)]
            channelChecks.append(
                (getChannelPts(part.map(\.input)) |> enqueued(on: queue)).start(
                    next: { [weak self] serverPts in
                        guard let self, self.sequencer != nil else { return }
                        self.writes.waitIfPending()
                        do {
                            let behind = try self.postbox.readTransactionSync { tx in
                                try ChannelPtsCheck.behind(serverPts, tx)
                            }
                            self.statisticsValue.withLock { $0.channelsFoundBehind += behind.count }
                            for (channelId, pts) in behind {
                                self.receive(
                                    .updateShort(
                                        .init(
                                            update: .updateChannelTooLong(.init(channelId: channelId, pts: pts)),
                                            date: 0)))
                            }
                        } catch {
                            self.fail(.storage("\(error)"))
                        }
                    },
                    error: { [weak self] error in self?.fail(error) }))
        }
    }

    /// "Updating…" while the common difference or any channel's is being fetched; it goes off only once what was
    /// fetched is stored.
    private func updateIsUpdating() {
        guard let sequencer else { return }
        if sequencer.phase == .fetchingDifference || sequencer.channels.isFetching {
            setUpdating()
        } else {
            let generation = updatingGeneration.withLock { $0 }
            writes.afterWrites { [weak self] in
                guard let self else { return }
                self.updatingGeneration.withLock { if $0 == generation { self.updatingValue.set(false) } }
            }
        }
    }

    /// "Updating…" now (an "updated" still waiting for writes is dropped).
    private func setUpdating() {
        updatingGeneration.withLock {
            $0 += 1
            updatingValue.set(true)
        }
    }

    /// Not caught up: a difference is on its way (a "caught up" still waiting for writes is dropped).
    private func setNotCaughtUp() {
        caughtUpGeneration.withLock {
            $0 += 1
            caughtUp.set(false)
        }
    }

    /// Caught up once what the difference brought is stored (on the writer queue, after the commit; at once when
    /// nothing is pending), unless another difference began meanwhile.
    private func setCaughtUpAfterWrites() {
        let generation = caughtUpGeneration.withLock { $0 }
        writes.afterWrites { [weak self] in
            guard let self else { return }
            self.caughtUpGeneration.withLock { if $0 == generation { self.caughtUp.set(true) } }
        }
    }

    /// On Postbox's writer queue, after a group's commit: the counters, the state, each batch's summary (with the
    /// polls it could not store tried again), in order.
    private func didStore(_ stored: [StateWrites.Stored], seconds: Double) {
        var summaries = stored.map(\.summary)
        // The polls the group could not store are tried once per write transaction (the sending task's own write,
        // which they wait for, comes between two of them); what is applied is reported with the group's last batch.
        if var last = summaries.popLast() {
            do {
                try retryPollsNotStored(adding: (summaries + [last]).flatMap(\.pollsNotStored), into: &last)
            } catch {
                fail(.storage("\(error)"))
            }
            summaries.append(last)
        }
        statisticsValue.withLock {
            $0.batches += stored.count
            $0.writeTransactions += 1
            $0.applySeconds += seconds
            for summary in summaries {
                $0.storedMessages += summary.storedMessages
                for name in summary.unhandled { $0.unhandledUpdates[name, default: 0] += 1 }
            }
        }
        if let last = stored.last { stateValue.set(.single(last.batch.state)) }
        for summary in summaries { appliedPipe.putNext(summary) }
    }

    /// Poll updates that found no stored poll, each tried again after the next three write transactions and then dropped (the
    /// history fetch brings a poll with its results): our own poll's `updateMessagePoll` can come before the answer
    /// to our `sendMedia` is stored, since that answer is stored by the sending task and only then handed here. Only
    /// touched on Postbox's writer queue, after a group's commit.
    private var pollsNotStored: [(update: Api.Update.Cons_updateMessagePoll, triesLeft: Int)] = []

    private func retryPollsNotStored(
        adding added: [UpdateBatchApplier.Summary.PollUpdate], into summary: inout UpdateBatchApplier.Summary
    ) throws {
        let new = added.map(\.update)
        let waiting = pollsNotStored
        pollsNotStored = []
        guard !waiting.isEmpty else {
            pollsNotStored = new.suffix(32).map { ($0, 3) }
            return
        }
        var kept: [(update: Api.Update.Cons_updateMessagePoll, triesLeft: Int)] = []
        let applied = try postbox.transactionSync { tx -> [Int64] in
            var applied: [Int64] = []
            for (update, triesLeft) in waiting {
                switch try MessagePollState.applyReporting(update, transaction: tx) {
                case .changed: applied.append(update.pollId)
                case .unchanged: break
                case .notStored: if triesLeft > 1 { kept.append((update, triesLeft - 1)) }
                }
            }
            return applied
        }
        summary.polls += applied
        pollsNotStored = Array((kept + new.map { ($0, 3) }).suffix(32))
    }

    /// `differenceTooLong`: what is stored may have missed anything, so every chat's history above its newest stored
    /// message becomes a hole, fetched when a view reaches it (Telegram-iOS resets chats the same way).
    private func resetChats(pts: Int32) {
        statisticsValue.withLock { $0.resets += 1 }
        // The holes go in above what is stored: every batch released before must be stored first, and this
        // transaction is enqueued on the writer after their flush (`StateWrites` enqueues one for whatever it holds).
        do {
            try postbox.transactionSync { tx in
                var before: ChatListIndex?
                while true {
                    let page = try tx.chatListEntries(before: before, count: 500)
                    for index in page {
                        let top = index.messageIndex.id
                        guard top.namespace == 0, top.id < Int32.max - 1 else { continue }
                        try HoleSpaces.addHole(tx, peerId: top.peerId, range: (top.id + 1)...(Int32.max - 1))
                    }
                    guard page.count == 500, let last = page.last else { break }
                    before = last
                }
            }
            environment.didResetChats()
        } catch {
            fail(.storage("\(error)"))
        }
    }

    private func fail(_ error: StateManagerError) {
        statisticsValue.withLock {
            $0.failures += 1
            $0.lastFailure = "\(error)"
        }
    }
}

/// Delivers every event on `queue` after what the queue is running now, never inline: an answer that arrives while a
/// batch is being written (or at once, from a scripted server) is handled after that batch, in order.
private func enqueued<T: Sendable, E: Sendable>(on queue: Queue) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal<T, E> { subscriber in
            signal.start(
                next: { next in queue.justDispatch { subscriber.putNext(next) } },
                error: { error in queue.justDispatch { subscriber.putError(error) } },
                completed: { queue.justDispatch { subscriber.putCompletion() } })
        }
    }
}
