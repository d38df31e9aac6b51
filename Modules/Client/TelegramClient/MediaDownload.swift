import Foundation
import MediaBox
public import Postbox
import SwiftSignalKit
public import SyncCore
public import TelegramCore

/// Downloads a message's media in parts into the account's MediaBox (`MediaFetcher`, `upload.getFile`) and copies the
/// complete file out: a photo's largest size, or a document (voice note, sticker, file) whole.
public enum MediaDownload {
    /// The resource and size a message's media downloads as, and a file name for it.
    public static func source(of message: Message) -> (resource: TelegramMediaResource, size: Int64?, name: String)? {
        for media in message.media {
            if let image = media as? TelegramMediaImage,
                let largest = image.representations.max(by: {
                    $0.dimensions.width * $0.dimensions.height < $1.dimensions.width * $1.dimensions.height
                })
            {
                return (largest.resource, largest.byteSize, "photo-\(message.id.id).jpg")
            }
            if let file = media as? TelegramMediaFile {
                let fallback =
                    file.isVoice
                    ? "voice-\(message.id.id).ogg"
                    : file.isSticker ? "sticker-\(message.id.id).webp" : "file-\(message.id.id)"
                return (file.resource, file.size, file.fileName.map { ($0 as NSString).lastPathComponent } ?? fallback)
            }
        }
        return nil
    }

    /// Where a download to `destination` goes: the file itself, or a folder (existing, or named with a trailing
    /// '/', made if missing) that gets the file under `name`.
    static func destinationPath(_ destination: String, name: String) throws(ClientError) -> String {
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: destination, isDirectory: &isFolder)
        let folder = destination.hasSuffix("/") || (exists && isFolder.boolValue)
        let trimmed = destination.count > 1 && destination.hasSuffix("/") ? String(destination.dropLast()) : destination
        if folder && !exists {
            do { try FileManager.default.createDirectory(atPath: trimmed, withIntermediateDirectories: true) } catch {
                throw .storage("\(trimmed): \(error) — check the parent folder exists and is writable")
            }
        }
        return folder ? trimmed + "/" + (name as NSString).lastPathComponent : destination
    }

    /// Downloads `message`'s media to `destination` (a file, or a folder to put the file in under its name); returns the
    /// path written. `progress` gets the fraction stored so far when the size is known.
    public static func download(
        _ message: Message, to destination: String, account: Account, timeout: Double,
        progress: @escaping @Sendable (Double) -> Void = { _ in }
    ) async throws(ClientError) -> String {
        guard let source = source(of: message) else {
            throw .badInput("message \(message.id.id) has no photo or file to download")
        }
        if case .secretChatFile = source.resource {
            // Encrypted on the server: fetched and decrypted by the account's secret chats, then written out.
            let (bytes, name) = try await SecretChatting.download(message, account: account)
            let target = try destinationPath(destination, name: name)
            do { try Data(bytes).write(to: URL(fileURLWithPath: target)) } catch {
                throw .storage("\(target): \(error) — check the folder exists and is writable")
            }
            progress(1)
            return target
        }
        let target = try destinationPath(destination, name: source.name)
        let fetcher = MediaFetcher(account: account)
        let stored = try await firstResult(
            "the download", of: fetcher.fetch(source.resource, size: source.size), timeout: timeout
        ) { event throws(ClientError) -> String? in
            switch event {
            case .status(.local(let path)): return path
            case .status(.partial(_, let fraction?)): progress(fraction)
            case .status: break
            case .failed(let error): throw .refused("downloading: \(error)")
            }
            return nil
        }
        progress(1)
        do {
            if FileManager.default.fileExists(atPath: target) { try FileManager.default.removeItem(atPath: target) }
            try FileManager.default.copyItem(atPath: stored, toPath: target)
        } catch {
            throw .storage("\(target): \(error) — check the folder exists and is writable")
        }
        return target
    }
}
