public import Foundation
public import MTProtoServer
import TLRuntime
import TelegramApi

/// The server's application layer: routes each API call to the service that owns its namespace. Methods no
/// service implements get `rpc_error` 400 `METHOD_NOT_IMPLEMENTED`; the next issues add services. Methods of a
/// signed-in user answer 401 `AUTH_KEY_UNREGISTERED` until accounts exist.
public struct ServerAPIHandler: RPCHandler {
    public let help: HelpService
    private let clock: @Sendable () -> Double

    public init(dataCenters: [MTProtoServer.DataCenter], clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        help = HelpService(dataCenters: dataCenters)
        self.clock = clock
    }

    public func handle(_ call: RPCCall) async -> RPCResponse {
        switch call.function {
        case is Api.functions.help.getConfig:
            return .result(help.config(thisDc: call.dcId, now: clock()).serialized())
        case is Api.functions.help.getNearestDc:
            return .result(help.nearestDc(thisDc: call.dcId).serialized())
        case is Api.functions.users.getUsers, is Api.functions.updates.getState:
            // Methods of a signed-in user: nobody can sign in yet, so every key is unregistered (what clients
            // such as Telethon expect from `get_me()` before login).
            return .error(code: 401, message: "AUTH_KEY_UNREGISTERED")
        default:
            return .notImplemented
        }
    }
}
