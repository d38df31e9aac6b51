public import AccountNetworking
import CryptoUtils
import Foundation
public import Network
public import SwiftSignalKit
public import TelegramApi

/// Why an upload stopped.
public enum UploadError: Error, Equatable, Sendable {
    /// The local file could not be read (what, where).
    case unreadable(path: String, reason: String)
    /// Empty, or over the 4,000 parts Telegram accepts (2,000 MB).
    case unsupportedSize(Int64)
    /// The server refused a part, or the connection could not be made within the network layer's retries.
    case network(NetworkError)
}

/// What an upload reports: progress as the fraction of bytes the server acknowledged, then the `InputFile` to put
/// in `messages.sendMedia`.
public enum UploadEvent: Sendable {
    case progress(Double)
    case completed(Api.InputFile)
}

/// Uploads a local file in parts (Telegram-iOS `MultipartUpload.swift`; core.telegram.org "Uploading and
/// Downloading Files"): cut by `UploadPlan`, `parallelParts` parts in flight on the media session of the main DC,
/// each acknowledged part recorded in `<file>_upload` beside it, so an upload stopped by a restart goes on with the
/// same file id from the parts the server already has.
public enum MultipartUpload {
    /// The record that makes an upload resumable.
    struct Record: Codable, Equatable {
        var fileId: Int64
        var plan: UploadPlan
        var acknowledged: Set<Int>
    }

    /// An upload of a file that stopped before the end: the file id it goes on with and what the server has.
    public struct StoppedUpload: Equatable, Sendable {
        public let fileId: Int64
        public let plan: UploadPlan
        public let acknowledgedParts: Int
    }

    /// The stopped upload of `path`, if there is one (the next `upload` of it goes on from there).
    public static func stoppedUpload(path: String) -> StoppedUpload? {
        loadRecord(path: path).map {
            StoppedUpload(fileId: $0.fileId, plan: $0.plan, acknowledgedParts: $0.acknowledged.count)
        }
    }

    /// Where the record of `path`'s upload is kept.
    public static func recordPath(for path: String) -> String { path + "_upload" }

    /// Forgets a stopped upload of `path` (the next one starts afresh: the server lost its parts, or the file changed).
    public static func forget(path: String) {
        try? FileManager.default.removeItem(atPath: recordPath(for: path))
    }

    /// Uploads the file at `path` as `name`; `progress` gets the acknowledged fraction after each part.
    public static func upload(
        network: any AccountNetworking, path: String, name: String, parallelParts: Int = 4,
        progress: @escaping @Sendable (Double) -> Void = { _ in }
    ) async throws(UploadError) -> Api.InputFile {
        let size: Int64
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
        } catch {
            throw .unreadable(path: path, reason: "\(error.localizedDescription)")
        }
        guard let plan = UploadPlan(size: size) else { throw .unsupportedSize(size) }
        var record =
            loadRecord(path: path).flatMap { $0.plan == plan ? $0 : nil }
            ?? Record(fileId: randomFileId(), plan: plan, acknowledged: [])
        saveRecord(record, path: path)
        guard let file = FileHandle(forReadingAtPath: path) else {
            throw .unreadable(path: path, reason: "cannot open it")
        }
        defer { try? file.close() }

        var remaining = plan.remainingParts(acknowledged: record.acknowledged)[...]
        let fileId = record.fileId
        func acknowledgedFraction() -> Double {
            Double(record.acknowledged.reduce(Int64(0)) { $0 + Int64(plan.range(ofPart: $1).count) })
                / Double(plan.size)
        }
        progress(acknowledgedFraction())
        do {
            try await withThrowingTaskGroup(of: Int.self) { group in
                func startNext() throws {
                    try Task.checkCancellation()
                    guard let index = remaining.popFirst() else { return }
                    let range = plan.range(ofPart: index)
                    try file.seek(toOffset: UInt64(range.lowerBound))
                    guard let data = try file.read(upToCount: range.count), data.count == range.count else {
                        throw UploadError.unreadable(
                            path: path, reason: "part \(index) is shorter than the file's size says")
                    }
                    let bytes = [UInt8](data)
                    group.addTask {
                        let accepted: Bool
                        if plan.isBig {
                            accepted = try await network.request(
                                Api.functions.upload.saveBigFilePart(
                                    fileId: fileId, filePart: Int32(index), fileTotalParts: Int32(plan.partCount),
                                    bytes: bytes),
                                purpose: .media)
                        } else {
                            accepted = try await network.request(
                                Api.functions.upload.saveFilePart(fileId: fileId, filePart: Int32(index), bytes: bytes),
                                purpose: .media)
                        }
                        guard accepted else { throw NetworkError.rpc(code: 400, message: "FILE_PART_REFUSED") }
                        return index
                    }
                }
                for _ in 0..<max(1, parallelParts) { try startNext() }
                while let index = try await group.next() {
                    record.acknowledged.insert(index)
                    saveRecord(record, path: path)
                    progress(acknowledgedFraction())
                    try startNext()
                }
            }
        } catch let error as UploadError {
            throw error
        } catch let error as NetworkError {
            throw .network(error)
        } catch is CancellationError {
            throw .network(.connectionClosed)
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
        forget(path: path)
        if plan.isBig {
            return .inputFileBig(.init(id: fileId, parts: Int32(plan.partCount), name: name))
        }
        return .inputFile(.init(id: fileId, parts: Int32(plan.partCount), name: name, md5Checksum: ""))
    }

    /// `upload` as a Signal of progress and the result; disposing it stops the upload (what the server acknowledged
    /// stays recorded for the next attempt).
    public static func uploadSignal(
        network: any AccountNetworking, path: String, name: String, parallelParts: Int = 4
    ) -> Signal<UploadEvent, UploadError> {
        Signal { subscriber in
            let task = Task {
                do throws(UploadError) {
                    let file = try await upload(network: network, path: path, name: name, parallelParts: parallelParts)
                    {
                        subscriber.putNext(.progress($0))
                    }
                    subscriber.putNext(.completed(file))
                    subscriber.putCompletion()
                } catch {
                    subscriber.putError(error)
                }
            }
            return ActionDisposable { task.cancel() }
        }
    }

    private static func randomFileId() -> Int64 {
        Int64(bitPattern: SecureRandom.bytes(8).withUnsafeBytes { $0.load(as: UInt64.self) })
    }

    static func loadRecord(path: String) -> Record? {
        guard let data = FileManager.default.contents(atPath: recordPath(for: path)) else { return nil }
        return try? JSONDecoder().decode(Record.self, from: data)
    }

    private static func saveRecord(_ record: Record, path: String) {
        guard let data = try? JSONEncoder().encode(record) else { return }
        let target = recordPath(for: path)
        if FileManager.default.createFile(
            atPath: target + ".tmp", contents: data, attributes: [.posixPermissions: 0o600])
        {
            _ = rename(target + ".tmp", target)
        }
    }
}
