/// A boxed TL value: a type whose constructors serialize their id and fields (TL §Boxed types).
public protocol TLObject: Sendable {
    /// Appends the constructor id and the fields.
    func serialize(_ writer: inout TLWriter)
    /// Reads a constructor id and the fields of that constructor.
    static func parse(_ reader: inout TLReader) throws(TLDecodingError) -> Self
}

/// A TL function: a value that serializes itself as an RPC call and knows how to parse its result.
public protocol TLFunction: Sendable {
    /// The result type (`Api.messages.Messages`, `Bool`, `[Int64]`, ...).
    associatedtype Result: Sendable
    /// The function's name as the schema writes it (`messages.getHistory`).
    var functionName: String { get }
    /// Appends the function's constructor id and arguments.
    func serialize(_ writer: inout TLWriter)
    /// Parses the result of this call from an `rpc_result`'s body.
    static func parseResult(_ reader: inout TLReader) throws(TLDecodingError) -> Result
}

extension TLObject {
    /// The object's wire bytes, or the error for a value TL cannot encode (see `TLWriter.failure`). Use this where
    /// a value comes from outside the program (a file to upload, a user's text).
    @inlinable
    public func encoded() throws(TLEncodingError) -> [UInt8] {
        // `serialize` is called directly: passed on as a closure, the method reference would cost a heap context.
        var writer = TLWriter()
        serialize(&writer)
        return try writer.encodedBytes()
    }

    /// The object's wire bytes, for values known to be encodable (a value TL cannot encode is written empty:
    /// `encoded()` reports it instead).
    @inlinable
    public func serialized() -> [UInt8] {
        var writer = TLWriter()
        serialize(&writer)
        return writer.takeBytes()
    }

    /// Parses a whole buffer as one object; bytes left over are an error.
    @inlinable
    public init(tlBytes bytes: [UInt8], limits: TLReader.Limits = TLReader.Limits()) throws(TLDecodingError) {
        var reader = TLReader(bytes, limits: limits)
        self = try Self.parse(&reader)
        guard reader.isAtEnd else { throw .invalidLength(offset: reader.offset, claimed: reader.remaining) }
    }
}

extension TLFunction {
    /// The call's wire bytes, or the error for an argument TL cannot encode (see `TLWriter.failure`). Starts from a
    /// 64-byte buffer: most calls are a few words (a larger one grows it), and each queued call keeps its buffer.
    @inlinable
    public func encoded() throws(TLEncodingError) -> [UInt8] {
        // `serialize` is called directly: passed on as a closure, the method reference would cost a heap context.
        var writer = TLWriter(capacity: 64)
        serialize(&writer)
        return try writer.encodedBytes()
    }

    /// The call's wire bytes, for arguments known to be encodable (`encoded()` reports one that is not).
    @inlinable
    public func serialized() -> [UInt8] {
        var writer = TLWriter()
        serialize(&writer)
        return writer.takeBytes()
    }
}

extension TLWriter {
    /// The bytes written, or the first `TLEncodingError` recorded while writing them.
    @inlinable
    public mutating func encodedBytes() throws(TLEncodingError) -> [UInt8] {
        if let failure { throw failure }
        return takeBytes()
    }
}

/// A value TL cannot encode (TL §Serialization).
public enum TLEncodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A `bytes` or `string` longer than the 3-byte length prefix can say (16 MiB − 1).
    case bytesTooLong(length: Int)
    /// A vector with more elements than an `int` count can say.
    case vectorTooLong(count: Int)

    public var description: String {
        switch self {
        case .bytesTooLong(let length):
            return
                "a bytes value of \(length) bytes is longer than TL's \(TLWriter.maximumBytesLength); split it (upload files in parts)"
        case .vectorTooLong(let count): return "a vector of \(count) elements is longer than TL's int count"
        }
    }
}
