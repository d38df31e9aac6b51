import Dispatch
public import SwiftSignalKit
import Synchronization

/// The Signal face of transactions (Telegram-iOS Postbox `postbox.transaction`): cold signals whose work runs on the
/// writer queue when subscribed; disposing before the work starts skips it.
extension Postbox {
    /// A write transaction as a cold `Signal<T, NoError>`: on subscription the closure runs on the writer queue, then
    /// its result is delivered and the signal completes.
    ///
    /// The closure cannot throw; a storage failure of the transaction itself (begin or commit) ends the signal without
    /// a value and is reported to the storage-failure handler. Use the throwing overload to see errors and roll back.
    public func transaction<T>(_ body: @escaping @Sendable (Transaction) -> T) -> Signal<T, NoError> {
        Signal { [self] subscriber in
            let cancelled = Atomic<Bool>(false)
            queue.justDispatch {
                guard !cancelled.load(ordering: .acquiring) else { return }
                do {
                    let result = try self.transactionSync { body($0) }
                    subscriber.putNext(result)
                } catch {
                    self.reportStorageFailure(PostboxError.from(error))
                }
                subscriber.putCompletion()
            }
            return ActionDisposable { cancelled.store(true, ordering: .releasing) }
        }
    }

    /// A write transaction whose closure may throw, as a cold `Signal<T, PostboxError>`: when the closure (or the
    /// storage) throws, everything it wrote is rolled back and the error is delivered.
    public func transaction<T>(_ body: @escaping @Sendable (Transaction) throws -> T) -> Signal<T, PostboxError> {
        Signal { [self] subscriber in
            let cancelled = Atomic<Bool>(false)
            queue.justDispatch {
                guard !cancelled.load(ordering: .acquiring) else { return }
                do {
                    subscriber.putNext(try self.transactionSync(body))
                    subscriber.putCompletion()
                } catch {
                    subscriber.putError(PostboxError.from(error))
                }
            }
            return ActionDisposable { cancelled.store(true, ordering: .releasing) }
        }
    }
}
