import Dispatch
import Foundation
import MediaBox
import SwiftSignalKit
import SyncCore
import TelegramCore

/// Why a resource's bytes could not be had.
enum WholeFileError: Error {
    /// The fetch stopped (MediaFetcher's error), or ended before the file was whole.
    case fetch(FetchError)
    /// The complete file could not be read, or holds more than the caller accepts.
    case unreadable(LocalFiles.Failure)
}

extension MediaFetcher {
    /// The bytes of `resource` once it is whole in MediaBox: fetched (sharing this fetcher's download of it), then
    /// read on `queue`, refused past `maxBytes`. One value, then completion; disposing stops the fetch, and a read
    /// that was already queued delivers nothing.
    func wholeFile(
        _ resource: TelegramMediaResource, size: Int64?, maxBytes: Int, queue: DispatchQueue
    ) -> Signal<[UInt8], WholeFileError> {
        Signal { subscriber in
            let cancelled = LockedValue(false)
            let complete = LockedValue(false)
            let resourceId = resource.id
            let fetch = self.fetch(resource, size: size).start(
                next: { event in
                    switch event {
                    case .status(.local(let path)):
                        complete.withLock { $0 = true }
                        queue.async {
                            if cancelled.withLock({ $0 }) { return }
                            do throws(LocalFiles.Failure) {
                                subscriber.putNext(try LocalFiles.read(path, maxBytes: maxBytes))
                                subscriber.putCompletion()
                            } catch {
                                subscriber.putError(.unreadable(error))
                            }
                        }
                    case .failed(let error):
                        subscriber.putError(.fetch(error))
                    case .status:
                        break
                    }
                },
                completed: {
                    if !complete.withLock({ $0 }) {
                        subscriber.putError(
                            .fetch(.storage("\(resourceId): the fetch ended before the file was whole")))
                    }
                })
            return ActionDisposable {
                cancelled.withLock { $0 = true }
                fetch.dispose()
            }
        }
    }
}
