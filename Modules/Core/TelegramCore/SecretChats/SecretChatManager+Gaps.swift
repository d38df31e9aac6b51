// Gaps the other side does not fill: given up at the session's deadline (`SecretChatSession.skipExpiredGap`).

import Foundation
import Postbox
import SecretChats
import Synchronization

extension SecretChatManager {
    /// Sleeps until the earliest gap deadline of any chat, then gives up what is still missing there (what was held
    /// behind it is shown, in the same transaction as the session), and sleeps again; called on start and after a
    /// received message left a gap open. The decision is the session's; this only wakes it.
    public func scheduleGapCheck() {
        guard
            let deadline =
                (try? read({ tx in
                    try SecretChatStorage.chatIds(tx: tx).compactMap {
                        try SecretChatStorage.record($0, tx: tx)?.session?.gapDeadline
                    }.min()
                })) ?? nil
        else { return }
        let sleep = self.sleep
        let task = Task.detached(executorPreference: taskExecutor) { [weak self] in
            guard let wait = self.map({ Double(deadline - $0.clock()) }) else { return }
            if wait > 0 { try? await sleep(wait) }
            guard !Task.isCancelled, let self else { return }
            for chatId in self.skipExpiredGaps() { await self.flush(chatId: chatId) }
            self.scheduleGapCheck()
        }
        gapTask.withLock { previous in
            previous?.cancel()
            previous = task
        }
    }

    /// Gives up every gap whose deadline has passed; returns the chats with something to send.
    func skipExpiredGaps() -> [Int32] {
        let now = clock()
        return
            (try? write { tx -> [Int32] in
                var flush: [Int32] = []
                for id in try SecretChatStorage.chatIds(tx: tx) {
                    guard var record = try SecretChatStorage.record(id, tx: tx), var session = record.session,
                        let deadline = session.gapDeadline, deadline <= now
                    else { continue }
                    let events = session.skipExpiredGap(now: now, policy: rekeyPolicy)
                    if let chatId = try store(events, chatId: id, date: now, record: &record, session: session, tx: tx)
                    {
                        flush.append(chatId)
                    }
                }
                return flush
            }) ?? []
    }
}
