public import AccountNetworking
public import ServerLoopback
public import ServerTestSupport
public import TLRuntime

/// A loopback network used as a raw client: each call on its main DC, with the network's default error policy.
extension LoopbackNetwork: RawClient {
    public func invoke<F: TLFunction>(_ function: F) async throws -> F.Result where F.Result: Sendable {
        try await request(function)
    }
}
