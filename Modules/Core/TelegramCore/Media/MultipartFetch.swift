public import AccountNetworking
import Foundation
public import MediaBox
public import Network
public import SwiftSignalKit
public import SyncCore
public import TelegramApi

/// Why a download stopped.
public enum FetchError: Error, Equatable, Sendable {
    /// The resource cannot be fetched with `upload.getFile` (a local file, a CDN redirect, a peer photo).
    case unsupportedResource(String)
    /// The server refused, or the connection could not be made within the network layer's retries.
    case network(NetworkError)
    /// MediaBox could not write the part (what, where).
    case storage(String)
}

/// What a fetch reports: the resource's state in MediaBox after each part, or why it stopped.
public enum FetchEvent: Equatable, Sendable {
    case status(MediaResourceStatus)
    case failed(FetchError)
}

/// Downloads media resources into MediaBox in parts (Telegram-iOS `MultipartFetch.swift`; core.telegram.org
/// "Uploading and Downloading Files"): `upload.getFile` on the file's own DC over its media session (the network
/// layer imports the authorization there once), `FetchPlan`'s 512 KB windows, `parallelParts` in flight, each
/// written into the resource's partial file with its range map — so a stopped download resumes where it stopped —
/// and the complete file renamed into place. Two fetches of one resource share one download; disposing the last
/// stops it.
public final class MediaFetcher: Sendable {
    let network: any AccountNetworking
    let mediaBox: MediaBox
    let parallelParts: Int
    let partSize: Int
    private let shared = Multicast<FetchEvent>()
    let requestCount = LockedValue(0)
    let byteCount = LockedValue<Int64>(0)
    private let inputPeer: (@Sendable (_ peerId: Int64, _ photoId: Int64) -> Api.InputPeer?)?
    /// The executor a download's task prefers (`AccountScheduling.taskExecutor`; nil: Swift's default).
    private let taskExecutor: (any TaskExecutor)?

    /// `partSize`: the `getFile` window, a power of two from 4 KB to 1 MB (`FetchPlan`). `inputPeer` names the
    /// peer whose profile or chat photo a `cloudPeerPhoto` is (by its id and the photo's); without it, such photos
    /// are `unsupportedResource` (`init(account:)` gives one from the account's stored peers). A download's task
    /// prefers `taskExecutor` (its part calls inherit it).
    public init(
        network: any AccountNetworking, mediaBox: MediaBox, parallelParts: Int = 4,
        partSize: Int = FetchPlan.defaultPartSize,
        inputPeer: (@Sendable (_ peerId: Int64, _ photoId: Int64) -> Api.InputPeer?)? = nil,
        taskExecutor: (any TaskExecutor)? = nil
    ) {
        self.taskExecutor = taskExecutor
        self.network = network
        self.mediaBox = mediaBox
        self.parallelParts = max(1, parallelParts)
        self.partSize = partSize
        self.inputPeer = inputPeer
    }

    /// `upload.getFile` calls made since the start.
    public var requests: Int { requestCount.withLock { $0 } }

    /// Bytes those calls brought back.
    public var fetchedBytes: Int64 { byteCount.withLock { $0 } }

    /// Fetches `resource` (`size` when the message told it): the current status at once, then one after each part,
    /// ending with `.local` or `.failed`.
    public func fetch(_ resource: TelegramMediaResource, size: Int64? = nil) -> Signal<FetchEvent, NoError> {
        let id = resource.id
        let mediaBox = self.mediaBox
        let download = Signal<FetchEvent, NoError> { [self] subscriber in
            let task = Task(executorPreference: taskExecutor) {
                do throws(FetchError) {
                    try await self.download(resource, size: size ?? resource.size) { subscriber.putNext(.status($0)) }
                } catch {
                    subscriber.putNext(.failed(error))
                }
                subscriber.putCompletion()
            }
            return ActionDisposable { task.cancel() }
        }
        let shared = self.shared
        // What is stored when the fetch is subscribed, then the shared download unless that is already the whole file.
        return Signal { subscriber in
            let current = mediaBox.resourceStatus(id, size: size ?? resource.size)
            subscriber.putNext(.status(current))
            if case .local = current {
                subscriber.putCompletion()
                return EmptyDisposable
            }
            return shared.get(key: id.description, signal: download).start(
                next: { subscriber.putNext($0) }, completed: { subscriber.putCompletion() })
        }
    }

    /// The request for `resource`'s bytes, and the DC that has them: a peer photo through `inputPeer`
    /// (`inputPeerPhotoFileLocation`, Telegram-iOS `CloudPeerPhotoSizeMediaResource`), the rest by themselves.
    func location(of resource: TelegramMediaResource) throws(FetchError) -> (Api.InputFileLocation, Int32) {
        if case .cloudPeerPhoto(let dc, let peerId, let photoId, let big) = resource {
            guard let peer = inputPeer?(peerId, photoId) else {
                throw .unsupportedResource("a peer photo whose peer is not stored: fetch it through the account")
            }
            return (.inputPeerPhotoFileLocation(.init(big: big, peer: peer, photoId: photoId)), dc)
        }
        return try Self.location(of: resource)
    }

    /// The request for `resource`'s bytes, and the DC that has them (not for peer photos, which need their peer).
    static func location(of resource: TelegramMediaResource) throws(FetchError) -> (Api.InputFileLocation, Int32) {
        switch resource {
        case .cloudDocument(let dc, let fileId, let accessHash, let reference, _):
            return (
                .inputDocumentFileLocation(
                    .init(id: fileId, accessHash: accessHash, fileReference: reference, thumbSize: "")), dc
            )
        case .cloudDocumentSize(let dc, let documentId, let accessHash, let reference, let spec):
            return (
                .inputDocumentFileLocation(
                    .init(id: documentId, accessHash: accessHash, fileReference: reference, thumbSize: spec)), dc
            )
        case .cloudPhotoSize(let dc, let photoId, let accessHash, let reference, let spec):
            return (
                .inputPhotoFileLocation(
                    .init(id: photoId, accessHash: accessHash, fileReference: reference, thumbSize: spec)), dc
            )
        case .cloudPeerPhoto:
            throw .unsupportedResource("a peer photo needs its peer's input form: fetch it through the account")
        case .localFile:
            throw .unsupportedResource("a local file has nothing to fetch")
        case .secretChatFile:
            throw .unsupportedResource(
                "a secret chat's file is encrypted: download it through the account's secretChats")
        }
    }

    /// What a failure inside a download means for its caller: a cancelled or unknown failure reads as a closed
    /// connection.
    static func fetchError(_ error: any Error, id: MediaResourceId) -> FetchError {
        switch error {
        case let error as FetchError: return error
        case let error as NetworkError: return .network(error)
        case let error as MediaBoxError: return .storage("\(id): \(error)")
        default: return .network(.connectionClosed)
        }
    }

    /// One `upload.getFile` call for `window` (counted in `requests` and `fetchedBytes`); a disposed fetch starts
    /// none.
    func part(_ window: Range<Int64>, of location: Api.InputFileLocation, dc: Int32) async throws -> [UInt8] {
        // A disposed fetch starts no request: a cancelled group still runs the tasks added to it.
        try Task.checkCancellation()
        requestCount.withLock { $0 += 1 }
        let answer = try await network.request(
            Api.functions.upload.getFile(location: location, offset: window.lowerBound, limit: Int32(window.count)),
            dc: dc, purpose: .media)
        guard case .file(let file) = answer else {
            throw FetchError.unsupportedResource("the server redirected to a CDN")
        }
        byteCount.withLock { $0 += Int64(file.bytes.count) }
        return file.bytes
    }

    private func download(
        _ resource: TelegramMediaResource, size: Int64?, report: @escaping @Sendable (MediaResourceStatus) -> Void
    ) async throws(FetchError) {
        let (location, dc) = try location(of: resource)
        let plan = FetchPlan(size: size, partSize: partSize)
        let id = resource.id
        @Sendable func part(_ window: Range<Int64>) async throws -> (Int64, [UInt8]) {
            (window.lowerBound, try await self.part(window, of: location, dc: dc))
        }
        do {
            if let size {
                var windows = plan.missingWindows(have: mediaBox.rangeMap(id))[...]
                try await withThrowingTaskGroup(of: (Int64, [UInt8]).self) { group in
                    for _ in 0..<parallelParts {
                        guard let window = windows.popFirst() else { break }
                        group.addTask { try await part(window) }
                    }
                    while let (offset, bytes) = try await group.next() {
                        report(try mediaBox.writePartial(id, offset: offset, data: bytes, size: size))
                        if let window = windows.popFirst() { group.addTask { try await part(window) } }
                    }
                }
                // Windows that all came back whole yet left the file short: the size was wrong.
                if case .local = mediaBox.resourceStatus(id, size: size) { return }
                throw FetchError.storage("\(id): the server's file is shorter than the \(size) bytes the message says")
            } else {
                // Unknown size: one window after another from the end of what is stored, until one comes back short.
                let stored =
                    mediaBox.rangeMap(id).ranges.first.flatMap { $0.lowerBound == 0 ? $0.upperBound : nil } ?? 0
                var offset = stored / Int64(plan.partSize) * Int64(plan.partSize)
                while true {
                    let (_, bytes) = try await part(offset..<offset + Int64(plan.partSize))
                    let end = bytes.count < plan.partSize ? offset + Int64(bytes.count) : nil
                    report(try mediaBox.writePartial(id, offset: offset, data: bytes, size: end))
                    if end != nil { return }
                    offset += Int64(plan.partSize)
                }
            }
        } catch {
            throw Self.fetchError(error, id: id)
        }
    }
}
