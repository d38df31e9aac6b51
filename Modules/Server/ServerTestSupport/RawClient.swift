public import Network
public import TLRuntime

/// A client that calls the API with no account around it — as Telethon or a script would: an MTProto connection, or
/// (in the tests that conform it) a loopback network.
public protocol RawClient: Sendable {
    /// Calls `function` and decodes its result (an `rpc_error` throws `NetworkError.rpc`).
    func invoke<F: TLFunction>(_ function: F) async throws -> F.Result where F.Result: Sendable
    /// Ends the client's connection or session.
    func close() async
}

extension MTProtoConnection: RawClient {}
