public import Foundation
import Logging
public import MTProtoServer
import ServerStore
import TLRuntime
import TelegramApi

/// The server's application layer: routes each API call to the service that owns it. Without a backend (the
/// transport tests and benchmarks) only `help.*` is served and every method of a signed-in user answers 401
/// `AUTH_KEY_UNREGISTERED`; with one, accounts, messages and updates are served. Methods nothing serves answer
/// 400 `METHOD_NOT_IMPLEMENTED`.
public struct ServerAPIHandler: RPCHandler {
    public let help: HelpService
    public let backend: ServerBackend?
    private let clock: @Sendable () -> Double

    /// A handler that serves `help.*` only.
    public init(
        dataCenters: [MTProtoServer.DataCenter],
        clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        help = HelpService(dataCenters: dataCenters)
        backend = nil
        self.clock = clock
    }

    /// A handler that serves everything `backend` does.
    public init(backend: ServerBackend) {
        help = HelpService(dataCenters: backend.dataCenters)
        self.backend = backend
        clock = backend.clock
    }

    public func handle(_ call: RPCCall) -> RPCResponse {
        do {
            return .result(try route(call))
        } catch let error as APIError {
            return .error(code: error.code, message: error.message)
        } catch {
            backend?.logger.error(
                "call failed", metadata: ["method": "\(call.function.functionName)", "error": "\(error)"])
            return .error(code: 500, message: "INTERNAL")
        }
    }

    private func route(_ call: RPCCall) throws -> [UInt8] {
        try backend?.flood.checkTestFlood(method: call.function.functionName, authKeyId: call.authKeyId, now: clock())
        switch call.function {
        case is Api.functions.help.getConfig:
            return help.config(thisDc: call.dcId, now: clock()).serialized()
        case is Api.functions.help.getNearestDc:
            return help.nearestDc(thisDc: call.dcId).serialized()
        default:
            break
        }
        guard let backend else {
            if call.function is Api.functions.users.getUsers || call.function is Api.functions.updates.getState {
                throw APIError.authKeyUnregistered
            }
            throw APIError.badRequest("METHOD_NOT_IMPLEMENTED")
        }
        if let answer = try backend.routeSignedOut(call) { return answer }
        let signedIn = { () throws -> Caller in
            guard let account = try backend.account(authKeyId: call.authKeyId) else {
                throw APIError.authKeyUnregistered
            }
            // An account is served by its own DC; a key signed in elsewhere (by importAuthorization) may only move files.
            if account.homeDc != call.dcId && !ServerBackend.isFileMethod(call.function) {
                throw APIError.migrate("USER", to: account.homeDc)
            }
            return Caller(
                authKeyId: call.authKeyId, sessionId: call.sessionId, dc: call.dcId, userId: account.userId,
                withoutUpdates: call.withoutUpdates)
        }
        if let answer = try backend.routeSignedIn(call.function, signedIn: signedIn) {
            if ServerBackend.isActivity(call.function.functionName) {
                try backend.noteActivity(authKeyId: call.authKeyId)
            }
            return answer
        }
        throw APIError.badRequest("METHOD_NOT_IMPLEMENTED")
    }
}
