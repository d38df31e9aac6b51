public import AccountNetworking
import CryptoUtils
import Foundation
import MTProtoCore
import MTProtoServer
import ServerAPI
public import SwiftSignalKit
import Synchronization
public import TLRuntime
import TelegramApi

/// An account's network that reaches tg-server's application layer (`ServerAPIHandler` over a real `ServerBackend`)
/// in the same process: no sockets, no event loops, no MTProto encryption — each call is handed to the handler as the
/// server's MTProto layer would hand it, with this account's auth key id for the DC and one session, and the server's
/// pushes for that key come back as `updates()` events. What stays real is everything above the transport: the
/// server's rules and storage, and on the client side `RequestErrorPolicy` (flood waits, 5xx retries, migration,
/// authorization export and import, 401).
///
/// The auth key for each DC is made on first use and kept in the account's `NetworkKeyStore`, so an account opened
/// again is the same authorization. `timeout` is not applied: an answer is computed before the call returns.
///
/// `@unchecked Sendable`: mutable state is in `Mutex`es and promises.
public final class LoopbackNetwork: AccountNetworking, @unchecked Sendable {
    /// Sees each push (a serialized `Updates`) for this network before delivery, and delivers it as an event — or
    /// not, or twice, or later, or with a `.reconnected` after it was lost: what a simulation of a bad network does.
    public typealias PushFilter =
        @Sendable (_ body: [UInt8], _ deliver: @escaping @Sendable (NetworkEvent) -> Void) -> Void

    /// Sees each call before the server runs it, and says whether its answer is lost: the
    /// connection drops after the server ran it, and the client's transport sends the call again on the next
    /// connection (a new message id, so the server runs it again — MTProto's per-session duplicate check does not
    /// apply; a `random_id` does) and then says it reconnected, since pushes may have been lost with the connection.
    public typealias CallFilter = @Sendable (_ function: any TLFunction) -> Bool

    private let server: LoopbackServer
    private let store: any NetworkKeyStore
    private let defaultMainDc: Int32
    private let pushes: PushFilter?
    private let calls: CallFilter?
    private let sleep: @Sendable (Double) async throws -> Void
    private let state = Mutex(State())
    private let events = ValuePipe<NetworkEvent>()
    private let loggedOutValue = ValuePromise(false, ignoreRepeated: true)
    private let updatingValue = ValuePromise(false, ignoreRepeated: true)

    private struct State {
        var closed = false
        /// The session: a new one after a close or a server restart (the server forgot the old one).
        var sessionId = Int64.random(in: 1...Int64.max)
        /// The server's epoch and the gateway target this session's pushes are subscribed under, if any.
        var subscription: (epoch: Int, target: UpdateGateway.Target)?
        var everSubscribed = false
        var nextMessageId: Int64 = 0
    }

    /// Made by `LoopbackServer.network(store:)`.
    init(
        server: LoopbackServer, store: any NetworkKeyStore, defaultMainDc: Int32, pushes: PushFilter?,
        calls: CallFilter?, sleep: @escaping @Sendable (Double) async throws -> Void
    ) {
        self.server = server
        self.store = store
        self.defaultMainDc = defaultMainDc
        self.pushes = pushes
        self.calls = calls
        self.sleep = sleep
    }

    public var mainDc: Int32 { store.mainDatacenter() ?? defaultMainDc }

    public var loggedOut: Signal<Bool, NoError> { loggedOutValue.get() }

    public func request<F: TLFunction>(
        _ function: F, dc: Int32?, purpose: NetworkPurpose, options: RequestErrorPolicy.Options, timeout: Double
    ) async throws -> F.Result where F.Result: Sendable {
        var target = dc ?? mainDc
        var attempt = 1
        while true {
            try Task.checkCancellation()
            let error: NetworkError
            switch try call(function, dc: target) {
            case .result(let bytes):
                var reader = TLReader(bytes)
                do { return try F.parseResult(&reader) } catch { throw NetworkError.malformedResult("\(error)") }
            case .error(let code, let message):
                error = .rpc(code: code, message: message)
            }
            switch RequestErrorPolicy.decide(error, attempt: attempt, onMainDc: target == mainDc, options: options) {
            case .fail(let final):
                throw final
            case .retry(let seconds):
                try await sleep(seconds)
            case .migrate(let destination, let movesMainDc):
                if movesMainDc { store.setMainDatacenter(destination) }
                target = destination
            case .importAuthorization:
                try await importAuthorization(into: target)
            case .loggedOut:
                loggedOutValue.set(true)
                throw error
            }
            attempt += 1
        }
    }

    public func requestBatch<F: TLFunction>(
        _ functions: [F], dc: Int32?, purpose: NetworkPurpose, options: RequestErrorPolicy.Options, timeout: Double
    ) async -> [Result<F.Result, any Error>] where F.Result: Sendable {
        var outcomes: [Result<F.Result, any Error>] = []
        for function in functions {
            do {
                outcomes.append(
                    .success(try await request(function, dc: dc, purpose: purpose, options: options, timeout: timeout)))
            } catch {
                outcomes.append(.failure(error))
            }
        }
        return outcomes
    }

    public func updates() async throws -> Signal<NetworkEvent, NoError> {
        try subscribe()
        return events.signal()
    }

    public func status() async throws -> Signal<NetworkStatus, NoError> {
        updatingValue.get() |> map { $0 ? NetworkStatus.updating : .online }
    }

    public func setUpdating(_ updating: Bool) { updatingValue.set(updating) }

    public func close() async {
        let ended = state.withLock { state -> UpdateGateway.Target? in
            state.closed = true
            return endSession(&state)
        }
        if let ended { server.route.gateway.unsubscribe([ended], connection: ObjectIdentifier(self)) }
    }

    public func reopen() { state.withLock { $0.closed = false } }

    /// The server restarted: the session ended with it. An open network comes back at once on a new session (as a
    /// client reconnects and gets `new_session_created`); a closed one when it is reopened and used.
    func serverRestarted() {
        let closed = state.withLock { state -> Bool in
            _ = endSession(&state)
            return state.closed
        }
        guard !closed else { return }
        try? subscribe()
    }

    /// Forgets the session and its subscription; returns the gateway target that had it.
    private func endSession(_ state: inout State) -> UpdateGateway.Target? {
        defer {
            state.subscription = nil
            state.sessionId = Int64.random(in: 1...Int64.max)
        }
        return state.subscription?.target
    }

    /// Takes the server's pushes for this account's key on the main DC (the server's MTProto layer subscribes a
    /// session on its first call that is not `invokeWithoutUpdates`). A session that replaces an earlier one says so
    /// (`.newSession`): what the server pushed in between is lost, and the state manager fetches the difference.
    private func subscribe() throws {
        let key = try authKey(dc: mainDc)
        let route = server.route
        let subscribed = state.withLock {
            state -> (target: UpdateGateway.Target, again: Bool, replaced: UpdateGateway.Target?)? in
            guard !state.closed else { return nil }
            // Subscribed on this server under the main DC's key already (sign-in can move the main DC: the key
            // changes with it).
            if let current = state.subscription, current.epoch == route.epoch, current.target.authKeyId == key {
                return nil
            }
            let replaced = state.subscription?.epoch == route.epoch ? state.subscription?.target : nil
            let target = UpdateGateway.Target(authKeyId: key, sessionId: state.sessionId)
            defer {
                state.subscription = (route.epoch, target)
                state.everSubscribed = true
            }
            return (target, state.everSubscribed && replaced == nil, replaced)
        }
        guard let subscribed else { return }
        if let replaced = subscribed.replaced {
            route.gateway.unsubscribe([replaced], connection: ObjectIdentifier(self))
        }
        let deliver: @Sendable (NetworkEvent) -> Void = { [events] event in events.putNext(event) }
        route.gateway.subscribe(subscribed.target, connection: ObjectIdentifier(self)) { [pushes] body in
            if let pushes { pushes(body, deliver) } else { deliver(.updates(body)) }
        }
        if subscribed.again { events.putNext(.newSession) }
    }

    /// The call as the server's MTProto layer hands it to the application layer; when the call filter says its
    /// answer is lost, the server runs it a second time and that answer is the one the caller gets.
    private func call<F: TLFunction>(_ function: F, dc: Int32) throws -> RPCResponse {
        if let calls, calls(function) {
            _ = try handle(function, dc: dc)
            defer { events.putNext(.reconnected) }
            return try handle(function, dc: dc)
        }
        return try handle(function, dc: dc)
    }

    private func handle<F: TLFunction>(_ function: F, dc: Int32) throws -> RPCResponse {
        let (closed, messageId, sessionId) = state.withLock { state -> (Bool, Int64, Int64) in
            // Message ids as a client makes them: Unix time in the high half, growing by 4.
            state.nextMessageId = max(state.nextMessageId + 4, Int64(Date().timeIntervalSince1970) << 32)
            return (state.closed, state.nextMessageId, state.sessionId)
        }
        guard !closed else { throw NetworkError.connectionClosed }
        let key = try authKey(dc: dc)
        if dc == mainDc { try subscribe() }
        return server.route.handler.handle(
            RPCCall(
                requestMessageId: messageId, function: function, layer: 229, authKeyId: key, sessionId: sessionId,
                dcId: dc))
    }

    /// This account's auth key id on `dc`, made (a random key kept in the store) on first use.
    private func authKey(dc: Int32) throws -> Int64 {
        if let kept = store.key(datacenter: dc) { return kept.authKey.id }
        guard let key = AuthKey(bytes: SecureRandom.bytes(256)) else { throw NetworkError.connectionClosed }
        store.setKey(AuthKeyExchangeResult(authKey: key, serverSalt: 0, timeOffset: 0), datacenter: dc)
        return key.id
    }

    /// Telegram's authorization transfer: exported on the main DC, imported on `dc` (core.telegram.org
    /// "Authorization", "Working with different data centers").
    private func importAuthorization(into dc: Int32) async throws {
        let exported = try await request(
            Api.functions.auth.exportAuthorization(dcId: dc), dc: mainDc, purpose: .generic, options: .init(),
            timeout: 60)
        guard case .exportedAuthorization(let authorization) = exported else { return }
        _ = try await request(
            Api.functions.auth.importAuthorization(id: authorization.id, bytes: authorization.bytes), dc: dc,
            purpose: .generic, options: .init(), timeout: 60)
    }
}
