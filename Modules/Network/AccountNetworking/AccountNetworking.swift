public import SwiftSignalKit
public import TLRuntime

/// An account's network as the managers above it see it: calls with Telegram's error rules, the server's pushes, the
/// connection status, and the account's lifetime (the isowords Client / Live split: this is the interface,
/// `Network.AccountNetwork` the live value over MTProto sessions, and a test or a simulation may give another).
///
/// What an implementation promises (Telegram-iOS TelegramCore `Network`, core.telegram.org "Error handling"):
/// `request` answers each call once, with its result or the final `NetworkError` after the rules of
/// `RequestErrorPolicy` (flood waits, 5xx retries, DC migration, authorization import); `updates` carries the main
/// DC's pushes in arrival order, and `.newSession` / `.reconnected` whenever pushes may have been lost; `loggedOut`
/// turns true when the main DC answers 401.
public protocol AccountNetworking: AnyObject, Sendable {
    /// Calls `function` on `dc` (the main DC when nil) over the connection for `purpose`; throws the final error
    /// (`NetworkError`, or `CancellationError` when the calling task is cancelled).
    func request<F: TLFunction>(
        _ function: F, dc: Int32?, purpose: NetworkPurpose, options: RequestErrorPolicy.Options, timeout: Double
    ) async throws -> F.Result where F.Result: Sendable

    /// `request`, telling `onQuickAck` (at most once, before the answer) when the server has received the call: its
    /// quick ack (core.telegram.org/mtproto/mtproto-transports "Quick ack"; Telegram-iOS asks for it when sending a
    /// text message, `requestWithAdditionalInfo(info: .acknowledgement)`). A network without quick acks never calls it.
    func request<F: TLFunction>(
        _ function: F, dc: Int32?, purpose: NetworkPurpose, options: RequestErrorPolicy.Options, timeout: Double,
        onQuickAck: @escaping @Sendable () -> Void
    ) async throws -> F.Result where F.Result: Sendable
    /// Calls `functions` together (one submission where the transport allows it); each outcome in the same order, a
    /// call's failure never failing another.
    func requestBatch<F: TLFunction>(
        _ functions: [F], dc: Int32?, purpose: NetworkPurpose, options: RequestErrorPolicy.Options, timeout: Double
    ) async -> [Result<F.Result, any Error>] where F.Result: Sendable

    /// Every push of the main DC, in arrival order: what the account's state manager consumes.
    func updates() async throws -> Signal<NetworkEvent, NoError>

    /// The connection status over time, as a title bar shows it.
    func status() async throws -> Signal<NetworkStatus, NoError>

    /// The DC the account lives on.
    var mainDc: Int32 { get async }

    /// True once the main DC answered 401: the account must sign in again.
    var loggedOut: Signal<Bool, NoError> { get }

    /// Set by the state manager while it fetches a difference (`status` shows `updating`).
    func setUpdating(_ updating: Bool)

    /// Closes every connection; calls fail with `NetworkError.connectionClosed` until `reopen()`.
    func close() async

    /// Lets a closed network connect again.
    func reopen()

    /// The executor a task that makes calls one after another can prefer, so that each call is queued and its answer
    /// decoded on the thread that runs the sessions, without hops (`Network.AccountNetwork`: its event loop, as
    /// Telegram-iOS runs an `MTContext`'s work on one queue); nil where there is none. What such a task does with an
    /// answer must be quick, or hand it on: while it runs, the sessions wait.
    var callExecutor: (any TaskExecutor)? { get }
}

extension AccountNetworking {
    /// None by default.
    public var callExecutor: (any TaskExecutor)? { nil }

    /// `request` with the defaults: the main DC, the generic connection, the default rules, 60 s.
    @inlinable
    public func request<F: TLFunction>(
        _ function: F, dc: Int32? = nil, purpose: NetworkPurpose = .generic,
        options: RequestErrorPolicy.Options = .init(), timeout: Double = 60
    ) async throws -> F.Result where F.Result: Sendable {
        try await request(function, dc: dc, purpose: purpose, options: options, timeout: timeout)
    }

    /// A network without quick acks (a loopback, a script): the call, and `onQuickAck` never called.
    public func request<F: TLFunction>(
        _ function: F, dc: Int32?, purpose: NetworkPurpose, options: RequestErrorPolicy.Options, timeout: Double,
        onQuickAck: @escaping @Sendable () -> Void
    ) async throws -> F.Result where F.Result: Sendable {
        try await request(function, dc: dc, purpose: purpose, options: options, timeout: timeout)
    }

    /// `request(_:dc:purpose:options:timeout:onQuickAck:)` with the defaults.
    public func request<F: TLFunction>(
        _ function: F, onQuickAck: @escaping @Sendable () -> Void
    ) async throws -> F.Result where F.Result: Sendable {
        try await request(function, dc: nil, purpose: .generic, options: .init(), timeout: 60, onQuickAck: onQuickAck)
    }

    /// `requestBatch` with the defaults: the main DC, the generic connection, the default rules, 60 s.
    @inlinable
    public func requestBatch<F: TLFunction>(
        _ functions: [F], dc: Int32? = nil, purpose: NetworkPurpose = .generic,
        options: RequestErrorPolicy.Options = .init(), timeout: Double = 60
    ) async -> [Result<F.Result, any Error>] where F.Result: Sendable {
        await requestBatch(functions, dc: dc, purpose: purpose, options: options, timeout: timeout)
    }

    /// `request` as a Signal: each subscription runs it once, in a task preferring `executorPreference` (nil: the
    /// default concurrent executor); disposing abandons the answer.
    public func requestSignal<F: TLFunction>(
        _ function: F, dc: Int32? = nil, options: RequestErrorPolicy.Options = .init(),
        executorPreference: (any TaskExecutor)? = nil
    ) -> Signal<F.Result, NetworkError> where F.Result: Sendable {
        Signal(executorPreference: executorPreference) { () async throws(NetworkError) -> F.Result in
            do {
                return try await self.request(function, dc: dc, purpose: .generic, options: options, timeout: 60)
            } catch let error as NetworkError {
                throw error
            } catch {
                throw NetworkError.connectionClosed
            }
        }
    }
}

/// What a connection carries: requests and updates, or file parts (Telegram's "media" sessions, so a large transfer
/// never delays a message on the main connection).
public enum NetworkPurpose: Sendable, Hashable {
    case generic
    case media
}

/// Something the server sent that no request asked for.
public enum NetworkEvent: Sendable, Equatable {
    /// A serialized `Updates`.
    case updates([UInt8])
    /// The server made a new session (`new_session_created`): pushes before it may be lost.
    case newSession
    /// The session came back on a new socket: what the server pushed while it had none may be lost.
    case reconnected
}

/// What a title bar shows (Telegram-iOS `ConnectionStatus`).
public enum NetworkStatus: Equatable, Sendable {
    case waitingForNetwork
    case connecting
    case updating
    case online
}
