import Dispatch
public import ImageCore
public import SwiftSignalKit

extension ImagePipeline {
    /// The transformed image as a cold Signal (seed §6.5: the transform is part of the pipeline).
    ///
    /// Each subscription runs `image(for:…)` on `workQueue` — never on the queue that delivers; add
    /// `|> deliverOn(queue)` to choose where values arrive — and disposing cancels its token, which stops the work
    /// between stages and suppresses delivery. Cached results still come from the work queue, so a subscriber never
    /// receives a value synchronously inside `start`.
    public func signal(
        for resourceId: String, arguments: TransformArguments, data: @escaping @Sendable () throws -> [UInt8]
    ) -> Signal<Bitmap, ImageTransformError> {
        Signal { subscriber in
            let token = CancellationToken()
            self.workQueue.async {
                let result: Result<Bitmap, ImageTransformError>
                do {
                    result = .success(try self.image(for: resourceId, arguments: arguments, token: token, data: data))
                } catch let error as ImageTransformError {
                    result = .failure(error)
                } catch {
                    result = .failure(.undecodable("loading \(resourceId): \(error)"))
                }
                guard !token.isCancelled else { return }
                switch result {
                case .success(let bitmap):
                    subscriber.putNext(bitmap)
                    subscriber.putCompletion()
                case .failure(let error):
                    subscriber.putError(error)
                }
            }
            return ActionDisposable { token.cancel() }
        }
    }
}
