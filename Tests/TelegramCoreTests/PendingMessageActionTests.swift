import Postbox
import SyncCore
@testable import TelegramCore
import Testing

/// The stored form of a queued read or delete: every action comes back as it went in, and bytes it never wrote —
/// cut short, padded, an unknown kind, more ids than a call takes — read as nothing rather than trap.
@Suite struct PendingMessageActionTests {
    @Test func actionsRoundTripAndDamagedBytesReadAsNothing() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let ids = (0..<Int.random(in: 0...100, using: &generator)).map { _ in Int32.random(in: Int32.min...Int32.max) }
            let action: PendingMessageAction
            switch Int.random(in: 0...3, using: &generator) {
            case 0:
                action = .readHistory(
                    peerId: PeerId(namespace: .init(rawValue: Int32.random(in: 0...2)), id: .init(rawValue: Int64.random(in: 1...(1 << 40)))),
                    maxId: Int32.random(in: Int32.min...Int32.max))
            case 1: action = .deleteMessages(ids: ids, forEveryone: Bool.random())
            case 2: action = .readMessageContents(ids: ids)
            default: action = .deleteChannelMessages(channelId: Int64.random(in: Int64.min...Int64.max), ids: ids)
            }
            let bytes = action.encoded
            #expect(PendingMessageAction(encoded: bytes) == action)
            for cut in [1, 2, 3] where bytes.count > cut {
                let shorter = Array(bytes.dropLast(cut))
                #expect(PendingMessageAction(encoded: shorter) == nil, "\(bytes.count - cut) bytes of \(action)")
            }
        }
        #expect(PendingMessageAction(encoded: []) == nil)
        #expect(PendingMessageAction(encoded: [7, 0, 0, 0]) == nil)
        #expect(PendingMessageAction(encoded: [1, 1] + Array(repeating: 0, count: 4 * 101)) == nil, "over 100 ids")
        #expect(PendingMessageAction(encoded: [3] + Array(repeating: 0, count: 8 + 4 * 101)) == nil, "over 100 channel ids")
        #expect(PendingMessageAction(encoded: [3, 1, 0, 0]) == nil, "a channel delete without its channel")
        #expect(PendingMessageAction(encoded: [0] + Array(repeating: 0, count: 13)) == nil, "a read with trailing bytes")
    }
}
