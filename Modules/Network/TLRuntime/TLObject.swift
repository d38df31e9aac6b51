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
    /// The object's wire bytes.
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
    /// The call's wire bytes.
    @inlinable
    public func serialized() -> [UInt8] {
        var writer = TLWriter()
        serialize(&writer)
        return writer.takeBytes()
    }
}
