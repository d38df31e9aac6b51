import Foundation
import MTProtoServer
import ServerAPI
import ServerStore
import TLRuntime
import TelegramApi
import Testing

/// The backend through `ServerAPIHandler`, without sockets: calls in, `RPCResponse`s out, on a fixed clock.
@Suite struct ServerBackendTests {
    final class Harness: @unchecked Sendable {
        let folder: URL
        let handler: ServerAPIHandler
        /// Where the run's pushes go: a test subscribes sessions to see them.
        let updates: UpdateGateway
        /// The database, for counting its transactions.
        let store: ServerStore
        private var nextMessageId: Int64 = 4

        init(
            fixedCode: String? = nil, flood: FloodControl.Configuration = .init(),
            clock: @escaping @Sendable () -> Double = { 1_800_000_000 }, pushes: Bool = false
        ) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("server-backend-\(UUID().uuidString)")
            let bootstrap = try BackendBootstrap(
                .init(
                    directory: folder,
                    loginCodes: .init(folder: folder.appendingPathComponent("codes"), fixedCode: fixedCode),
                    flood: flood, stickerSet: .required,
                    pushDirectory: pushes ? folder.appendingPathComponent("pushes") : nil, clock: clock))
            let running = try bootstrap.start(dataCenters: BackendBootstrap.dataCenters(basePort: 5001))
            handler = running.handler
            updates = running.updates
            store = bootstrap.store
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        func call(_ function: any TLFunction, key: Int64, dc: Int32) async -> RPCResponse {
            nextMessageId += 4
            return handler.handle(
                RPCCall(requestMessageId: nextMessageId, function: function, layer: 229, authKeyId: key, sessionId: key, dcId: dc))
        }

        func result<T: TLObject>(_ function: any TLFunction, as type: T.Type, key: Int64, dc: Int32) async throws -> T {
            let response = await call(function, key: key, dc: dc)
            guard case .result(let bytes) = response else { throw Failure(response: response) }
            return try T(tlBytes: bytes)
        }

        /// Creates the basic group `title` as key `key`'s account with `members` (`messages.createChat`); returns its
        /// id.
        func createGroup(_ title: String, members: [Api.InputUser], key: Int64, dc: Int32) async throws -> Int64 {
            let invited = try await result(
                Api.functions.messages.createChat(users: members, title: title), as: Api.messages.InvitedUsers.self,
                key: key, dc: dc)
            guard case .invitedUsers(let body) = invited, case .updates(let created) = body.updates,
                case .chat(let chat)? = created.chats.first
            else { throw Failure(response: .notImplemented) }
            return chat.id
        }

        /// Signs up `phone` on its DC with key `key`; returns the account's id and access hash.
        func signUp(_ phone: String, name: String, key: Int64, dc: Int32) async throws -> (id: Int64, accessHash: Int64) {
            let sent = try await result(
                Api.functions.auth.sendCode(phoneNumber: phone, apiId: 1, apiHash: "", settings: .codeSettings(.init())),
                as: Api.auth.SentCode.self, key: key, dc: dc)
            guard case .sentCode(let code) = sent else { throw Failure(response: .notImplemented) }
            let digit = String(Array(phone)[5])
            let signIn = try await result(
                Api.functions.auth.signIn(phoneNumber: phone, phoneCodeHash: code.phoneCodeHash, phoneCode: String(repeating: digit, count: 5)),
                as: Api.auth.Authorization.self, key: key, dc: dc)
            guard case .authorizationSignUpRequired = signIn else { throw Failure(response: .notImplemented) }
            let auth = try await result(
                Api.functions.auth.signUp(phoneNumber: phone, phoneCodeHash: code.phoneCodeHash, firstName: name, lastName: ""),
                as: Api.auth.Authorization.self, key: key, dc: dc)
            guard case .authorization(let authorization) = auth, case .user(let user) = authorization.user, let hash = user.accessHash else {
                throw Failure(response: .notImplemented)
            }
            return (user.id, hash)
        }
    }

    struct Failure: Error { let response: RPCResponse }

    static func pts(of state: Api.updates.State) -> Int32 {
        switch state {
        case .state(let state): return state.pts
        }
    }

    static func error(_ response: RPCResponse) -> String? {
        if case .error(_, let message) = response { return message }
        return nil
    }

    @Test func testNumbersBelongToTheirDataCenterAndSignUpTakesTheirCode() async throws {
        let harness = try Harness()
        let sendCode = Api.functions.auth.sendCode(phoneNumber: "+999 66 1 0001", apiId: 1, apiHash: "", settings: .codeSettings(.init()))
        #expect(Self.error(await harness.call(sendCode, key: 7, dc: 2)) == "PHONE_MIGRATE_1")
        let sent = try await harness.result(sendCode, as: Api.auth.SentCode.self, key: 7, dc: 1)
        guard case .sentCode(let code) = sent else { Issue.record("not a sentCode"); return }
        let wrong = Api.functions.auth.signIn(phoneNumber: "9996610001", phoneCodeHash: code.phoneCodeHash, phoneCode: "12345")
        #expect(Self.error(await harness.call(wrong, key: 7, dc: 1)) == "PHONE_CODE_INVALID")
        let otherHash = Api.functions.auth.signIn(phoneNumber: "9996610001", phoneCodeHash: "00", phoneCode: "11111")
        #expect(Self.error(await harness.call(otherHash, key: 7, dc: 1)) == "PHONE_CODE_EXPIRED")
        // Not signed in yet: methods of an account answer 401.
        #expect(Self.error(await harness.call(Api.functions.updates.getState(), key: 7, dc: 1)) == "AUTH_KEY_UNREGISTERED")
        let alice = try await harness.signUp("9996610002", name: "Alice", key: 8, dc: 1)
        let users = await harness.call(Api.functions.users.getUsers(id: [.inputUserSelf]), key: 8, dc: 1)
        guard case .result(let bytes) = users else { Issue.record("getUsers failed: \(users)"); return }
        var reader = TLReader(bytes)
        let list = try reader.readVector { (r: inout TLReader) throws(TLDecodingError) in try Api.User.parse(&r) }
        guard case .user(let me)? = list.first else { Issue.record("no user"); return }
        #expect(me.id == alice.id && me.isSelf && me.firstName == "Alice" && me.phone == "9996610002")
        // The account lives on DC 1: its key may not use DC 2 for anything but files.
        #expect(Self.error(await harness.call(Api.functions.updates.getState(), key: 8, dc: 2)) == "USER_MIGRATE_1")
        // An unknown method is not implemented, signed in or not.
        #expect(Self.error(await harness.call(Api.functions.help.getAppConfig(hash: 0), key: 8, dc: 1)) == "METHOD_NOT_IMPLEMENTED")
    }

    @Test func otherNumbersGetTheFixedCodeWrittenToTheCodesFolder() async throws {
        let harness = try Harness(fixedCode: "24680")
        let sent = try await harness.result(
            Api.functions.auth.sendCode(phoneNumber: "+44 7700 900123", apiId: 1, apiHash: "", settings: .codeSettings(.init())),
            as: Api.auth.SentCode.self, key: 3, dc: 2)
        guard case .sentCode = sent else { Issue.record("not a sentCode"); return }
        let file = harness.folder.appendingPathComponent("codes/447700900123")
        #expect(try String(contentsOf: file, encoding: .utf8) == "24680\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test func usernamesFollowTelegramsRules() async throws {
        let harness = try Harness()
        _ = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        _ = try await harness.signUp("9996620002", name: "Ben", key: 2, dc: 2)
        for bad in ["abc", "1abcde", "ab__cd", "abcde_", "a" + String(repeating: "b", count: 32), "ab-cde"] {
            #expect(Self.error(await harness.call(Api.functions.account.updateUsername(username: bad), key: 1, dc: 2)) == "USERNAME_INVALID", "\(bad)")
        }
        #expect(Self.error(await harness.call(Api.functions.account.updateUsername(username: "Ann_2026"), key: 1, dc: 2)) == nil)
        #expect(Self.error(await harness.call(Api.functions.account.updateUsername(username: "ann_2026"), key: 2, dc: 2)) == "USERNAME_OCCUPIED")
        let resolved = try await harness.result(
            Api.functions.contacts.resolveUsername(username: "ANN_2026"), as: Api.contacts.ResolvedPeer.self, key: 2, dc: 2)
        guard case .resolvedPeer(let peer) = resolved, case .peerUser = peer.peer else { Issue.record("not resolved"); return }
        #expect(Self.error(await harness.call(Api.functions.contacts.resolveUsername(username: "nobody_here"), key: 2, dc: 2)) == "USERNAME_NOT_OCCUPIED")
    }

    /// 2,500 messages to someone who was away: getDifference hands them over in slices of at most 1,000, each with the
    /// state reached, then the rest with the final state; `pts_total_limit` below the gap answers `differenceTooLong`.
    @Test func differenceComesInSlicesWithTheStateReached() async throws {
        let harness = try Harness()
        _ = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        let ben = try await harness.signUp("9996620002", name: "Ben", key: 2, dc: 2)
        let peer = Api.InputPeer.inputPeerUser(.init(userId: ben.id, accessHash: ben.accessHash))
        for n in 0..<2500 {
            let response = await harness.call(
                Api.functions.messages.sendMessage(peer: peer, message: "m\(n)", randomId: Int64(n + 1)), key: 1, dc: 2)
            #expect(Self.error(response) == nil)
        }
        let again = await harness.call(Api.functions.messages.sendMessage(peer: peer, message: "again", randomId: 1), key: 1, dc: 2)
        // A 500 as in Telegram (Telethon's RandomIdDuplicateError is a ServerError), not a 400.
        #expect(again == .error(code: 500, message: "RANDOM_ID_DUPLICATE"))
        var pts: Int32 = 0
        var texts: [String] = []
        var slices = 0
        while true {
            let difference = try await harness.result(
                Api.functions.updates.getDifference(pts: pts, date: 0, qts: 0), as: Api.updates.Difference.self, key: 2, dc: 2)
            switch difference {
            case .differenceSlice(let slice):
                slices += 1
                #expect(slice.newMessages.count <= 1000)
                texts += slice.newMessages.compactMap { if case .message(let m) = $0 { return m.message }; return nil }
                pts = Self.pts(of: slice.intermediateState)
            case .difference(let last):
                texts += last.newMessages.compactMap { if case .message(let m) = $0 { return m.message }; return nil }
                pts = Self.pts(of: last.state)
            default:
                Issue.record("unexpected \(difference)")
                return
            }
            if case .difference = difference { break }
        }
        #expect(slices == 2)
        #expect(texts == (0..<2500).map { "m\($0)" })
        #expect(pts == 2500)
        let empty = try await harness.result(
            Api.functions.updates.getDifference(pts: pts, date: 0, qts: 0), as: Api.updates.Difference.self, key: 2, dc: 2)
        guard case .differenceEmpty = empty else { Issue.record("expected differenceEmpty, got \(empty)"); return }
        let tooLong = try await harness.result(
            Api.functions.updates.getDifference(pts: 10, ptsTotalLimit: 100, date: 0, qts: 0), as: Api.updates.Difference.self,
            key: 2, dc: 2)
        guard case .differenceTooLong(let long) = tooLong else { Issue.record("expected differenceTooLong, got \(tooLong)"); return }
        #expect(long.pts == 2500)
    }
}
