public import CryptoUtils
public import Foundation
public import MTProtoCore
public import MTProtoTransport
public import NIOCore
public import SwiftSignalKit
public import TLRuntime
import TelegramApi

/// An account's network (Telegram-iOS: MtProtoKit's `MTContext` — addresses, keys, the main DC — with TelegramCore's
/// `Network` request service over one `DatacenterConnection` per DC): requests go to the main DC or a chosen one and
/// follow Telegram's error rules (`RequestErrorPolicy`): `FLOOD_WAIT_X` waits and retries, 5xx retries with backoff,
/// `*_MIGRATE_X` moves the request (and for sign-in the main DC), a DC that does not know the account gets its
/// authorization exported from the main DC and imported once, and 401 on the main DC turns `loggedOut` on.
///
/// Keys are made on demand, one exchange at a time per DC, and kept in the `NetworkKeyStore`; a key the server no
/// longer knows (−404) is forgotten and made again on the next request.
public actor AccountNetwork {
    /// Every DC's address (from `help.getConfig`, or tg-server's ports).
    public private(set) var datacenters: [Int32: MTProtoConnection.Endpoint]
    public let publicKeys: [RSAPublicKey]
    private let store: any NetworkKeyStore
    private let group: any EventLoopGroup
    private let options: DatacenterConnection.Options
    private var connections: [ConnectionKey: Task<DatacenterConnection, any Error>] = [:]

    /// What a connection carries: requests and updates, or file parts (Telegram's "media" sessions, so a large
    /// transfer never delays a message on the main connection).
    public enum Purpose: Sendable, Hashable {
        case generic
        case media
    }

    private struct ConnectionKey: Hashable {
        let dc: Int32
        let purpose: Purpose
    }
    private var imports: [Int32: Task<Void, any Error>] = [:]
    private var exchanges: [Int32: Task<AuthKeyExchangeResult, any Error>] = [:]
    private let loggedOutValue = ValuePromise(false, ignoreRepeated: true)
    private let updatingValue = ValuePromise(false, ignoreRepeated: true)
    /// How many authorizations were imported, per DC (once each, however many requests needed it).
    public private(set) var importCount: [Int32: Int] = [:]

    /// A network for the account whose keys and main DC `store` keeps (`defaultMainDc` until it knows better).
    public init(
        datacenters: [Int32: MTProtoConnection.Endpoint], defaultMainDc: Int32, publicKeys: [RSAPublicKey],
        store: any NetworkKeyStore, group: any EventLoopGroup, options: DatacenterConnection.Options = .init()
    ) {
        self.datacenters = datacenters
        self.publicKeys = publicKeys
        self.store = store
        self.group = group
        self.options = options
        if store.mainDatacenter() == nil { store.setMainDatacenter(defaultMainDc) }
    }

    /// The DC the account lives on.
    public var mainDc: Int32 { store.mainDatacenter() ?? 2 }

    /// True once the main DC answered 401 (the authorization is gone): the account must sign in again.
    public nonisolated var loggedOut: Signal<Bool, NoError> { loggedOutValue.get() }

    /// Calls `function` on `dc` (the main DC by default) with Telegram's rules; throws the final `NetworkError`.
    public func request<F: TLFunction>(
        _ function: F, dc: Int32? = nil, purpose: Purpose = .generic, options: RequestErrorPolicy.Options = .init(),
        timeout: Double = 60
    ) async throws -> F.Result where F.Result: Sendable {
        var target = dc ?? mainDc
        var attempt = 0
        while true {
            attempt += 1
            let onMain = target == mainDc
            do {
                let connection = try await connection(dc: target, purpose: purpose)
                return try await connection.invoke(function, timeout: timeout)
            } catch let error as NetworkError {
                if error == .authKeyUnknown {
                    forgetKey(dc: target)
                    if attempt <= 2 { continue }
                }
                switch RequestErrorPolicy.decide(error, attempt: attempt, onMainDc: onMain, options: options) {
                case .fail(let final):
                    throw final
                case .retry(let seconds):
                    try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                case .migrate(let dc, let movesMainDc):
                    if movesMainDc { store.setMainDatacenter(dc) }
                    target = dc
                case .importAuthorization:
                    try await importAuthorization(to: target)
                case .loggedOut:
                    loggedOutValue.set(true)
                    throw error
                }
            }
        }
    }

    /// `request` as a Signal: each subscription runs it once; disposing abandons the answer.
    public nonisolated func requestSignal<F: TLFunction>(
        _ function: F, dc: Int32? = nil, options: RequestErrorPolicy.Options = .init()
    ) -> Signal<F.Result, NetworkError> where F.Result: Sendable {
        Signal { () async throws(NetworkError) -> F.Result in
            do {
                return try await self.request(function, dc: dc, options: options)
            } catch let error as NetworkError {
                throw error
            } catch {
                throw NetworkError.connectionClosed
            }
        }
    }

    /// The session to `dc` for `purpose`, made (with a key, if none is kept) on first use; concurrent callers share
    /// one. Both purposes use the DC's one key, each with its own session.
    public func connection(dc: Int32, purpose: Purpose = .generic) async throws -> DatacenterConnection {
        let slot = ConnectionKey(dc: dc, purpose: purpose)
        if let existing = connections[slot] { return try await existing.value }
        guard let endpoint = datacenters[dc] else { throw NetworkError.transport(code: -404) }
        let key: AuthKeyExchangeResult
        if purpose == .media {
            // The key comes from the generic connection (made once per DC).
            key = try await connection(dc: dc, purpose: .generic).key
        } else if let saved = store.key(datacenter: dc) {
            key = saved
        } else {
            key = try await makeKey(dc: dc, endpoint: endpoint)
        }
        let group = self.group
        let options = self.options
        let task = Task { () throws -> DatacenterConnection in
            try await DatacenterConnection.open(to: endpoint, key: key, group: group, options: options)
        }
        connections[slot] = task
        do {
            return try await task.value
        } catch {
            connections[slot] = nil
            throw error
        }
    }

    /// One exchange at a time per DC: callers that need the same DC's key wait for the one running.
    private func makeKey(dc: Int32, endpoint: MTProtoConnection.Endpoint) async throws -> AuthKeyExchangeResult {
        if let running = exchanges[dc] { return try await running.value }
        let publicKeys = self.publicKeys
        let group = self.group
        let task = Task { () throws -> AuthKeyExchangeResult in
            let exchange = try await MTProtoConnection.connect(to: endpoint, publicKeys: publicKeys, group: group)
            await exchange.close()
            return exchange.key
        }
        exchanges[dc] = task
        defer { exchanges[dc] = nil }
        let key = try await task.value
        store.setKey(key, datacenter: dc)
        return key
    }

    /// The main DC's pushes: serialized `Updates` and new-session notices, in order (the account's state manager
    /// reads them).
    public func mainEvents() async throws -> AsyncStream<DatacenterConnection.ServerEvent> {
        try await connection(dc: mainDc).events
    }

    /// Every push from the main DC's sessions (generic and media) as one Signal, in arrival order per session: what
    /// the account's state manager consumes (Telegram-iOS `Network.updates`... `AccountStateManager`'s input).
    public func updates() async throws -> Signal<DatacenterConnection.ServerEvent, NoError> {
        let main = mainDc
        let generic = try await connection(dc: main)
        let media = try await connection(dc: main, purpose: .media)
        return merge(generic.eventSignal, media.eventSignal)
    }

    /// What a title bar shows (Telegram-iOS `ConnectionStatus`): the main DC's socket, and `updating` while the state
    /// manager says it is catching up (`setUpdating`).
    public enum Status: Equatable, Sendable {
        case waitingForNetwork
        case connecting
        case updating
        case online
    }

    /// The account's connection status over time.
    public func status() async throws -> Signal<Status, NoError> {
        let socket = try await connection(dc: mainDc).state
        return combineLatest(socket, updatingValue.get())
            |> map { state, updating -> Status in
                switch state {
                case .waitingForNetwork: return .waitingForNetwork
                case .connecting: return .connecting
                case .online: return updating ? .updating : .online
                }
            }
            |> distinctUntilChanged
    }

    /// Set by the state manager while it fetches a difference.
    public nonisolated func setUpdating(_ updating: Bool) {
        updatingValue.set(updating)
    }

    /// Closes every connection.
    public func close() async {
        for task in connections.values {
            if let connection = try? await task.value { await connection.close() }
        }
        connections = [:]
    }

    private func forgetKey(dc: Int32) {
        store.setKey(nil, datacenter: dc)
        for purpose in [Purpose.generic, .media] {
            if let task = connections.removeValue(forKey: ConnectionKey(dc: dc, purpose: purpose)) {
                Task { await (try? await task.value)?.close() }
            }
        }
    }

    /// `auth.exportAuthorization` on the main DC, `auth.importAuthorization` on `dc` — once per DC however many
    /// requests wait for it.
    private func importAuthorization(to dc: Int32) async throws {
        if let running = imports[dc] { return try await running.value }
        let task = Task { () throws -> Void in
            let exported = try await self.request(Api.functions.auth.exportAuthorization(dcId: dc))
            guard case .exportedAuthorization(let value) = exported else { return }
            let connection = try await self.connection(dc: dc)
            _ = try await connection.invoke(Api.functions.auth.importAuthorization(id: value.id, bytes: value.bytes))
            await self.countImport(dc)
        }
        imports[dc] = task
        do {
            try await task.value
        } catch {
            imports[dc] = nil
            throw error
        }
    }

    private func countImport(_ dc: Int32) {
        importCount[dc, default: 0] += 1
    }
}
