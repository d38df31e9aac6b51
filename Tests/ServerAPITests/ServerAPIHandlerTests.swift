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

    /// The bytes of a `.result` response, or nil for an error.
    static func result(_ response: RPCResponse) -> [UInt8]? {
        if case .result(let bytes) = response { return bytes }
        return nil
    }

    @Test func getConfigListsTheBoundDataCentersAndParsesBack() async throws {
        let handler = ServerAPIHandler(dataCenters: Self.dataCenters, clock: { 1_800_000_000 })
        let bytes = try #require(Self.result(handler.handle(Self.call(Api.functions.help.getConfig()))))
        // Config has one constructor, so the switch is exhaustive; a decoding failure throws.
        switch try Api.Config(tlBytes: bytes) {
        case .config(let config):
            #expect(config.thisDc == 2)
            #expect(config.date == 1_800_000_000)
            let ports = config.dcOptions.map { option -> String in
                switch option {
                case .dcOption(let o): return "\(o.id):\(o.port)\(o.mediaOnly ? " media" : "")"
                }
            }
            // Each DC's address first (a client that takes a DC's first option gets it), then as media-only.
            #expect(ports == ["1:5001", "2:5002", "1:5001 media", "2:5002 media"])
        }
    }

    @Test func nearestDcIsTheOneAsked() async throws {
        let handler = ServerAPIHandler(dataCenters: Self.dataCenters)
        let bytes = try #require(Self.result(handler.handle(Self.call(Api.functions.help.getNearestDc(), dc: 1))))
        switch try Api.NearestDc(tlBytes: bytes) {
        case .nearestDc(let nearest): #expect(nearest.thisDc == 1 && nearest.nearestDc == 1)
        }
    }

    @Test func unknownMethodsAreNotImplemented() async {
        let handler = ServerAPIHandler(dataCenters: Self.dataCenters)
        let response = handler.handle(Self.call(Api.functions.help.getAppConfig(hash: 0)))
        #expect(response == .notImplemented)
    }
}
