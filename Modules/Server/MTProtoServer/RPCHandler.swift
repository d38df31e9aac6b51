public import TLRuntime

/// An API call that reached the server's application layer, with the MTProto wrappers (`invokeWithLayer`,
/// `initConnection`, `invokeWithoutUpdates`, `invokeAfterMsg(s)`) already unwrapped.
public struct RPCCall: Sendable {
    /// The msg_id of the request; the answer's `rpc_result` names it.
    public let requestMessageId: Int64
    /// The innermost query.
    public let function: any TLFunction
    /// The layer the client declared with `invokeWithLayer` on this session, if any.
    public let layer: Int32?
    public let authKeyId: Int64
    public let sessionId: Int64
    /// The data center that received the call.
    public let dcId: Int32
    /// The call was wrapped in `invokeWithoutUpdates`: its effects are not pushed back to this session.
    public let withoutUpdates: Bool

    public init(
        requestMessageId: Int64, function: any TLFunction, layer: Int32?, authKeyId: Int64, sessionId: Int64,
        dcId: Int32, withoutUpdates: Bool = false
    ) {
        self.withoutUpdates = withoutUpdates
        self.requestMessageId = requestMessageId
        self.function = function
        self.layer = layer
        self.authKeyId = authKeyId
        self.sessionId = sessionId
        self.dcId = dcId
    }
}

/// The answer to an `RPCCall`: a serialized result object, or an `rpc_error`.
public enum RPCResponse: Sendable, Equatable {
    case result([UInt8])
    case error(code: Int32, message: String)

    /// `rpc_error` 400 `METHOD_NOT_IMPLEMENTED`: what the server answers for a method it does not serve.
    public static let notImplemented = RPCResponse.error(code: 400, message: "METHOD_NOT_IMPLEMENTED")
}

/// The application layer of the server: answers API calls. Implementations live in ServerAPI; the MTProto layer
/// only routes. `handle` runs on one of the server's RPC worker threads (`ServerLimits.rpcWorkers`), never on an
/// event loop, and may block (on the database, for one).
public protocol RPCHandler: Sendable {
    func handle(_ call: RPCCall) -> RPCResponse
}
