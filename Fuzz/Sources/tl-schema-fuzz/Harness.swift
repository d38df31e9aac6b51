import TLSchema

/// libFuzzer entry point: any bytes, read as UTF-8 schema text, must parse or fail with `TLSchemaError`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSchema(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let schema = try? TLSchema(parsing: text) {
        for combinator in schema.constructors + schema.functions { _ = combinator.inferredId }
    }
    return 0
}
