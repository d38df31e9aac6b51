import MTProtoApi
import TLRuntime
import TelegramApi

/// libFuzzer entry point: the first byte picks a decoder, the rest is wire input. Every decoder must return a value
/// or throw `TLDecodingError`; a parsed value must serialize again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecoders(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let selector = data[0]
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    var reader = TLReader(bytes, limits: .init(maxDepth: 64, maxUnpackedSize: 1 << 20))
    switch selector % 5 {
    case 0: _ = try? Api.parseObject(&reader).serialized()
    case 1: _ = try? Api.functions.parse(&reader).serialized()
    case 2: _ = try? MTProto.parseObject(&reader).serialized()
    case 3: _ = try? Api.functions.messages.getHistory.parseResult(&reader).serialized()
    default:
        _ = try? reader.readString()
        _ = try? reader.readVector(TLParse.int64)
        _ = try? reader.readBytes()
    }
    return 0
}
