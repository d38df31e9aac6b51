import Foundation
public import MediaBox
public import SwiftSignalKit
public import SyncCore
import SyncCoreApi
public import TelegramApi
public import TelegramCore

/// A benchmark's files on the server: the document a send made, and awaiting a `MediaFetcher` download (its events are
/// awaited, not polled).
public enum BenchFetch {
    /// The document of the `updateNewMessage` in a `messages.sendMedia` answer.
    public static func sentDocument(in answer: Api.Updates) throws -> TelegramMediaFile {
        guard case .updates(let container) = answer,
            let document = container.updates.lazy.compactMap({ update -> TelegramMediaFile? in
                guard case .updateNewMessage(let new) = update, case .message(let message) = new.message,
                    case .messageMediaDocument(let media)? = message.media, let document = media.document
                else { return nil }
                return TelegramMediaFile(document)
            }).first
        else { throw BenchFailure("sendMedia did not answer with the document") }
        return document
    }

    /// The path of the complete file once `signal` reports it; a failure, or no end within `timeout` seconds, throws.
    public static func completedPath(
        _ signal: Signal<FetchEvent, NoError>, timeout: Double = 600
    ) async throws -> String {
        let (events, continuation) = AsyncStream<Result<String, BenchFailure>>.makeStream()
        let disposable = signal.start(next: { event in
            switch event {
            case .status(.local(let path)): continuation.yield(.success(path))
            case .failed(let error): continuation.yield(.failure(BenchFailure("fetch failed: \(error)")))
            default: break
            }
        })
        let timer = Task {
            try? await Task.sleep(for: .seconds(timeout))
            continuation.yield(.failure(BenchFailure("the download did not end within \(Int(timeout)) s")))
        }
        defer {
            disposable.dispose()
            timer.cancel()
            continuation.finish()
        }
        for await outcome in events { return try outcome.get() }
        throw BenchFailure("the download's events ended without the file")
    }
}
