public import TLRuntime

/// The bytes of one answer: a range of a received packet's plaintext, handed on without copying it out (the packet's
/// buffer lives as long as any of its answers). A result in a container of 64 answers costs no allocation of its own.
public struct AnswerBytes: Sendable, Equatable {
    /// The buffer the answer lies in.
    public let storage: [UInt8]
    /// Where in `storage`.
    public let range: Range<Int>

    /// An answer that is the whole of `bytes`.
    public init(_ bytes: [UInt8]) {
        storage = bytes
        range = 0..<bytes.count
    }

    /// The answer at `range` of `storage`.
    public init(_ storage: [UInt8], range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= storage.count, "answer outside its buffer")
        self.storage = storage
        self.range = range
    }

    /// The answer's bytes (a copy unless the answer is the whole buffer).
    public var bytes: [UInt8] { range == storage.indices ? storage : Array(storage[range]) }

    /// The constructor id the answer starts with, if it has four bytes.
    public var constructorId: UInt32? {
        ServiceCodec.constructorId(in: storage, at: range.lowerBound, end: range.upperBound)
    }

    /// A reader over the answer: a top-level message of its own.
    public func reader(limits: TLReader.Limits = TLReader.Limits()) -> TLReader {
        TLReader(storage, range: range, limits: limits)
    }

    public static func == (lhs: AnswerBytes, rhs: AnswerBytes) -> Bool {
        lhs.storage[lhs.range].elementsEqual(rhs.storage[rhs.range])
    }
}
