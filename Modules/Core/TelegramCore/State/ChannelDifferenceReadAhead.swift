public import AccountNetworking
import SwiftSignalKit
public import TLRuntime
public import TelegramApi

/// `updates.getChannelDifference` one slice ahead (core.telegram.org "Working with updates": a client asks a channel's
/// difference from its pts, 100 updates a call, until `final`). Each slice's pts is the next call's, so a catch-up is
/// one call at a time, and between the answer's arrival and the next call lie the answer's decoding and the state
/// manager's handling of it. The answer's first bytes already hold what the next call needs: its constructor, its
/// `final` flag and its `pts`. So as soon as an answer's bytes are in, before they are decoded, the next slice is
/// asked for and kept; when the manager then asks for exactly that slice it takes the call already under way.
///
/// At most one slice ahead per channel: only a slice the manager asked for starts one, never a slice read ahead. A
/// kept slice the manager does not ask for (it asked from another pts) is dropped and its call cancelled. The calls
/// are the ones the manager would make — same channel, filter, limit and pts — only earlier.
public final class ChannelDifferenceReadAhead: @unchecked Sendable {
    /// An answer's bytes, not decoded yet.
    struct AnswerBytes: Sendable {
        let storage: [UInt8]
        let range: Range<Int>
    }

    /// `updates.getChannelDifference`, its answer kept as bytes (the same call on the wire).
    struct RawCall: TLFunction {
        typealias Result = AnswerBytes
        let call: Api.functions.updates.getChannelDifference

        var functionName: String { call.functionName }
        func serialize(_ writer: inout TLWriter) { call.serialize(&writer) }
        static func parseResult(_ reader: inout TLReader) throws(TLDecodingError) -> AnswerBytes {
            defer { reader.offset = reader.end }
            return AnswerBytes(storage: reader.bytes, range: reader.offset..<reader.end)
        }
    }

    private struct Ahead {
        let pts: Int32
        let task: Task<AnswerBytes, any Error>
    }

    private let network: any AccountNetworking
    private let limit: Int32
    private let ahead = LockedValue<[Int64: Ahead]>([:])
    private let statisticsValue = LockedValue(Statistics())

    /// How often a slice asked for was already under way.
    public struct Statistics: Sendable, Equatable {
        /// Slices the manager asked for.
        public var asked = 0
        /// Of those, slices taken from a call made ahead.
        public var takenAhead = 0
        /// Calls made ahead that the manager did not ask for (dropped).
        public var dropped = 0
    }

    /// Reads ahead on `network`, `limit` updates a call (Telegram-iOS asks 100 for an ordinary account).
    public init(network: any AccountNetworking, limit: Int32 = 100) {
        self.network = network
        self.limit = limit
    }

    public var statistics: Statistics { statisticsValue.withLock { $0 } }

    /// Channel `channel`'s difference from `pts`: the call made ahead for it if there is one, else a new call; once
    /// its bytes are in, the next slice (if the answer is a `channelDifference` that is not `final`) is asked for.
    public func difference(
        _ channel: Api.InputChannel, pts: Int32
    ) async throws -> Api.updates.ChannelDifference {
        let channelId = Self.channelId(channel)
        let kept = ahead.withLock { ahead -> Ahead? in ahead.removeValue(forKey: channelId) }
        statisticsValue.withLock {
            $0.asked += 1
            if kept?.pts == pts { $0.takenAhead += 1 } else if kept != nil { $0.dropped += 1 }
        }
        let bytes: AnswerBytes
        if let kept, kept.pts == pts {
            bytes = try await kept.task.value
        } else {
            kept?.task.cancel()
            bytes = try await call(channel, pts: pts)
        }
        if let next = Self.nextPts(bytes), next > pts {
            let task = Task { [self] in try await call(channel, pts: next) }
            let replaced = ahead.withLock { ahead in ahead.updateValue(Ahead(pts: next, task: task), forKey: channelId)
            }
            replaced?.task.cancel()
        }
        var reader = TLReader(bytes.storage, range: bytes.range)
        do {
            return try Api.updates.ChannelDifference.parse(&reader)
        } catch {
            throw NetworkError.malformedResult("updates.getChannelDifference: \(error)")
        }
    }

    deinit {
        for entry in ahead.withLock({ Array($0.values) }) { entry.task.cancel() }
    }

    private func call(_ channel: Api.InputChannel, pts: Int32) async throws -> AnswerBytes {
        try await network.request(
            RawCall(
                call: .init(
                    force: false, channel: channel, filter: .channelMessagesFilterEmpty, pts: pts, limit: limit)))
    }

    /// The pts the next slice starts from, read from the answer's first bytes: `updates.channelDifference#2064674e
    /// flags:# final:flags.0?true pts:int …` that is not `final`. Nil for anything else (empty, too long, final).
    static func nextPts(_ bytes: AnswerBytes) -> Int32? {
        guard bytes.range.count >= 12 else { return nil }
        let start = bytes.range.lowerBound
        func word(_ at: Int) -> UInt32 {
            (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes.storage[start + at + $1]) << (8 * UInt32($1)) }
        }
        guard word(0) == 0x2064_674e, word(4) & 1 == 0 else { return nil }
        return Int32(bitPattern: word(8))
    }

    private static func channelId(_ channel: Api.InputChannel) -> Int64 {
        switch channel {
        case .inputChannel(let input): input.channelId
        case .inputChannelFromMessage(let input): input.channelId
        case .inputChannelEmpty: 0
        }
    }
}
