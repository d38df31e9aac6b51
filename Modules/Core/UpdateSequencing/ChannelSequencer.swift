import TelegramApi

/// The channels' own pts sequences (core.telegram.org "Working with updates", channels; Telegram-iOS
/// `AccountStateManager` with `fetchChannelDifference` in `AccountStateManagementUtils.swift`), without I/O: a part
/// of `UpdateSequencer`, which routes every channel update here and emits what it releases in its own batches — so
/// channel messages are written in the same transaction as the common updates around them.
///
/// Per channel, with the same ordering rule as the common pts (`SequenceFit`):
/// - an update moving the channel's pts applies when `local + pts_count == pts`, is skipped when behind, otherwise
///   held; a channel with no state yet (first seen, nothing stored) starts from the update;
/// - a gap waits `gapWait`, then `updates.getChannelDifference` is fetched from the channel's pts; while it is out,
///   that channel's updates are held, and checked again after it (what it covered is skipped);
/// - `updateChannelTooLong` fetches at once, unless it carries a pts the channel already has; read marks, views and
///   `updateChannel` apply as they come.
///
/// Channels are independent: one channel's gap holds nothing of another's, nor of the common sequences.
public struct ChannelSequencer: Sendable {
    /// Where one channel is.
    public enum Phase: Equatable, Sendable {
        case ready
        /// A gap waits until `deadline`.
        case waitingForGap(deadline: Double)
        case fetchingDifference
    }

    struct Held: @unchecked Sendable {
        let update: Api.Update
        let pts: Int32
        let count: Int32
        var start: Int32 { pts - count }
    }

    struct Channel: Sendable {
        /// `nil`: nothing stored; the first update starts the sequence.
        var pts: Int32?
        var phase: Phase = .ready
        var held: [Held] = []
    }

    /// How long a channel's gap waits for its missing updates.
    public let gapWait: Double
    /// A channel's held updates at most; past it they are dropped and its difference fetched.
    public let maximumHeld: Int
    private var channels: [Int64: Channel] = [:]
    /// Differences asked for and not yet handed to the shell, in order.
    private var requests: [(channelId: Int64, pts: Int32)] = []
    /// A gap started since the shell last heard of the deadlines.
    private var deadlinesChanged = false

    public init(gapWait: Double, maximumHeld: Int) {
        self.gapWait = gapWait
        self.maximumHeld = maximumHeld
    }

    // MARK: - Reading

    /// Whether the machine has seen the channel (or been told its stored state).
    public func knows(_ channelId: Int64) -> Bool { channels[channelId] != nil }
    /// The channel's pts after what was released; `nil` when unknown.
    public func pts(of channelId: Int64) -> Int32? { channels[channelId]?.pts }
    public func phase(of channelId: Int64) -> Phase { channels[channelId]?.phase ?? .ready }
    /// Whether any channel's difference is being fetched.
    public var isFetching: Bool { channels.values.contains { $0.phase == .fetchingDifference } }
    /// Updates of the channel waiting for its gap or its difference.
    public func heldCount(of channelId: Int64) -> Int { channels[channelId]?.held.count ?? 0 }

    /// The earliest time a channel's gap wait ends.
    var earliestDeadline: Double? {
        channels.values.compactMap { channel -> Double? in
            if case .waitingForGap(let deadline) = channel.phase { return deadline }
            return nil
        }.min()
    }

    // MARK: - Input

    /// The stored pts of a channel the machine has not seen (`nil`: none stored); ignored for one it knows.
    mutating func seed(_ channelId: Int64, pts: Int32?) {
        if channels[channelId] == nil { channels[channelId] = Channel(pts: pts) }
    }

    /// Applies a channel update to `batch`, skips it, holds it, or asks for the channel's difference.
    mutating func offer(
        _ update: Api.Update, at position: ChannelUpdatePosition, into batch: inout UpdateSequencer.Batch
    ) {
        let id = position.channelId
        var channel = channels[id] ?? Channel()
        defer { channels[id] = channel }
        switch position.kind {
        case .unordered:
            batch.entries.append(.update(update))
        case .tooLong(let serverPts):
            guard channel.phase != .fetchingDifference else { return }
            // Named again with a pts this account already has (a difference names a channel changed in the second it
            // last heard from the server once more; the check after a catch-up names it with the dialog's pts):
            // nothing to fetch.
            if channel.phase == .ready, let serverPts, let local = channel.pts, local >= serverPts { return }
            channel.phase = .fetchingDifference
            requests.append((id, channel.pts ?? 1))
        case .pts(let pts, let count):
            let held = Held(update: update, pts: pts, count: count)
            guard channel.phase != .fetchingDifference else {
                channel.held.append(held)
                return
            }
            guard let local = channel.pts else {
                apply(held, to: &channel, id, into: &batch)
                return
            }
            switch SequenceFit(expected: local + count, actual: pts) {
            case .apply:
                apply(held, to: &channel, id, into: &batch)
                drain(&channel, id, into: &batch)
            case .skip:
                break
            case .gap:
                channel.held.append(held)
                if channel.held.count > maximumHeld {
                    channel.held = []
                    channel.phase = .fetchingDifference
                    requests.append((id, local))
                }
            }
        }
    }

    /// Takes the answer to a channel's `fetchChannelDifference`: its messages and updates go into `batch` with the
    /// channel's new pts; a difference that is not `final` asks for the next part; `channelDifferenceTooLong` becomes a
    /// `channelTooLong` entry (the newest messages, a hole below them) and continues from the dialog's pts.
    mutating func receiveDifference(
        channelId id: Int64, _ difference: Api.updates.ChannelDifference, into batch: inout UpdateSequencer.Batch
    ) {
        guard var channel = channels[id], channel.phase == .fetchingDifference else { return }
        defer { channels[id] = channel }
        let previousPts = channel.pts
        let isFinal: Bool
        switch difference {
        case .channelDifferenceEmpty(let empty):
            channel.pts = empty.pts
            isFinal = empty.final
        case .channelDifference(let all):
            batch.entries += all.newMessages.map(UpdateSequencer.Entry.newMessage)
            batch.entries += all.otherUpdates.map(UpdateSequencer.Entry.update)
            batch.users += all.users
            batch.chats += all.chats
            channel.pts = all.pts
            isFinal = all.final
        case .channelDifferenceTooLong(let tooLong):
            if case .dialog(let dialog) = tooLong.dialog, let pts = dialog.pts { channel.pts = pts }
            batch.entries.append(.channelTooLong(channelId: id, dialog: tooLong.dialog, messages: tooLong.messages))
            batch.users += tooLong.users
            batch.chats += tooLong.chats
            isFinal = tooLong.final
        }
        if let pts = channel.pts, pts != previousPts || !batch.entries.isEmpty { batch.channelStates[id] = pts }
        if !isFinal {
            requests.append((id, channel.pts ?? 1))
            return
        }
        channel.phase = .ready
        drain(&channel, id, into: &batch)
    }

    /// The channel's difference could not be fetched: ask again (the shell waits its retry delay first).
    mutating func differenceFailed(channelId id: Int64) {
        guard let channel = channels[id], channel.phase == .fetchingDifference else { return }
        requests.append((id, channel.pts ?? 1))
    }

    /// The channel's difference cannot be asked for (its access hash is unknown): what was held is dropped — it is
    /// fetched with the channel's history later — and the channel is ready again.
    mutating func differenceUnavailable(channelId id: Int64) {
        guard var channel = channels[id] else { return }
        channel.held = []
        channel.phase = .ready
        channels[id] = channel
    }

    /// Gap waits that ended at `now`: a channel still missing updates asks for its difference.
    mutating func tick(now: Double) {
        for (id, channel) in channels {
            guard case .waitingForGap(let deadline) = channel.phase, now >= deadline else { continue }
            var updated = channel
            if updated.held.isEmpty {
                updated.phase = .ready
            } else {
                updated.phase = .fetchingDifference
                requests.append((id, updated.pts ?? 1))
            }
            channels[id] = updated
        }
    }

    /// After input: a channel with held updates starts its gap wait (or keeps it), one without clears it.
    mutating func afterHolding(now: Double) {
        for (id, channel) in channels {
            var updated = channel
            switch channel.phase {
            case .ready where !channel.held.isEmpty:
                updated.phase = .waitingForGap(deadline: now + gapWait)
                deadlinesChanged = true
            case .waitingForGap where channel.held.isEmpty:
                updated.phase = .ready
            default:
                continue
            }
            channels[id] = updated
        }
    }

    /// The differences asked for since the last call, and whether a gap wait started.
    mutating func takeRequests() -> (requests: [(channelId: Int64, pts: Int32)], deadlinesChanged: Bool) {
        defer {
            requests = []
            deadlinesChanged = false
        }
        return (requests, deadlinesChanged)
    }

    // MARK: - Sequencing

    private func apply(_ held: Held, to channel: inout Channel, _ id: Int64, into batch: inout UpdateSequencer.Batch) {
        batch.entries.append(.update(held.update))
        channel.pts = held.pts
        batch.channelStates[id] = held.pts
    }

    /// Applies (or skips) every held update of the channel that now fits, in pts order, until none does.
    private func drain(_ channel: inout Channel, _ id: Int64, into batch: inout UpdateSequencer.Batch) {
        var progress = true
        while progress, !channel.held.isEmpty, let local = channel.pts {
            progress = false
            channel.held.sort { $0.start < $1.start }
            var remaining: [Held] = []
            for held in channel.held {
                switch SequenceFit(expected: (channel.pts ?? local) + held.count, actual: held.pts) {
                case .apply:
                    apply(held, to: &channel, id, into: &batch)
                    progress = true
                case .skip:
                    progress = true
                case .gap:
                    remaining.append(held)
                }
            }
            channel.held = remaining
        }
    }
}
