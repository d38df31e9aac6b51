public import ChatHistory
public import Postbox

/// What an outgoing message's footer shows after its time (Telegram-iOS `ChatMessageDateAndStatusOutgoingType`,
/// `submodules/TelegramUI/Components/Chat/ChatMessageDateAndStatusNode/Sources/ChatMessageDateAndStatusNode.swift`):
/// a clock while it is being sent, a mark when it failed, one check once the server has it, two once the other
/// side has read it.
public enum OutgoingStatus: Hashable, Sendable {
    case sending
    case failed
    case sent
    case read

    /// The status of a history entry: `nil` for incoming messages and for a broadcast channel's posts, which show no
    /// checks (`MessageAuthorship.isIncoming`); an album is read when all of its messages are. "Read" is Postbox's
    /// `MessageHistoryEntry.isRead` for an outgoing message: its id is at most the chat's `maxOutgoingReadId`, which
    /// `updateReadHistoryOutbox` and `updateReadChannelOutbox` move.
    public static func of(_ entry: ChatHistoryEntry) -> OutgoingStatus? {
        let messages: [MessageHistoryEntry]
        switch entry {
        case .message(let message): messages = [message]
        case .group(_, let group): messages = group
        default: return nil
        }
        guard let first = messages.first, !MessageAuthorship.isIncoming(first.message) else { return nil }
        if messages.contains(where: { $0.message.flags.contains(.failed) }) { return .failed }
        if messages.contains(where: { $0.message.flags.contains(.unsent) }) { return .sending }
        return messages.allSatisfy(\.isRead) ? .read : .sent
    }

    /// The terminal's marks: `◷` sending, `!` failed, `✓` sent, `✓✓` read.
    public var terminalMarks: String {
        switch self {
        case .sending: return "◷"
        case .failed: return "!"
        case .sent: return "✓"
        case .read: return "✓✓"
        }
    }
}
