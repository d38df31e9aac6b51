import CryptoUtils
public import Foundation
import MTProtoCore
import SecretFiles
import TLRuntime
import TelegramApi

#if canImport(Glibc)
    import Glibc
#endif

/// `tg-server --trace DIR`: every session's API calls, their answers and the server's pushes, decoded from TL into
/// one JSON object a line, one file a session (`DIR/<auth_key_id>-<session_id>.jsonl`, both as 16 hex digits), for
/// people testing their own clients — what no Telegram server shows them.
///
/// A line (keys in this order):
/// `{"time":"…Z","type":"call"|"answer"|"push"|"service","dc":2,"session":"<hex>","msg_id":…,"seq_no":…, …}`:
/// a call adds `"method"` and `"object"` (the function and its arguments); an answer adds `"req_msg_id"`, `"method"`
/// (of the call it answers) and `"object"`, or `"error":{"code":…,"message":…}`; a push adds `"object"` (the
/// `Updates`); other messages the server sends (acknowledgements, pongs, `new_session_created`, …) are `"service"`
/// lines with their `"constructor"` id. An object is `{"_":"<constructor or method>", "<field>":…}` with the Swift
/// field names of the generated types (`TelegramApi`).
///
/// Redaction: a `bytes` field is shortened to its first 16 bytes as hex and its length (`"0a1b…(256 bytes)"`), so no
/// key can be read back; fields that carry secrets are replaced by `"<redacted>"` whatever their type — login codes
/// and their hashes (`phoneCode`, `phoneCodeHash`), passwords and SRP values (`password`, `srp…`, `newSettings`),
/// secrets (`secret`: `account.registerDevice`'s), key material (`encryptedMessage` of `auth.bindTempAuthKey`,
/// `nonce`s, `gA`/`gB`/`gAOrB`), and file parts' `bytes`.
///
/// Bounds: the folder is created 0700 and each file 0600 (`O_NOFOLLOW`); a file stops growing at
/// `Limits.bytesPerFile`, all files together at `Limits.totalBytes` (what is already in the folder from earlier runs
/// counts toward a file's cap when it is first opened), and at most `Limits.files` sessions are traced in one run. The line that would pass a cap is replaced, once per
/// file, by `{"type":"truncated",…}`; everything after it is dropped.
///
/// `@unchecked Sendable`: the byte counts are read and written under `lock`; each line is one `write(2)` with
/// `O_APPEND`.
public final class ServerTrace: @unchecked Sendable {
    /// How much the trace may write.
    public struct Limits: Sendable, Equatable {
        /// Bytes one session's file may reach.
        public var bytesPerFile: Int
        /// Bytes all files together may reach in one run of the server.
        public var totalBytes: Int
        /// Files (sessions) one run may write; sessions after them are not traced.
        public var files: Int

        public init(bytesPerFile: Int = 16 << 20, totalBytes: Int = 1 << 30, files: Int = 10_000) {
            self.bytesPerFile = bytesPerFile
            self.totalBytes = totalBytes
            self.files = files
        }
    }

    public let directory: URL
    public let limits: Limits
    private let lock = NSLock()
    private var sizes: [String: Int] = [:]
    private var truncated: Set<String> = []
    private var total = 0

    /// Creates (0700) or opens the folder.
    public init(directory: URL, limits: Limits = Limits()) throws {
        try SecretFile.createDirectory(directory.path)
        self.directory = directory
        self.limits = limits
    }

    /// The file name of one session's trace.
    public static func fileName(authKeyId: Int64, sessionId: Int64) -> String {
        "\(hex64(authKeyId))-\(hex64(sessionId)).jsonl"
    }

    static func hex64(_ value: Int64) -> String {
        let digits = String(UInt64(bitPattern: value), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    // MARK: - What the connection handler records

    /// An API call the session received.
    func call(
        dcId: Int32, authKeyId: Int64, sessionId: Int64, messageId: Int64, seqNo: Int32?, function: any TLFunction
    ) {
        var fields: [(String, JSON)] = header(
            "call", dcId: dcId, sessionId: sessionId, messageId: messageId, seqNo: seqNo)
        fields.append(("method", .string(function.functionName)))
        fields.append(("object", TraceEncoder.encode(function, name: function.functionName)))
        append(.object(fields), authKeyId: authKeyId, sessionId: sessionId)
    }

    /// The messages of one packet the server sealed for the session, decrypted again with `key` (only when tracing):
    /// answers are decoded with `pending` (request msg_id → the call's function), pushes as `Updates`.
    func sent(
        _ packet: [UInt8], key: AuthKey, dcId: Int32, pending: (Int64) -> (any TLFunction)?
    ) {
        guard let message = try? EncryptedMessage.decrypt(packet, authKey: key, direction: .serverToClient) else {
            return
        }
        for (messageId, seqNo, body) in Self.messages(
            messageId: message.messageId, seqNo: message.seqNo, body: message.body)
        {
            append(
                describeSent(
                    body, messageId: messageId, seqNo: seqNo, dcId: dcId, sessionId: message.sessionId, pending: pending
                ),
                authKeyId: key.id, sessionId: message.sessionId)
        }
    }

    private func describeSent(
        _ body: [UInt8], messageId: Int64, seqNo: Int32, dcId: Int32, sessionId: Int64,
        pending: (Int64) -> (any TLFunction)?
    ) -> JSON {
        let constructor = ServiceCodec.constructorId(of: body) ?? 0
        if constructor == ServiceCodec.rpcResultId, let (requestId, result) = try? ServiceCodec.parseRpcResult(body) {
            var fields = header("answer", dcId: dcId, sessionId: sessionId, messageId: messageId, seqNo: seqNo)
            fields.append(("req_msg_id", .int(requestId)))
            let function = pending(requestId)
            if let function { fields.append(("method", .string(function.functionName))) }
            if ServiceCodec.constructorId(of: result) == Self.rpcErrorId {
                var reader = TLReader(Array(result.dropFirst(4)))
                let code = (try? reader.readInt32()) ?? 0
                let text = (try? reader.readString()) ?? ""
                fields.append(("error", .object([("code", .int(Int64(code))), ("message", .string(text))])))
            } else if let function, let decoded = Self.decodeResult(of: function, result) {
                fields.append(("object", decoded))
            } else {
                fields.append(("object", .object([("constructor", .string(Self.hex32(result)))])))
            }
            return .object(fields)
        }
        if var reader = Optional(TLReader(body)), let updates = try? Api.Updates.parse(&reader) {
            var fields = header("push", dcId: dcId, sessionId: sessionId, messageId: messageId, seqNo: seqNo)
            fields.append(("object", TraceEncoder.encode(updates)))
            return .object(fields)
        }
        var fields = header("service", dcId: dcId, sessionId: sessionId, messageId: messageId, seqNo: seqNo)
        fields.append(("constructor", .string(Self.hex32(body))))
        return .object(fields)
    }

    private static let rpcErrorId: UInt32 = 0x2144_ca19

    private static func hex32(_ body: [UInt8]) -> String {
        ServiceCodec.constructorId(of: body).map { String($0, radix: 16) } ?? ""
    }

    /// The messages in a decrypted message: itself, or a container's children.
    static func messages(messageId: Int64, seqNo: Int32, body: [UInt8]) -> [(Int64, Int32, [UInt8])] {
        guard ServiceCodec.constructorId(of: body) == ServiceCodec.containerId else {
            return [(messageId, seqNo, body)]
        }
        return ((try? ServiceCodec.parseContainer(body)) ?? []).map { ($0.messageId, $0.seqNo, $0.body) }
    }

    private static func decodeResult(of function: any TLFunction, _ bytes: [UInt8]) -> JSON? {
        func decode<F: TLFunction>(_ function: F) -> JSON? {
            var reader = TLReader(bytes)
            guard let result = try? F.parseResult(&reader) else { return nil }
            return TraceEncoder.encode(result)
        }
        return decode(function)
    }

    private func header(
        _ type: String, dcId: Int32, sessionId: Int64, messageId: Int64, seqNo: Int32?
    ) -> [(String, JSON)] {
        var fields: [(String, JSON)] = [
            ("time", .string(Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(Date()))),
            ("type", .string(type)), ("dc", .int(Int64(dcId))), ("session", .string(Self.hex64(sessionId))),
            ("msg_id", .int(messageId)),
        ]
        if let seqNo { fields.append(("seq_no", .int(Int64(seqNo)))) }
        return fields
    }

    // MARK: - Files

    private func append(_ line: JSON, authKeyId: Int64, sessionId: Int64) {
        let name = Self.fileName(authKeyId: authKeyId, sessionId: sessionId)
        var text = line.serialized()
        text.append("\n")
        let bytes = Array(text.utf8)
        lock.lock()
        defer { lock.unlock() }
        guard !truncated.contains(name), sizes[name] != nil || sizes.count < limits.files else { return }
        let path = directory.appendingPathComponent(name).path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, mode_t(SecretFile.fileMode))
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        if sizes[name] == nil {
            var status = stat()
            sizes[name] = fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
        }
        let size = sizes[name] ?? 0
        var out = bytes
        if size + bytes.count > limits.bytesPerFile || total + bytes.count > limits.totalBytes {
            truncated.insert(name)
            let reason = size + bytes.count > limits.bytesPerFile ? "file" : "total"
            let note =
                JSON.object([
                    ("type", .string("truncated")), ("session", .string(Self.hex64(sessionId))),
                    ("limit", .string(reason)),
                    ("bytes_per_file", .int(Int64(limits.bytesPerFile))),
                    ("total_bytes", .int(Int64(limits.totalBytes))),
                ]).serialized() + "\n"
            out = Array(note.utf8)
        }
        let written = out.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if written > 0 {
            sizes[name] = size + written
            total += written
        }
    }
}

// MARK: - JSON

/// A JSON value with its object keys in order (a trace line reads type, session and ids first).
enum JSON: Sendable {
    case string(String), int(Int64), double(Double), bool(Bool), null
    case array([JSON])
    case object([(String, JSON)])

    func serialized() -> String {
        var out = ""
        write(into: &out)
        return out
    }

    func write(into out: inout String) {
        switch self {
        case .string(let text): Self.quote(text, into: &out)
        case .int(let value): out += String(value)
        case .double(let value): out += value.isFinite ? "\(value)" : "null"
        case .bool(let value): out += value ? "true" : "false"
        case .null: out += "null"
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(into: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (index, (key, value)) in fields.enumerated() {
                if index > 0 { out += "," }
                Self.quote(key, into: &out)
                out += ":"
                value.write(into: &out)
            }
            out += "}"
        }
    }

    static func quote(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let digits = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

/// Turns a decoded TL value (the generated types' enums, constructor classes and functions) into JSON through
/// reflection, shortening bytes and redacting secrets as `ServerTrace` describes.
enum TraceEncoder {
    /// Bytes shown of a `bytes` field.
    static let shownBytes = 16
    /// Characters shown of a string (a message's text is at most 4,096; a longer string is cut).
    static let shownCharacters = 4096
    /// Nesting followed (deeper values are `"…"`).
    static let maximumDepth = 24

    /// Field names (lowercased, compared whole or as a prefix as noted) whose values never appear.
    static func isSecret(_ label: String) -> Bool {
        let name = label.lowercased()
        let whole: Set<String> = [
            "phonecode", "phonecodehash", "password", "currentpassword", "newpassword", "newsettings", "secret",
            "securesecret", "encryptedmessage", "nonce", "servernonce", "newnonce", "ga", "gb", "gaorb", "code",
            "emailcode", "authkey", "key", "bytes", "passwordhash", "newpasswordhash", "currentpasswordhash",
        ]
        return whole.contains(name) || name.hasPrefix("srp") || name.hasSuffix("password") || name.hasSuffix("secret")
    }

    static func encode(_ value: Any, name: String? = nil) -> JSON {
        var result = encode(value, depth: 0)
        if let name, case .object(var fields) = result {
            if let index = fields.firstIndex(where: { $0.0 == "_" }) { fields.remove(at: index) }
            fields.insert(("_", .string(name)), at: 0)
            result = .object(fields)
        }
        return result
    }

    static func shorten(_ bytes: [UInt8]) -> String {
        let shown = bytes.prefix(shownBytes).map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
        return bytes.count > shownBytes ? "\(shown)…(\(bytes.count) bytes)" : "\(shown)(\(bytes.count) bytes)"
    }

    private static func encode(_ value: Any, depth: Int) -> JSON {
        guard depth < maximumDepth else { return .string("…") }
        switch value {
        case let bytes as [UInt8]: return .string(shorten(bytes))
        case let text as String:
            return .string(text.count > shownCharacters ? String(text.prefix(shownCharacters)) + "…" : text)
        case let flag as Bool: return .bool(flag)
        case let number as Int32: return .int(Int64(number))
        case let number as Int64: return .int(number)
        case let number as Int: return .int(Int64(number))
        case let number as UInt32: return .int(Int64(number))
        case let number as Double: return .double(number)
        default: break
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first else { return .null }
            return encode(wrapped.value, depth: depth)
        case .collection, .set:
            return .array(mirror.children.prefix(1000).map { encode($0.value, depth: depth + 1) })
        case .enum:
            // A boxed type's constructor: the case's name, its fields from the payload (a `Cons_` class).
            guard let payload = mirror.children.first else {
                return .object([("_", .string(String(describing: value)))])
            }
            let name = payload.label ?? String(describing: value)
            var fields: [(String, JSON)] = [("_", .string(name))]
            if case .object(let inner) = encode(payload.value, depth: depth + 1) {
                fields += inner.filter { $0.0 != "_" }
            } else {
                fields.append(("value", encode(payload.value, depth: depth + 1)))
            }
            return .object(fields)
        case .class, .struct:
            var fields: [(String, JSON)] = []
            var current: Mirror? = mirror
            while let level = current {
                for child in level.children {
                    guard let label = child.label else { continue }
                    if isSecret(label) {
                        if case .optional = Mirror(reflecting: child.value).displayStyle,
                            Mirror(reflecting: child.value).children.isEmpty
                        {
                            continue
                        }
                        fields.append((label, .string("<redacted>")))
                        continue
                    }
                    let encoded = encode(child.value, depth: depth + 1)
                    if case .null = encoded { continue }
                    fields.append((label, encoded))
                }
                current = level.superclassMirror
            }
            return .object(fields)
        case .tuple:
            return .array(mirror.children.map { encode($0.value, depth: depth + 1) })
        default:
            return .string(String(describing: value))
        }
    }
}
