import Foundation
import MTProtoServer
import TLRuntime
import TelegramApi
import Testing

@testable import ServerAPI

/// `BackendBootstrap`: the storage opened once, each start a new run on it with nothing of the last one's memory.
@Suite struct BackendBootstrapTests {
    static func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("server-bootstrap-\(UUID().uuidString)")
    }

    static func call(
        _ handler: ServerAPIHandler, _ function: any TLFunction, key: Int64, dc: Int32 = 2
    ) -> RPCResponse {
        handler.handle(
            RPCCall(requestMessageId: 4, function: function, layer: 229, authKeyId: key, sessionId: key, dcId: dc))
    }

    /// Signs up `phone` (a DC 2 test number, code 22222) with `key`.
    static func signUp(_ handler: ServerAPIHandler, phone: String, key: Int64) throws {
        let sendCode = Api.functions.auth.sendCode(
            phoneNumber: phone, apiId: 1, apiHash: "", settings: .codeSettings(.init()))
        guard case .result(let bytes) = call(handler, sendCode, key: key),
            case .sentCode(let sent) = try Api.auth.SentCode(tlBytes: bytes)
        else { throw CancellationError() }
        _ = call(
            handler,
            Api.functions.auth.signIn(phoneNumber: phone, phoneCodeHash: sent.phoneCodeHash, phoneCode: "22222"),
            key: key)
        let signUp = Api.functions.auth.signUp(
            phoneNumber: phone, phoneCodeHash: sent.phoneCodeHash, firstName: "Ann", lastName: "")
        guard case .result = call(handler, signUp, key: key) else { throw CancellationError() }
    }

    /// An `auth.exportAuthorization` token of `key`'s account, for DC 1.
    static func export(_ run: BackendBootstrap.Running, key: Int64) throws -> Api.auth.ExportedAuthorization {
        guard case .result(let bytes) = call(run.handler, Api.functions.auth.exportAuthorization(dcId: 1), key: key)
        else {
            throw CancellationError()
        }
        return try Api.auth.ExportedAuthorization(tlBytes: bytes)
    }

    static func importCall(_ token: Api.auth.ExportedAuthorization) -> Api.functions.auth.importAuthorization {
        switch token {
        case .exportedAuthorization(let token):
            return Api.functions.auth.importAuthorization(id: token.id, bytes: token.bytes)
        }
    }

    @Test func aSecondStartServesTheSameStorageWithNothingInMemory() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bootstrap = try BackendBootstrap(.init(directory: folder, clock: { 1_800_000_000 }))
        let first = try bootstrap.start()
        try Self.signUp(first.handler, phone: "9996620001", key: 1)
        let used = try Self.export(first, key: 1)
        let kept = try Self.export(first, key: 1)
        #expect(Self.call(first.handler, Self.importCall(used), key: 2, dc: 1).isResult, "a run serves its own tokens")
        let second = try bootstrap.start()
        #expect(
            Self.call(second.handler, Self.importCall(kept), key: 3, dc: 1)
                == .error(code: 400, message: "AUTH_BYTES_INVALID"),
            "a new run has none of the last one's tokens")
        #expect(
            Self.call(second.handler, Api.functions.updates.getState(), key: 1).isResult, "authorizations are stored")
        #expect(second.updates !== first.updates)
        #expect(second.backend.flood === first.backend.flood, "the flood budgets outlive a restart")
    }

    @Test func aDatabaseKeyFileIsCreatedOnceAndNeededToOpenTheStoreAgain() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let keyFile = folder.appendingPathComponent("db.key").path
        let first = try BackendBootstrap(.init(directory: folder, databaseKeyFile: keyFile))
        try Self.signUp(try first.start().handler, phone: "9996620001", key: 1)
        let key = try String(contentsOfFile: keyFile, encoding: .utf8)
        let again = try BackendBootstrap(.init(directory: folder, databaseKeyFile: keyFile))
        #expect(try again.start().backend.account(authKeyId: 1) != nil)
        #expect(try String(contentsOfFile: keyFile, encoding: .utf8) == key, "the key file is reused")
        let unkeyed = #expect(throws: BackendBootstrap.OpenFailure.self) {
            try BackendBootstrap(.init(directory: folder))
        }
        guard case .database? = unkeyed else {
            Issue.record(
                "an encrypted database opened without its key fails as the database: \(String(describing: unkeyed))")
            return
        }
    }

    @Test func theStickerSetIsServedOnlyWhenAsked() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let getSet = Api.functions.messages.getStickerSet(
            stickerset: .inputStickerSetShortName(.init(shortName: "telegraph")), hash: 0)
        let plain = try BackendBootstrap(.init(directory: folder)).start()
        try Self.signUp(plain.handler, phone: "9996620001", key: 1)
        #expect(Self.call(plain.handler, getSet, key: 1) == .error(code: 400, message: "STICKERSET_INVALID"))
        let served = try BackendBootstrap(.init(directory: folder, stickerSet: .required)).start()
        #expect(Self.call(served.handler, getSet, key: 1).isResult, "a required sticker set is served")
    }

    @Test func dataCentersNoSocketReachesFollowTheBasePort() {
        #expect(BackendBootstrap.dataCenters().map(\.port) == [0, 0, 0])
        #expect(BackendBootstrap.dataCenters(basePort: 5001).map(\.port) == [5001, 5002, 5003])
        #expect(BackendBootstrap.dataCenters(count: 2).map(\.id) == [1, 2])
    }
}

extension RPCResponse {
    var isResult: Bool {
        if case .result = self { return true }
        return false
    }
}
