public import TLRuntime

/// The wrappers a client puts around an API call (core.telegram.org "Invoking API methods"): `invokeWithLayer`,
/// `initConnection`, `invokeWithoutUpdates`, `invokeAfterMsg` and `invokeAfterMsgs`. The server peels them off to
/// reach the innermost query; the layer is remembered by the session.
///
/// `initConnection`'s optional `proxy` (inputClientProxy) and `params` (JSONValue) are skipped structurally, so
/// this needs no part of the generated API; JSON values nest at most `maximumJSONDepth` deep.
public enum QueryWrappers {
    /// What unwrapping found.
    public struct Unwrapped: Sendable, Equatable {
        /// The innermost query (its constructor id first).
        public let query: [UInt8]
        /// The layer an `invokeWithLayer` named, if one was present.
        public let layer: Int32?
        /// Whether an `invokeWithoutUpdates` asked for no updates on this connection.
        public let withoutUpdates: Bool
        /// The msg_ids an `invokeAfterMsg(s)` named.
        public let afterMessages: [Int64]
    }

    public static let invokeWithLayer: UInt32 = 0xda9b_0d0d
    public static let initConnection: UInt32 = 0xc1cd_5ea9
    public static let invokeWithoutUpdates: UInt32 = 0xbf94_59b7
    public static let invokeAfterMsg: UInt32 = 0xcb9f_372d
    public static let invokeAfterMsgs: UInt32 = 0x3dc4_b4f0
    static let inputClientProxy: UInt32 = 0x7558_8b3f
    /// JSON values inside initConnection's params may nest this deep.
    public static let maximumJSONDepth = 16

    /// Peels every wrapper off `body`. Fails on a wrapper that does not parse.
    public static func unwrap(_ body: [UInt8]) throws(TLDecodingError) -> Unwrapped {
        var reader = TLReader(body)
        var layer: Int32?
        var withoutUpdates = false
        var after: [Int64] = []
        while true {
            let start = reader.offset
            switch try reader.readUInt32() {
            case invokeWithLayer:
                layer = try reader.readInt32()
            case initConnection:
                // flags:# api_id:int device_model system_version app_version system_lang_code lang_pack lang_code
                // proxy:flags.0?InputClientProxy params:flags.1?JSONValue query:!X
                let flags = try reader.readUInt32()
                _ = try reader.readInt32()
                for _ in 0..<6 { _ = try reader.readBytes() }
                if flags & 1 != 0 {
                    let id = try reader.readUInt32()
                    guard id == inputClientProxy else { throw reader.unknownConstructor(id) }
                    _ = try reader.readBytes()
                    _ = try reader.readInt32()
                }
                if flags & 2 != 0 { try skipJSONValue(&reader, depth: 0) }
            case invokeWithoutUpdates:
                withoutUpdates = true
            case invokeAfterMsg:
                after.append(try reader.readInt64())
            case invokeAfterMsgs:
                let count = try reader.readVectorCount(boxed: true, minElementSize: 8)
                for _ in 0..<count { after.append(try reader.readInt64()) }
            default:
                return Unwrapped(
                    query: Array(body[start...]), layer: layer, withoutUpdates: withoutUpdates, afterMessages: after)
            }
        }
    }

    /// Skips one JSONValue: jsonNull, jsonBool, jsonNumber, jsonString, jsonArray, jsonObject (api.tl).
    static func skipJSONValue(_ reader: inout TLReader, depth: Int) throws(TLDecodingError) {
        guard depth < maximumJSONDepth else { throw .nestingTooDeep(limit: maximumJSONDepth) }
        let id = try reader.readUInt32()
        switch id {
        case 0x3f6d_7b68:  // jsonNull
            break
        case 0xc7345e6a:  // jsonBool value:Bool
            _ = try reader.readBool()
        case 0x2be0_dfa4:  // jsonNumber value:double
            _ = try reader.readDouble()
        case 0xb71e_767a:  // jsonString value:string
            _ = try reader.readBytes()
        case 0xf7444763:  // jsonArray value:Vector<JSONValue>
            let count = try reader.readVectorCount(boxed: true, minElementSize: 4)
            for _ in 0..<count { try skipJSONValue(&reader, depth: depth + 1) }
        case 0x99c1_d49d:  // jsonObject value:Vector<JSONObjectValue>
            let count = try reader.readVectorCount(boxed: true, minElementSize: 8)
            for _ in 0..<count {
                let member = try reader.readUInt32()  // jsonObjectValue key:string value:JSONValue
                guard member == 0xc0de_1bd9 else { throw reader.unknownConstructor(member) }
                _ = try reader.readBytes()
                try skipJSONValue(&reader, depth: depth + 1)
            }
        default:
            throw reader.unknownConstructor(id)
        }
    }
}
