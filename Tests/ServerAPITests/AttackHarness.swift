import Foundation
import MTProtoServer
import ServerAPI
import ServerStore
import TLRuntime
import TelegramApi
import Testing

/// A backend to attack: calls through `ServerAPIHandler` as real clients make them, on a clock the test moves, with
/// `restart()` opening the same data folder anew (limits that must survive restarts are checked across it).
final class AttackHarness: @unchecked Sendable {
    /// The time the backend sees; tests move it forward.
    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Double = 1_800_000_000
        var now: Double { lock.withLock { value } }
        func advance(_ seconds: Double) { lock.withLock { value += seconds } }
    }

    let folder: URL
    let clock = Clock()
    private(set) var handler: ServerAPIHandler
    private(set) var store: ServerStore
    /// Where the run's pushes go: a test subscribes sessions to see them.
    private(set) var updates: UpdateGateway
    private var nextMessageId: Int64 = 4

    private let flood: FloodControl.Configuration

    init(flood: FloodControl.Configuration = .init()) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("server-attack-\(UUID().uuidString)")
        self.flood = flood
        (store, handler, updates) = try Self.open(folder, clock: clock, flood: flood)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// A new process's server on `folder`: the store opened anew, fresh flood budgets, nothing in memory.
    private static func open(
        _ folder: URL, clock: Clock, flood: FloodControl.Configuration
    ) throws -> (ServerStore, ServerAPIHandler, UpdateGateway) {
        let codes = ServerBackend.LoginCodes(folder: folder.appendingPathComponent("codes"))
        let bootstrap = try BackendBootstrap(
            .init(directory: folder, loginCodes: codes, flood: flood, clock: { clock.now }))
        let running = try bootstrap.start(dataCenters: BackendBootstrap.dataCenters(basePort: 5001))
        return (bootstrap.store, running.handler, running.updates)
    }

    /// The server stops and starts again on the same folder: everything in memory is gone.
    func restart() throws {
        (store, handler, updates) = try Self.open(folder, clock: clock, flood: flood)
    }

    func call(_ function: any TLFunction, key: Int64, dc: Int32 = 2) -> RPCResponse {
        nextMessageId += 4
        return handler.handle(RPCCall(requestMessageId: nextMessageId, function: function, layer: 229, authKeyId: key, sessionId: key, dcId: dc))
    }

    func result<T: TLObject>(_ function: any TLFunction, as type: T.Type, key: Int64, dc: Int32 = 2) throws -> T {
        let response = call(function, key: key, dc: dc)
        guard case .result(let bytes) = response else { throw Refused(response: response) }
        return try T(tlBytes: bytes)
    }

    /// The error name a call was refused with, or nil when it was answered.
    func error(_ function: any TLFunction, key: Int64, dc: Int32 = 2) -> String? {
        if case .error(_, let message) = call(function, key: key, dc: dc) { return message }
        return nil
    }

    struct Refused: Error { let response: RPCResponse }

    /// An account on DC 2 signed in with key `key` (test numbers `99966 2 YYYY`, whose code is 22222).
    struct Account {
        let id: Int64
        let accessHash: Int64
        let key: Int64
        var inputUser: Api.InputUser { .inputUser(.init(userId: id, accessHash: accessHash)) }
        var inputPeer: Api.InputPeer { .inputPeerUser(.init(userId: id, accessHash: accessHash)) }
    }

    func signUp(_ phone: String, name: String, key: Int64) throws -> Account {
        guard case .sentCode(let code) = try result(Self.sendCode(phone), as: Api.auth.SentCode.self, key: key) else { throw Refused(response: .notImplemented) }
        let signIn = try result(
            Api.functions.auth.signIn(phoneNumber: phone, phoneCodeHash: code.phoneCodeHash, phoneCode: "22222"), as: Api.auth.Authorization.self,
            key: key)
        guard case .authorizationSignUpRequired = signIn else { throw Refused(response: .notImplemented) }
        let auth = try result(
            Api.functions.auth.signUp(phoneNumber: phone, phoneCodeHash: code.phoneCodeHash, firstName: name, lastName: ""),
            as: Api.auth.Authorization.self, key: key)
        guard case .authorization(let authorization) = auth, case .user(let user) = authorization.user, let hash = user.accessHash else {
            throw Refused(response: .notImplemented)
        }
        return Account(id: user.id, accessHash: hash, key: key)
    }

    static func sendCode(_ phone: String) -> Api.functions.auth.sendCode {
        Api.functions.auth.sendCode(phoneNumber: phone, apiId: 1, apiHash: "", settings: .codeSettings(.init()))
    }

    /// The access hash `viewer` sees for `target`, as a stranger learns it (by username).
    func hashSeen(of username: String, by viewer: Account) throws -> Int64 {
        let resolved = try result(Api.functions.contacts.resolveUsername(username: username), as: Api.contacts.ResolvedPeer.self, key: viewer.key)
        guard case .resolvedPeer(let peer) = resolved, case .user(let user)? = peer.users.first, let hash = user.accessHash else {
            throw Refused(response: .notImplemented)
        }
        return hash
    }
}
