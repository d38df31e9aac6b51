import Foundation
public import Postbox
import Synchronization

/// One "is typing" notice from the update stream: who, in which chat, and whether it starts (or goes on) or stops.
public struct TypingNotice: Equatable, Sendable {
    /// The chat: the user themselves for a private chat, the group or the channel otherwise.
    public let chat: PeerId
    public let user: PeerId
    public let active: Bool

    public init(chat: PeerId, user: PeerId, active: Bool) {
        self.chat = chat
        self.user = user
        self.active = active
    }
}

/// Who is typing in which chat (Telegram-iOS `PeerInputActivityManager`; core.telegram.org `messages.setTyping`):
/// kept in memory, never stored. A notice lasts `duration` seconds unless repeated (a typing client repeats it every
/// few seconds), and ends at once with a cancel or with a message from that user in that chat.
public final class PeerActivities: Sendable {
    /// How long a typing notice lasts without another, as Telegram's clients time it out.
    public static let duration: Double = 6

    private let clock: @Sendable () -> Double
    private let until = Mutex<[PeerId: [PeerId: Double]]>([:])

    /// Activities timed by the wall clock.
    public convenience init() {
        self.init(clock: { Date().timeIntervalSince1970 })
    }

    /// Activities timed by `clock` (seconds; tests pass a virtual one).
    public init(clock: @escaping @Sendable () -> Double) {
        self.clock = clock
    }

    /// Takes in notices from an applied update batch.
    public func note(_ notices: [TypingNotice]) {
        guard !notices.isEmpty else { return }
        let expiry = clock() + Self.duration
        until.withLock { state in
            for notice in notices {
                if notice.active {
                    state[notice.chat, default: [:]][notice.user] = expiry
                } else {
                    state[notice.chat]?[notice.user] = nil
                    if state[notice.chat]?.isEmpty == true { state[notice.chat] = nil }
                }
            }
        }
    }

    /// The users typing in `chat` now, by id.
    public func typingUsers(in chat: PeerId) -> [PeerId] {
        let now = clock()
        return until.withLock { state in
            (state[chat] ?? [:]).filter { $0.value > now }.map(\.key).sorted { $0.id.rawValue < $1.id.rawValue }
        }
    }

    /// The chats someone is typing in now (expired notices are dropped as they are found).
    public var typingChats: Set<PeerId> {
        let now = clock()
        return until.withLock { state in
            state = state.compactMapValues { users in
                let live = users.filter { $0.value > now }
                return live.isEmpty ? nil : live
            }
            return Set(state.keys)
        }
    }
}
