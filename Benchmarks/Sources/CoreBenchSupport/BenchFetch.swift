import Foundation
public import MediaBox
public import SwiftSignalKit
public import TelegramCore

/// Awaiting a `MediaFetcher` download in a benchmark: its events are awaited, not polled.
public enum BenchFetch {
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
