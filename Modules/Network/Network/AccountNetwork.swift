public import AccountNetworking
public import CryptoUtils
import Foundation
import MTProtoApi
import MTProtoCore
import MTProtoTransport
public import NIOCore
public import SwiftSignalKit
import Synchronization
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
    /// Set by `close()`, cleared by `reopen()`: while set, no connection is made.
    private nonisolated let closed = Mutex(false)

    /// Whether `close` was called (and `reopen` not since).
    nonisolated var isClosed: Bool { closed.withLock { $0 } }

    /// Lets a closed network connect again (an account that stopped starts again).
    public nonisolated func reopen() {
        closed.withLock { $0 = false }
    }

    /// Every DC's address (from `help.getConfig`, or tg-server's ports; a probe's winner once one ran).
    public internal(set) var datacenters: [Int32: MTProtoConnection.Endpoint]
    /// Every generic address known per DC, best first (`DatacenterOption.choose`): the built-in ones, then
    /// `help.getConfig`'s. A probe walks them when the one in use does not answer.
    public internal(set) var datacenterOptions: [Int32: [DatacenterOption]] = [:]
    public let publicKeys: [RSAPublicKey]
    let store: any NetworkKeyStore
    /// The loop every generic session of this account runs on (Telegram-iOS runs an `MTContext`'s sessions on one
    /// queue). Media sessions take the group's loops in turn (`group.next()`), so on a group of several threads a
    /// large transfer's encryption mostly runs beside the generic sessions, not in front of them.
    nonisolated let loop: any EventLoop
    private let group: any EventLoopGroup
    /// Another loop of the group (the same one when the group has one thread): key exchanges run there, so the
    /// exchange's Diffie–Hellman steps never stall the account's sessions.
    nonisolated let exchangeLoop: any EventLoop
    /// Runs tasks on the loop of this account's sessions: a task that makes many calls can prefer it
    /// (`withTaskExecutorPreference(network.taskExecutor) { … }`), so that its calls and their answers never cross
    /// threads. Optional: any task may call the network.
    public nonisolated let taskExecutor: EventLoopTaskExecutor
    /// `taskExecutor`, for `AccountNetworking` callers.
    public nonisolated var callExecutor: (any TaskExecutor)? { taskExecutor }
    let options: DatacenterConnection.Options
    private var connections: [ConnectionKey: Task<DatacenterConnection, any Error>] = [:]

    /// What a connection carries (`NetworkPurpose`).
    public typealias Purpose = NetworkPurpose

    private struct ConnectionKey: Hashable, Sendable {
        let dc: Int32
        let purpose: Purpose
    }

    /// The sessions that are open, readable without the actor (`request`'s direct path); the actor keeps it in step
    /// with `connections`.
    private final class OpenConnections: @unchecked Sendable {
        private let lock = NSLock()
        private var connections: [ConnectionKey: DatacenterConnection] = [:]

        func connection(for key: ConnectionKey) -> DatacenterConnection? { lock.withLock { connections[key] } }
        func set(_ connection: DatacenterConnection?, for key: ConnectionKey) {
            lock.withLock { connections[key] = connection }
        }
        func removeAll() { lock.withLock { connections = [:] } }
    }
    private nonisolated let open = OpenConnections()
    private var imports: [Int32: Task<Void, any Error>] = [:]
    /// Media sessions' addresses where `help.getConfig` names media-only ones (else they use `datacenters`).
    public private(set) var mediaDatacenters: [Int32: MTProtoConnection.Endpoint] = [:]
    /// Whether this machine's network has IPv6 (IPv6 `dc_options` are used only then).
    private let ipv6Available: Bool
    /// Whether the network asks for `help.getConfig` once its main DC is connected and again when it expires.
    private let refreshesConfiguration: Bool
    /// When the configuration last fetched expires (`config.expires`), and how many were fetched.
    public private(set) var configExpires: Double?
    public private(set) var configRefreshes = 0
    private var configRefresh: Task<Void, Never>?
    /// Where the signed fallback configuration is fetched when a DC's address does not answer, and when it last was.
    private let fallback: SimpleConfigSource?
    private var lastFallback: Double?
    private var exchanges: [Int32: Task<AuthKeyExchangeResult, any Error>] = [:]
    /// Seconds a key exchange on the address in use may take before it counts as unanswered.
    let keyExchangeTimeout: Double
    /// Transport probing (`TransportProbe`): its bounds, or nil to go straight to the fallback.
    let probing: TransportProbe.Limits?
    /// The network this device is on, as the caller names it: what a probe found is remembered per network.
    public nonisolated let networkIdentity: String
    /// The probe running per DC: concurrent callers wait for the one.
    var probes: [Int32: Task<MTProtoConnection.Endpoint?, Never>] = [:]
    /// When a DC's last probe found nothing.
    var failedProbes: [Int32: Double] = [:]
    /// How many probes ran and how many found a way (for tests and the log).
    public internal(set) var probeCount = 0
    public internal(set) var probeWins = 0
    private let loggedOutValue = ValuePromise(false, ignoreRepeated: true)
    private let updatingValue = ValuePromise(false, ignoreRepeated: true)
    /// How many authorizations were imported, per DC (once each, however many requests needed it).
    public private(set) var importCount: [Int32: Int] = [:]

    /// Perfect forward secrecy (core.telegram.org "Perfect Forward Secrecy"): sessions run on temporary keys of
    /// `lifetime` seconds bound to the DC's permanent key with `auth.bindTempAuthKey`, and a connection whose
    /// temporary key has less than `renewBefore` seconds left is replaced by one on a new key.
    public struct ForwardSecrecy: Sendable, Equatable {
        public var lifetime: Int32
        public var renewBefore: Double

        public init(lifetime: Int32 = 86_400, renewBefore: Double = 3_600) {
            self.lifetime = lifetime
            self.renewBefore = renewBefore
        }
    }

    private let forwardSecrecy: ForwardSecrecy?
    /// How many temporary keys were bound (for tests and the log).
    public private(set) var temporaryKeysBound = 0

    /// A network for the account whose keys and main DC `store` keeps (`defaultMainDc` until it knows better); with
    /// `forwardSecrecy`, sessions use temporary keys bound to the permanent ones. `datacenterOptions` are further
    /// built-in addresses per DC for a probe to try (`probing`; nil turns probing off) when the one in use does not
    /// answer; what a probe finds is kept in the store under `networkIdentity` and tried first on the next start.
    public init(
        datacenters: [Int32: MTProtoConnection.Endpoint], defaultMainDc: Int32, publicKeys: [RSAPublicKey],
        store: any NetworkKeyStore, group: any EventLoopGroup, options: DatacenterConnection.Options = .init(),
        forwardSecrecy: ForwardSecrecy? = nil, refreshesConfiguration: Bool = false, ipv6Available: Bool = false,
        fallback: SimpleConfigSource? = nil, datacenterOptions: [DatacenterOption] = [],
        probing: TransportProbe.Limits? = TransportProbe.Limits(), networkIdentity: String = "default",
        keyExchangeTimeout: Double = 30
    ) {
        self.fallback = fallback
        self.probing = probing
        self.networkIdentity = networkIdentity
        self.keyExchangeTimeout = keyExchangeTimeout
        self.forwardSecrecy = forwardSecrecy
        self.refreshesConfiguration = refreshesConfiguration
        self.ipv6Available = ipv6Available
        self.datacenters = datacenters
        self.publicKeys = publicKeys
        self.store = store
        let loop = group.next()
        self.loop = loop
        self.group = group
        self.exchangeLoop = group.makeIterator().first { $0 !== loop } ?? loop
        self.taskExecutor = EventLoopTaskExecutor(loop)
        self.options = options
        if store.mainDatacenter() == nil { store.setMainDatacenter(defaultMainDc) }
        // Addresses learnt from the server before win over the ones the app was built with.
        for (dc, address) in store.datacenterAddresses() ?? [:] {
            var endpoint =
                datacenters[dc] ?? datacenters.values.first
                ?? MTProtoConnection.Endpoint(host: address.host, port: address.port, dcId: dc)
            endpoint.dcId = dc
            self.datacenters[dc] = DatacenterOption(
                dcId: dc, host: address.host, port: address.port, secret: address.secret
            ).endpoint(from: endpoint)
        }
        let proxied = datacenters.values.contains { $0.proxy != nil }
        for dc in Set(datacenterOptions.map(\.dcId)) {
            self.datacenterOptions[dc] = DatacenterOption.choose(
                datacenterOptions, dc: dc, media: false, ipv6Available: ipv6Available, throughProxy: proxied)
        }
        // What a probe found on this network before is tried first (Telegram-iOS MTContext keeps its transport
        // scheme per datacenter across launches).
        for (dc, endpoint) in self.datacenters {
            if case .mtproxy = endpoint.proxy { continue }
            if let scheme = store.transportScheme(datacenter: dc, network: networkIdentity) {
                self.datacenters[dc] = endpoint.applying(scheme)
            }
        }
    }

    /// Asks the main DC for `help.getConfig` and adopts its `dc_options` for every DC, honouring their flags
    /// (`DatacenterOption.choose`: media-only addresses for media sessions, IPv6 only where the network has it, never
    /// a CDN's, obfuscation where an address requires it), keeping the generic addresses in the store so the next
    /// start knows them; remembers `expires`, and with `refreshesConfiguration` asks again then. Connections to DCs
    /// whose address changed are dropped.
    public func refreshDatacenters() async throws {
        let config = try await request(Api.functions.help.getConfig())
        guard case .config(let value) = config else { return }
        configRefreshes += 1
        configExpires = Double(value.expires)
        scheduleConfigRefresh()
        let options = value.dcOptions.compactMap(DatacenterOption.init)
        let proxied = datacenters.values.contains { $0.proxy != nil }
        var learnt: [Int32: DatacenterAddress] = [:]
        var changed: Set<Int32> = []
        let template = datacenters[mainDc] ?? datacenters.values.first
        for dc in Set(options.map(\.dcId)) {
            let base = datacenters[dc] ?? template
            let generics = DatacenterOption.choose(
                options, dc: dc, media: false, ipv6Available: ipv6Available, throughProxy: proxied)
            datacenterOptions[dc] = generics
            if let remembered = store.transportScheme(datacenter: dc, network: networkIdentity),
                let current = datacenters[dc], current.host == remembered.host, current.port == remembered.port,
                generics.contains(where: { $0.host == remembered.host && $0.port == remembered.port })
            {
                // The address a probe found on this network is still listed: it stays in use.
                learnt[dc] = DatacenterAddress(host: remembered.host, port: remembered.port)
            } else if let generic = generics.first {
                if adopt(generic, base: base) { changed.insert(dc) }
                learnt[dc] = DatacenterAddress(host: generic.host, port: generic.port, secret: generic.secret)
            }
            if let media = DatacenterOption.choose(
                options, dc: dc, media: true, ipv6Available: ipv6Available, throughProxy: proxied
            ).first, media.mediaOnly, let generic = datacenters[dc] {
                mediaDatacenters[dc] = media.endpoint(from: generic)
            } else {
                mediaDatacenters[dc] = nil
            }
        }
        guard !learnt.isEmpty else { return }
        store.setDatacenterAddresses(learnt)
        dropConnections(to: changed.subtracting([mainDc]))
    }

    /// Fetches the configuration when none was fetched yet or it has expired at `now`; returns whether it asked.
    @discardableResult
    public func refreshDatacentersIfDue(now: Double? = nil) async throws -> Bool {
        let now = now ?? Date().timeIntervalSince1970
        if let configExpires, now < configExpires { return false }
        try await refreshDatacenters()
        return true
    }

    /// With `refreshesConfiguration`: one task that sleeps until the configuration expires, then fetches it again.
    private func scheduleConfigRefresh() {
        guard refreshesConfiguration, let configExpires else { return }
        configRefresh?.cancel()
        let delay = max(1, configExpires - Date().timeIntervalSince1970)
        configRefresh = Task { [weak self] in
            try? await Task.sleep(for: .seconds(delay))
            guard !Task.isCancelled, let self else { return }
            _ = try? await self.refreshDatacentersIfDue()
        }
    }

    /// Points `option`'s DC at it, keeping `base`'s framing and proxy; returns whether its endpoint changed.
    private func adopt(_ option: DatacenterOption, base: MTProtoConnection.Endpoint?) -> Bool {
        let endpoint = option.endpoint(
            from: base ?? MTProtoConnection.Endpoint(host: option.host, port: option.port, dcId: option.dcId))
        guard datacenters[option.dcId] != endpoint else { return false }
        datacenters[option.dcId] = endpoint
        return true
    }

    /// Forgets the connections to `dcs` (they connect again, to their new addresses, on the next call).
    func dropConnections(to dcs: Set<Int32>) {
        for (slot, task) in connections where dcs.contains(slot.dc) {
            connections[slot] = nil
            open.set(nil, for: slot)
            Task { if let connection = try? await task.value { await connection.close() } }
        }
    }

    /// The last link of the discovery chain, for when no DC answers: fetches the signed `help.configSimple` from
    /// `source`, verifies it with the account's public keys and its validity window, and adopts its addresses (kept in
    /// the store, like `refreshDatacenters`). Connections to DCs whose address changed are dropped, so the next call
    /// connects to the new one. Returns the DCs whose address changed.
    @discardableResult
    public func recoverDatacenters(
        using source: SimpleConfigSource, now: Double? = nil
    ) async throws -> Set<Int32> {
        let text = try await source.fetch()
        let now = now ?? Date().timeIntervalSince1970
        var opened: MTProto.help.ConfigSimple?
        var lastError = "no public key"
        for key in publicKeys {
            do {
                opened = try SimpleConfigEnvelope.open(text, publicKey: key)
                break
            } catch {
                lastError = "\(error)"
            }
        }
        guard case .configSimple(let config) = opened else { throw SimpleConfigSourceError.unverified(lastError) }
        let moment = Int32(clamping: Int64(now))
        guard config.date <= moment, moment <= config.expires else {
            throw SimpleConfigSourceError.expired(date: config.date, expires: config.expires, now: moment)
        }
        var learnt: [Int32: DatacenterAddress] = [:]
        for case .accessPointRule(let rule) in config.rules where learnt[rule.dcId] == nil {
            // The rule's first usable address: a plain `ipPort`, or an `ipPortSecret` — an address reachable only
            // with obfuscation keyed by its own secret (16 bytes, or 17 starting with 0xdd), as TDLib's
            // td/telegram/ConfigManager.cpp adopts it.
            learnt[rule.dcId] = rule.ips.lazy.compactMap(Self.address(of:)).first
        }
        guard !learnt.isEmpty else { throw SimpleConfigSourceError.empty }
        var changed: Set<Int32> = []
        let template = datacenters[mainDc] ?? datacenters.values.first
        for (dc, address) in learnt
        where adopt(
            DatacenterOption(dcId: dc, host: address.host, port: address.port, secret: address.secret),
            base: datacenters[dc] ?? template)
        {
            changed.insert(dc)
        }
        var stored = store.datacenterAddresses() ?? [:]
        stored.merge(learnt) { $1 }
        store.setDatacenterAddresses(stored)
        dropConnections(to: changed)
        return changed
    }

    /// A `help.configSimple` address the client can use, or nil (a port out of range, a secret of the wrong size).
    static func address(of ip: MTProto.IpPort) -> DatacenterAddress? {
        switch ip {
        case .ipPort(let address):
            guard (1...65535).contains(address.port) else { return nil }
            return DatacenterAddress(host: IPv4Number.text(address.ipv4), port: Int(address.port))
        case .ipPortSecret(let address):
            let secret = address.secret
            guard (1...65535).contains(address.port),
                secret.count == 16 || (secret.count == 17 && secret.first == 0xdd)
            else { return nil }
            return DatacenterAddress(host: IPv4Number.text(address.ipv4), port: Int(address.port), secret: secret)
        }
    }

    /// The DC the account lives on.
    public var mainDc: Int32 { target(nil) }

    /// `dc`, or the account's main DC when nil.
    private nonisolated func target(_ dc: Int32?) -> Int32 { dc ?? store.mainDatacenter() ?? 2 }

    /// The open session for `dc` (the main DC when nil) and `purpose`, read without the actor: what a first attempt
    /// goes to directly. Nil while none is open (or it has closed), or while a temporary key is due (that takes the
    /// actor).
    private nonisolated func openConnection(dc: Int32?, purpose: Purpose) -> DatacenterConnection? {
        guard forwardSecrecy == nil,
            let connection = open.connection(for: ConnectionKey(dc: target(dc), purpose: purpose)),
            !connection.isClosed
        else { return nil }
        return connection
    }

    /// True once the main DC answered 401 (the authorization is gone): the account must sign in again.
    public nonisolated var loggedOut: Signal<Bool, NoError> { loggedOutValue.get() }

    /// Calls `function` on `dc` (the main DC by default) with Telegram's rules; throws the final `NetworkError`.
    ///
    /// The first attempt on a session that is open (and not due for a new temporary key) goes to it directly, without
    /// a hop onto this actor and back; anything else, and every error, continues on the actor.
    public nonisolated func request<F: TLFunction>(
        _ function: F, dc: Int32? = nil, purpose: Purpose = .generic, options: RequestErrorPolicy.Options = .init(),
        timeout: Double = 60
    ) async throws -> F.Result where F.Result: Sendable {
        try await request(function, dc: dc, purpose: purpose, options: options, timeout: timeout, quickAck: nil)
    }

    /// `request`, telling `onQuickAck` once when the server's quick ack says it has the call (on any attempt).
    public nonisolated func request<F: TLFunction>(
        _ function: F, dc: Int32?, purpose: Purpose, options: RequestErrorPolicy.Options, timeout: Double,
        onQuickAck: @escaping @Sendable () -> Void
    ) async throws -> F.Result where F.Result: Sendable {
        let once = QuickAckOnce(onQuickAck)
        return try await request(
            function, dc: dc, purpose: purpose, options: options, timeout: timeout, quickAck: { once.fire() })
    }

    private nonisolated func request<F: TLFunction>(
        _ function: F, dc: Int32?, purpose: Purpose, options: RequestErrorPolicy.Options, timeout: Double,
        quickAck: (@Sendable () -> Void)?
    ) async throws -> F.Result where F.Result: Sendable {
        guard let connection = openConnection(dc: dc, purpose: purpose) else {
            return try await requestOnActor(
                function, dc: dc, purpose: purpose, options: options, timeout: timeout, firstFailure: nil,
                quickAck: quickAck)
        }
        do {
            return try await connection.invoke(function, timeout: timeout, onQuickAck: quickAck)
        } catch let error as NetworkError {
            return try await requestOnActor(
                function, dc: dc, purpose: purpose, options: options, timeout: timeout, firstFailure: error,
                quickAck: quickAck)
        }
    }

    /// Calls `functions` on `dc` (the main DC by default) together, with `request`'s rules for each, and returns
    /// their outcomes in the same order (`NetworkError`, or `CancellationError` for calls the cancelled task gave
    /// up). The first attempt of all of them is one submission to the DC's session (`DatacenterConnection.
    /// invokeBatch`: one hop, one `msg_container`, one wake-up when the last answer is in), as Telethon hands a
    /// `gather` of calls to its loop at once; a call that fails goes on alone through the rules (`FLOOD_WAIT`, 5xx
    /// retries, migration, authorization import, timeouts), concurrently with the other failed ones, and its
    /// failure never fails another call.
    @inlinable
    public nonisolated func requestBatch<F: TLFunction>(
        _ functions: [F], dc: Int32? = nil, purpose: Purpose = .generic, options: RequestErrorPolicy.Options = .init(),
        timeout: Double = 60
    ) async -> [Result<F.Result, any Error>] where F.Result: Sendable {
        guard !functions.isEmpty else { return [] }
        // Inlinable, so the caller's module specializes the batch's first attempt (the common path) for `F`.
        var outcomes: [Result<F.Result, any Error>]
        switch await batchConnection(dc: dc, purpose: purpose) {
        case .success(let connection):
            outcomes = await connection.invokeBatch(functions, timeout: timeout)
        case .failure(let error):
            // No session (no key, no socket): every call goes through the rules on its own.
            outcomes = Array(repeating: .failure(error), count: functions.count)
        }
        var failed: [Int] = []
        for index in outcomes.indices {
            if case .failure(let error) = outcomes[index], !(error is CancellationError) { failed.append(index) }
        }
        guard !failed.isEmpty, !Task.isCancelled else { return outcomes }
        return await retryBatch(
            functions, outcomes: outcomes, failed: failed, dc: dc, purpose: purpose, options: options, timeout: timeout)
    }

    /// The session a batch's first attempt goes to: the open one without the actor, else made on the actor.
    @usableFromInline
    nonisolated func batchConnection(dc: Int32?, purpose: Purpose) async -> Result<DatacenterConnection, any Error> {
        if let connection = openConnection(dc: dc, purpose: purpose) { return .success(connection) }
        do {
            return .success(try await connection(dc: target(dc), purpose: purpose))
        } catch {
            return .failure(error)
        }
    }

    /// The failed calls of a batch (`failed`), each through `request`'s rules, concurrently.
    @usableFromInline
    nonisolated func retryBatch<F: TLFunction>(
        _ functions: [F], outcomes: [Result<F.Result, any Error>], failed: [Int], dc: Int32?, purpose: Purpose,
        options: RequestErrorPolicy.Options, timeout: Double
    ) async -> [Result<F.Result, any Error>] where F.Result: Sendable {
        var outcomes = outcomes
        // A key the server does not know fails the whole batch: it is forgotten once here, and each call starts
        // afresh (the first one to need it makes the new key; the others wait for that exchange).
        let keyUnknown = failed.contains { index in
            if case .failure(let error) = outcomes[index], error as? NetworkError == .authKeyUnknown { return true }
            return false
        }
        if keyUnknown { await forgetKey(dc: target(dc)) }
        await withTaskGroup(of: (Int, Result<F.Result, any Error>).self) { group in
            for index in failed {
                guard case .failure(let error) = outcomes[index] else { continue }
                let function = functions[index]
                let first = (error as? NetworkError).flatMap { $0 == .authKeyUnknown ? nil : $0 }
                group.addTask {
                    do {
                        return (
                            index,
                            .success(
                                try await self.requestOnActor(
                                    function, dc: dc, purpose: purpose, options: options, timeout: timeout,
                                    firstFailure: first))
                        )
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            for await (index, outcome) in group { outcomes[index] = outcome }
        }
        return outcomes
    }

    /// `request`'s rules; `firstFailure` is how a first attempt made off the actor ended.
    private func requestOnActor<F: TLFunction>(
        _ function: F, dc: Int32?, purpose: Purpose, options: RequestErrorPolicy.Options, timeout: Double,
        firstFailure: NetworkError?, quickAck: (@Sendable () -> Void)? = nil
    ) async throws -> F.Result where F.Result: Sendable {
        var target = dc ?? mainDc
        var attempt = 0
        var failure = firstFailure
        while true {
            attempt += 1
            let onMain = target == mainDc
            let error: NetworkError
            if let first = failure {
                error = first
                failure = nil
            } else {
                do {
                    let connection = try await connection(dc: target, purpose: purpose)
                    return try await connection.invoke(function, timeout: timeout, onQuickAck: quickAck)
                } catch let thrown as NetworkError {
                    error = thrown
                }
            }
            if error == .authKeyUnknown {
                forgetKey(dc: target)
                if attempt <= 2 { continue }
            }
            // A session closed under the request (another caller replaced it, or the account closed it): a new one
            // is made once.
            // A session closed under the request: `connection(dc:purpose:)` replaces a closed one, so try once more.
            if error == .connectionClosed, attempt <= 2 { continue }
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

    /// The session to `dc` for `purpose`, made (with a key, if none is kept) on first use; concurrent callers share
    /// one. Both purposes use the DC's one key, each with its own session.
    public func connection(dc: Int32, purpose: Purpose = .generic) async throws -> DatacenterConnection {
        do {
            return try await openOrReuse(dc: dc, purpose: purpose)
        } catch {
            // A closed network probes nothing, nor does a cancelled call: the connections were closed on purpose
            // (the account is stopping), and the event loops may be going away.
            guard Self.isUnreachable(error), !closed.withLock({ $0 }), !Task.isCancelled else { throw error }
            // No answer at this DC's address: its other addresses and transports first (`TransportProbe`).
            if probing != nil, await probe(dc: dc) != nil {
                return try await openOrReuse(dc: dc, purpose: purpose)
            }
            // Then the last link of the discovery chain, at most once a minute.
            guard let fallback,
                lastFallback.map({ Date().timeIntervalSince1970 - $0 >= 60 }) ?? true
            else { throw error }
            lastFallback = Date().timeIntervalSince1970
            guard let changed = try? await recoverDatacenters(using: fallback), changed.contains(dc) else {
                throw error
            }
            return try await openOrReuse(dc: dc, purpose: purpose)
        }
    }

    /// Whether `error` says the address did not answer (a refused or timed-out connect, a socket closed under the
    /// exchange), not that the server answered with an error.
    static func isUnreachable(_ error: any Error) -> Bool {
        switch error as? NetworkError {
        case .connectionClosed, .timedOut, .none: return !(error is CancellationError)
        default: return false
        }
    }

    private func openOrReuse(dc: Int32, purpose: Purpose) async throws -> DatacenterConnection {
        guard !closed.withLock({ $0 }) else { throw NetworkError.connectionClosed }
        let slot = ConnectionKey(dc: dc, purpose: purpose)
        if let existing = connections[slot] {
            let connection = try await existing.value
            let renewing =
                forwardSecrecy.flatMap { secrecy in
                    connection.key.expiresAt.map { $0 - Date().timeIntervalSince1970 < secrecy.renewBefore }
                } ?? false
            guard connection.isClosed || renewing else { return connection }
            // Closed for good (a −404, or closed under the account), or its temporary key is about to expire: this
            // connection goes, and the next one is made (with a new key if the old one is gone).
            if connections[slot].map({ $0 == existing }) == true {
                connections[slot] = nil
                open.set(nil, for: slot)
            }
            Task { await connection.close() }
            return try await self.openOrReuse(dc: dc, purpose: purpose)
        }
        guard let generic = datacenters[dc] else { throw NetworkError.transport(code: -404) }
        let endpoint = purpose == .media ? mediaDatacenters[dc] ?? generic : generic
        let key: AuthKeyExchangeResult
        if purpose == .media {
            // The key comes from the generic connection (made once per DC).
            key = try await connection(dc: dc, purpose: .generic).key
        } else {
            var permanent = store.key(datacenter: dc)
            if permanent == nil {
                permanent = try await makeKey(dc: dc, endpoint: endpoint, timeout: keyExchangeTimeout)
            }
            guard let permanent else { throw NetworkError.connectionClosed }
            if let secrecy = forwardSecrecy {
                key = try await bindTemporaryKey(to: permanent, endpoint: endpoint, secrecy: secrecy)
            } else {
                key = permanent
            }
        }
        let loop: any EventLoop = purpose == .generic ? self.loop : group.next()
        let options = self.options
        let task = Task { () throws -> DatacenterConnection in
            try await DatacenterConnection.open(to: endpoint, key: key, group: loop, options: options)
        }
        connections[slot] = task
        do {
            let connection = try await task.value
            // Still the slot's connection (not forgotten while it opened): later requests may go to it directly.
            if connections[slot] == task { open.set(connection, for: slot) }
            // At start: the configuration is asked for once the main DC answers (Telegram's clients call
            // help.getConfig first thing), in the background.
            if refreshesConfiguration, dc == mainDc, purpose == .generic, configExpires == nil, configRefresh == nil {
                configRefresh = Task { [weak self] in _ = try? await self?.refreshDatacentersIfDue() }
            }
            return connection
        } catch {
            connections[slot] = nil
            throw error
        }
    }

    /// A new temporary key for `endpoint`, bound to `permanent` (the binding is made on the exchange's own socket).
    private func bindTemporaryKey(
        to permanent: AuthKeyExchangeResult, endpoint: MTProtoConnection.Endpoint, secrecy: ForwardSecrecy
    ) async throws -> AuthKeyExchangeResult {
        let exchange = try await MTProtoConnection.connect(
            to: endpoint, publicKeys: publicKeys, group: exchangeLoop, temporaryKeyLifetime: secrecy.lifetime,
            keyExchangeTimeout: keyExchangeTimeout, connectTimeout: options.connectTimeout)
        defer { Task { await exchange.close() } }
        let expiresAt = Int32(
            clamping: Int64(exchange.key.expiresAt ?? Date().timeIntervalSince1970 + Double(secrecy.lifetime)))
        do {
            try await exchange.bindTemporaryKey(to: permanent.authKey, expiresAt: expiresAt)
        } catch NetworkError.rpc(400, "ENCRYPTED_MESSAGE_INVALID") {
            // The server does not know the permanent key any more: it is made again on the next attempt.
            store.setKey(nil, datacenter: endpoint.dcId)
            throw NetworkError.authKeyUnknown
        }
        temporaryKeysBound += 1
        return exchange.key
    }

    /// One exchange at a time per DC: callers that need the same DC's key wait for the one running.
    func makeKey(
        dc: Int32, endpoint: MTProtoConnection.Endpoint, timeout: Double, connectTimeout: Double? = nil
    ) async throws -> AuthKeyExchangeResult {
        if let running = exchanges[dc] { return try await running.value }
        let publicKeys = self.publicKeys
        let group = exchangeLoop
        let connectTimeout = connectTimeout ?? options.connectTimeout
        let task = Task { () throws -> AuthKeyExchangeResult in
            let exchange = try await MTProtoConnection.connect(
                to: endpoint, publicKeys: publicKeys, group: group, keyExchangeTimeout: timeout,
                connectTimeout: connectTimeout)
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

    /// What a title bar shows (`NetworkStatus`): the main DC's socket, and `updating` while the state manager says
    /// it is catching up (`setUpdating`).
    public typealias Status = NetworkStatus

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

    /// Closes every connection, and opens none until `reopen()`: a request made after it (a task its account started
    /// and did not wait for) fails with `connectionClosed` instead of connecting on an event loop group that may be
    /// shut down by then (`tg` crashed at exit on SwiftNIO's leaked-promise check).
    public func close() async {
        closed.withLock { $0 = true }
        configRefresh?.cancel()
        configRefresh = nil
        // A probe still walking its candidates ends before the connections go (and before the caller shuts its event
        // loops down: a probe's session lives on one of them).
        for probe in probes.values {
            probe.cancel()
            _ = await probe.value
        }
        open.removeAll()
        for task in connections.values {
            if let connection = try? await task.value { await connection.close() }
        }
        connections = [:]
    }

    private func forgetKey(dc: Int32) {
        // With forward secrecy the server forgot the temporary key (it expires there): only the connection goes.
        if forwardSecrecy == nil { store.setKey(nil, datacenter: dc) }
        for purpose in [Purpose.generic, .media] {
            open.set(nil, for: ConnectionKey(dc: dc, purpose: purpose))
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
            self.countImport(dc)
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

/// The live value of the account's network interface.
extension AccountNetwork: AccountNetworking {}

/// A quick-ack callback run at most once, however many attempts (and sessions) the call takes.
private final class QuickAckOnce: Sendable {
    private let callback: @Sendable () -> Void
    private let fired = Atomic<Bool>(false)

    init(_ callback: @escaping @Sendable () -> Void) { self.callback = callback }

    func fire() {
        guard !fired.exchange(true, ordering: .acquiringAndReleasing) else { return }
        callback()
    }
}
