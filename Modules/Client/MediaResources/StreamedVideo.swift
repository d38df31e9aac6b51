import Dispatch
import ImageCore
public import MediaBox
public import Postbox
public import SyncCore
public import TelegramCore
public import VideoBinding

/// A video's first frame got by streaming, and what it cost.
public struct StreamedFirstFrame: Sendable, Equatable {
    /// The first frame, the same pixels and time as decoding the whole file gives.
    public let frame: VideoFrame
    /// Decodes tried: one, plus one after each range fetched.
    public let rounds: Int
    /// `upload.getFile` calls made for it.
    public let requests: Int
    /// Bytes those calls brought back.
    public let fetchedBytes: Int64
    /// Bytes of the file stored in MediaBox afterwards (what earlier fetches left counts too).
    public let storedBytes: Int64

    /// The frame as a PNG file's bytes.
    public func png() -> [UInt8] { PNGCodec.encode(frame.bitmap) }
    /// The frame's width in pixels.
    public var width: Int { frame.bitmap.width }
    /// The frame's height in pixels.
    public var height: Int { frame.bitmap.height }
}

/// Why a streamed first frame could not be had.
public enum StreamedVideoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A range could not be fetched.
    case fetch(FetchError)
    /// FFmpeg refused the bytes (corrupt, too large, no video stream).
    case video(VideoError)
    /// The decode still needed bytes after `rounds` fetches (the bound on a file that keeps asking).
    case tooManyRounds(Int)
    /// The message holds no video document of known size.
    case notAVideo

    public var description: String {
        switch self {
        case .fetch(let error): return "fetching the video: \(error)"
        case .video(let error): return error.description
        case .tooManyRounds(let rounds): return "the video's first frame still needed bytes after \(rounds) fetches"
        case .notAVideo: return "the message has no video"
        }
    }
}

/// A video's first frame before the file is whole (Telegram-iOS shows a video's first frames while it streams:
/// `MediaPlayer/Sources/FFMpegMediaFrameSource.swift` over `MediaBox`'s partial files): decode from what MediaBox
/// holds; when the decode needs bytes that are not there (`VideoError.needsBytes`), fetch the `upload.getFile`
/// windows holding them (`MediaFetcher.fetchRange`) and decode again. So the bytes come in the order playback reads
/// them — the header; the index (moov), at the front of a faststart file or from the tail of one that keeps it at the
/// end; then the first group of pictures — and the rest of the file is never fetched for it.
public enum StreamedVideo {
    /// Decodes tried before giving up: each round fetches at least one new window, so a file needs this many only
    /// when its header, index and first frames are scattered over that many windows.
    public static let defaultMaxRounds = 16

    /// The first frame of `message`'s video (a video, a round video or a GIF), streamed into `account`'s MediaBox.
    public static func firstFrame(
        of message: Message, account: Account
    ) async throws(StreamedVideoError)
        -> StreamedFirstFrame
    {
        guard let file = message.media.lazy.compactMap({ $0 as? TelegramMediaFile }).first(where: \.isVideo),
            let size = file.size
        else { throw .notAVideo }
        return try await firstFrame(
            file.resource, size: size, fetcher: MediaFetcher(account: account), mediaBox: account.postbox.mediaBox)
    }

    /// Bytes fetched past the end of each range a decode asks for: a decode that needed the header goes on to the
    /// index and the first frames right behind it, so fetching one window more with it saves a round (a decode and a
    /// request's round trip) for the cost of one window.
    public static let defaultReadAhead: Int64 = 512 * 1024

    /// The first frame of `resource` (a video of `size` bytes), fetching into `mediaBox` through `fetcher` only the
    /// windows the decode asks for and `readAhead` bytes after each. Each decode runs on a dispatch queue, off Swift's
    /// cooperative pool.
    public static func firstFrame(
        _ resource: TelegramMediaResource, size: Int64, fetcher: MediaFetcher, mediaBox: MediaBox,
        maxRounds: Int = defaultMaxRounds, readAhead: Int64 = defaultReadAhead, limits: VideoLimits = .standard
    ) async throws(StreamedVideoError) -> StreamedFirstFrame {
        let requestsBefore = fetcher.requests
        let bytesBefore = fetcher.fetchedBytes
        for round in 1...max(1, maxRounds) {
            let reader = mediaBox.reader(resource.id)
            let source = VideoBytes(count: Int(size)) { offset, buffer in reader.read(at: Int64(offset), into: buffer) }
            switch await decode(source, limits: limits) {
            case .success(let frame):
                return StreamedFirstFrame(
                    frame: frame, rounds: round, requests: fetcher.requests - requestsBefore,
                    fetchedBytes: fetcher.fetchedBytes - bytesBefore,
                    storedBytes: mediaBox.reader(resource.id).ranges.count)
            case .failure(.needsBytes(let range)):
                do {
                    let upper = min(size, Int64(range.upperBound) + max(0, readAhead))
                    _ = try await fetcher.fetchRange(resource, size: size, range: Int64(range.lowerBound)..<upper)
                } catch { throw .fetch(error) }
            case .failure(let error):
                throw .video(error)
            }
        }
        throw .tooManyRounds(maxRounds)
    }

    /// One decode of the first frame on a global queue.
    static func decode(_ source: VideoBytes, limits: VideoLimits) async -> Result<VideoFrame, VideoError> {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(
                    returning: Result { () throws(VideoError) in try VideoDecoder.firstFrame(source, limits: limits) })
            }
        }
    }
}
