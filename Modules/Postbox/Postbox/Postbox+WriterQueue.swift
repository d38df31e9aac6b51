import Dispatch
import SwiftSignalKit

/// Work ordered with the write transactions (Telegram-iOS Postbox exposes its `queue` for the same purpose): a writer
/// that groups several callers' writes into one transaction runs on the writer queue, so every transaction enqueued
/// after it — and every `waitForWrites()` — comes after its commit.
extension Postbox {
    /// Runs `body` on the writer queue after everything already enqueued there. `body` may call `transactionSync`
    /// (it runs inline on this queue).
    public func writerQueueAsync(_ body: @escaping @Sendable () -> Void) {
        queue.justDispatch(body)
    }

    /// Returns once every transaction and `writerQueueAsync` body enqueued before this call has finished. Read
    /// transactions run on connections of their own and see only committed data: a reader that must see a write
    /// handed to the writer queue waits for it here first.
    public func waitForWrites() {
        syncOnQueue {}
    }
}
