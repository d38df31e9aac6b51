extension TLReader {
    /// Reads a vector whose elements `element` parses: the `vector#1cb5c415` id when `boxed`, the count (checked
    /// against the bytes left at `minElementSize` each), then the elements.
    @inlinable
    public mutating func readVector<T>(
        boxed: Bool = true, minElementSize: Int = 4, _ element: (inout TLReader) throws(TLDecodingError) -> T
    ) throws(TLDecodingError) -> [T] {
        let count = try readVectorCount(boxed: boxed, minElementSize: minElementSize)
        var result: [T] = []
        result.reserveCapacity(count)
        for _ in 0..<count { result.append(try element(&self)) }
        return result
    }
}

/// Element parsers for vectors of built-in types, as plain functions that `TLReader.readVector` can take.
public enum TLParse {
    @inlinable public static func int32(_ r: inout TLReader) throws(TLDecodingError) -> Int32 { try r.readInt32() }
    @inlinable public static func int64(_ r: inout TLReader) throws(TLDecodingError) -> Int64 { try r.readInt64() }
    @inlinable public static func double(_ r: inout TLReader) throws(TLDecodingError) -> Double { try r.readDouble() }
    @inlinable public static func string(_ r: inout TLReader) throws(TLDecodingError) -> String { try r.readString() }
    @inlinable public static func bytes(_ r: inout TLReader) throws(TLDecodingError) -> [UInt8] { try r.readBytes() }
    @inlinable public static func bool(_ r: inout TLReader) throws(TLDecodingError) -> Bool { try r.readBool() }
    @inlinable public static func int128(_ r: inout TLReader) throws(TLDecodingError) -> TLInt128 {
        try r.readInt128()
    }
    @inlinable public static func int256(_ r: inout TLReader) throws(TLDecodingError) -> TLInt256 {
        try r.readInt256()
    }
}

/// A function value of unknown type, as a server reads it from the wire (the query inside `invokeWithLayer` and
/// the other generic wrappers). Its result cannot be parsed statically: `parseResult` returns the raw bytes left.
public struct AnyTLFunction: TLFunction {
    /// The parsed call.
    public let base: any TLFunction

    public init(_ base: any TLFunction) {
        self.base = base
    }

    public var functionName: String { base.functionName }

    public func serialize(_ writer: inout TLWriter) {
        base.serialize(&writer)
    }

    /// The unparsed bytes of the result.
    public static func parseResult(_ reader: inout TLReader) throws(TLDecodingError) -> [UInt8] {
        let rest = Array(reader.bytes[reader.offset..<reader.end])
        reader.offset = reader.end
        return rest
    }
}
