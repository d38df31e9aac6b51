import AccountNetworking
import Foundation
import SwiftSignalKit
import TLRuntime

/// An account network for tests without a server: `answer` gives each call's result (an `Error` is thrown, as a
/// `NetworkError.rpc` the server refused with; nil: the connection closes), and every call is recorded; no pushes,
/// always online, main DC 2.
final class ScriptedNetwork: AccountNetworking, @unchecked Sendable {
    private let lock = NSLock()
    private var answer: @Sendable (any TLFunction) -> Any?
    private var made: [any TLFunction] = []

    init(_ answer: @escaping @Sendable (any TLFunction) -> Any?) { self.answer = answer }

    /// Every call so far, in order.
    var calls: [any TLFunction] { lock.withLock { made } }

    /// Answers the calls from now on with `answer`.
    func script(_ answer: @escaping @Sendable (any TLFunction) -> Any?) { lock.withLock { self.answer = answer } }

    func request<F: TLFunction>(
        _ function: F, dc: Int32?, purpose: NetworkPurpose, options: RequestErrorPolicy.Options, timeout: Double
    ) async throws -> F.Result where F.Result: Sendable {
        let answered = lock.withLock { () -> Any? in
            made.append(function)
            return answer(function)
        }
        if let error = answered as? any Error { throw error }
        guard let result = answered as? F.Result else { throw NetworkError.connectionClosed }
        return result
    }

    func requestBatch<F: TLFunction>(
        _ functions: [F], dc: Int32?, purpose: NetworkPurpose, options: RequestErrorPolicy.Options, timeout: Double
    ) async -> [Result<F.Result, any Error>] where F.Result: Sendable { [] }

    func updates() async throws -> Signal<NetworkEvent, NoError> { .never() }
    func status() async throws -> Signal<NetworkStatus, NoError> { .single(.online) }
    var mainDc: Int32 { get async { 2 } }
    var loggedOut: Signal<Bool, NoError> { .single(false) }
    func setUpdating(_ updating: Bool) {}
    func close() async {}
    func reopen() {}
}
