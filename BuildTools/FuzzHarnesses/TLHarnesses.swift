import MTProtoApi
import TLRuntime
import TLSchema
import TelegramApi

extension FuzzHarness {
    /// TL schema text → `TLSchema` (or a `TLSchemaError` with its line and column).
    public static let tlSchema = FuzzHarness(name: "tl-schema", summary: "TL schema text → TLSchema") { input in
        let text = String(decoding: input, as: UTF8.self)
        return .of {
            let schema = try TLSchema(parsing: text)
            for combinator in schema.constructors + schema.functions { _ = combinator.inferredId }
        }
    }

    /// Wire bytes → `Api.parseObject`, `Api.functions.parse`, `MTProto.parseObject`, a function's result, raw
    /// reader calls; the first byte picks which. Whatever parses must serialize again.
    public static let tlDecoder = FuzzHarness(
        name: "tl-decoder", summary: "wire bytes → Api / MTProto objects, functions and results"
    ) { input in
        guard let selector = input.first else { return .rejected }
        var reader = TLReader(Array(input.dropFirst()), limits: .init(maxDepth: 64, maxUnpackedSize: 1 << 20))
        return .of {
            switch selector % 5 {
            case 0: _ = try Api.parseObject(&reader).serialized()
            case 1: _ = try Api.functions.parse(&reader).serialized()
            case 2: _ = try MTProto.parseObject(&reader).serialized()
            case 3: _ = try Api.functions.messages.getHistory.parseResult(&reader).serialized()
            default:
                _ = try reader.readString()
                _ = try reader.readVector(TLParse.int64)
                _ = try reader.readBytes()
            }
        }
    }
}
