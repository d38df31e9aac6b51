import MTProtoServer
import ServerAPI
import TLRuntime
import TelegramApi
import Testing

@Suite struct ServerAPIHandlerTests {
    static let dataCenters = [
        MTProtoServer.DataCenter(id: 1, host: "127.0.0.1", port: 5001),
        MTProtoServer.DataCenter(id: 2, host: "127.0.0.1", port: 5002),
    ]

    static func call(_ function: any TLFunction, dc: Int32 = 2) -> RPCCall {
        RPCCall(requestMessageId: 4, function: function, layer: 229, authKeyId: 1, sessionId: 1, dcId: dc)
    }

    @Test func getConfigListsTheBoundDataCentersAndParsesBack() async throws {
        let handler = ServerAPIHandler(dataCenters: Self.dataCenters, clock: { 1_800_000_000 })
        guard case .result(let bytes) = await handler.handle(Self.call(Api.functions.help.getConfig())) else {
            Issue.record("getConfig failed")
            return
        }
        guard case .config(let config) = try Api.Config(tlBytes: bytes) else { return }
        #expect(config.thisDc == 2)
        #expect(config.date == 1_800_000_000)
        let ports = config.dcOptions.map { option -> Int32 in
            guard case .dcOption(let o) = option else { return 0 }
            return o.port
        }
        #expect(ports == [5001, 5002])
    }

    @Test func nearestDcIsTheOneAsked() async throws {
        let handler = ServerAPIHandler(dataCenters: Self.dataCenters)
        guard case .result(let bytes) = await handler.handle(Self.call(Api.functions.help.getNearestDc(), dc: 1)),
            case .nearestDc(let nearest) = try Api.NearestDc(tlBytes: bytes)
        else {
            Issue.record("getNearestDc failed")
            return
        }
        #expect(nearest.thisDc == 1 && nearest.nearestDc == 1)
    }

    @Test func unknownMethodsAreNotImplemented() async {
        let handler = ServerAPIHandler(dataCenters: Self.dataCenters)
        let response = await handler.handle(Self.call(Api.functions.help.getAppConfig(hash: 0)))
        #expect(response == .notImplemented)
    }
}
