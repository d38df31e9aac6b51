import Foundation
import MTProtoServer
import ServerAPI
import TLRuntime
import TelegramApi

extension FuzzHarness {
    /// An API call as tg-server's application layer receives it: the input's first byte picks the caller (a key that
    /// is not signed in, or one of two signed-up accounts; its top bit the DC, 2 or 1), the rest is parsed as an
    /// `Api.functions` call and handed to `ServerAPIHandler` over a real `ServerStore` in a temporary folder. Every
    /// call must come back as a result or an `rpc_error`, never a trap or a hang.
    public static let serverAPI = FuzzHarness(
        name: "server-api", summary: "API calls → ServerAPIHandler → ServerBackend over a real ServerStore"
    ) { input in
        guard let selector = input.first, let world = ServerAPIFuzzWorld.shared else { return .rejected }
        var reader = TLReader(Array(input.dropFirst()), limits: .init(maxDepth: 16, maxUnpackedSize: 1 << 20))
        guard let function = try? Api.functions.parse(&reader) else { return .rejected }
        let key = ServerAPIFuzzWorld.keys[Int(selector & 0x7f) % ServerAPIFuzzWorld.keys.count]
        let response = world.call(function, key: key, dc: selector & 0x80 != 0 ? 1 : 2)
        switch response {
        case .result(let bytes): return bytes.isEmpty ? .rejected : .accepted
        case .error: return .rejected
        }
    }
}

/// The server the `server-api` harness calls: a backend over a store in a temporary folder, on a fixed clock, with
/// two accounts signed up (keys 1 and 2; the second has the username `fuzz_ben`) and key 3 never signed in.
final class ServerAPIFuzzWorld: @unchecked Sendable {
    static let keys: [Int64] = [3, 1, 2]
    /// Built once per process; `nil` if the temporary folder or the store cannot be made.
    static let shared: ServerAPIFuzzWorld? = try? ServerAPIFuzzWorld()

    private let handler: ServerAPIHandler
    private let lock = NSLock()
    private var nextMessageId: Int64 = 1_800_000_000 << 32

    private init() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("server-api-fuzz-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        let bootstrap = try BackendBootstrap(.init(directory: folder, stickerSet: .required, clock: { 1_800_000_000 }))
        handler = try bootstrap.start(dataCenters: BackendBootstrap.dataCenters(basePort: 5001)).handler
        try signUp("9996620001", name: "Ann", key: 1)
        try signUp("9996620002", name: "Ben", key: 2)
        _ = call(Api.functions.account.updateUsername(username: "fuzz_ben"), key: 2, dc: 2)
    }

    func call(_ function: any TLFunction, key: Int64, dc: Int32) -> RPCResponse {
        let id = lock.withLock {
            nextMessageId += 4
            return nextMessageId
        }
        return handler.handle(
            RPCCall(requestMessageId: id, function: function, layer: 229, authKeyId: key, sessionId: key, dcId: dc))
    }

    private struct SetupFailed: Error {}

    private func signUp(_ phone: String, name: String, key: Int64) throws {
        guard
            case .result(let sentBytes) = call(
                Api.functions.auth.sendCode(
                    phoneNumber: phone, apiId: 1, apiHash: "", settings: .codeSettings(.init())), key: key, dc: 2),
            case .sentCode(let sent) = try Api.auth.SentCode(tlBytes: sentBytes)
        else { throw SetupFailed() }
        _ = call(
            Api.functions.auth.signIn(phoneNumber: phone, phoneCodeHash: sent.phoneCodeHash, phoneCode: "22222"),
            key: key, dc: 2)
        guard
            case .result = call(
                Api.functions.auth.signUp(
                    phoneNumber: phone, phoneCodeHash: sent.phoneCodeHash, firstName: name, lastName: ""), key: key,
                dc: 2)
        else { throw SetupFailed() }
    }
}
