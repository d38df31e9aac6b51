import Foundation
import MTProtoCore
import MTProtoServer
import TLRuntime
import TelegramApi
import Testing

/// Calls as Pyrogram-family clients send them, over a real connection: an `InputPeer` where the schema names an
/// `InputUser` or an `InputChannel` (Pyrogram's `get_users`, `get_chat`, `create_group` pass `resolve_peer`'s
/// result). Telegram serves them; the server reads them as the matching `InputUser` / `InputChannel` (it refused them
/// whole with 400 `INPUT_METHOD_INVALID_…` before).
@Suite(.serialized) struct InputPeerDecodingTests {
    /// Records the calls that reached the application layer and answers each with `boolTrue`.
    final class RecordingHandler: RPCHandler, @unchecked Sendable {
        private let lock = NSLock()
        private var recorded: [[UInt8]] = []

        /// The calls, each serialized again as the server read it.
        var calls: [[UInt8]] {
            lock.lock()
            defer { lock.unlock() }
            return recorded
        }

        func handle(_ call: RPCCall) -> RPCResponse {
            lock.lock()
            recorded.append(call.function.serialized())
            lock.unlock()
            return .result([0xb5, 0x75, 0x72, 0x99])
        }
    }

    /// Sends each body as a call on one session and returns the answers in order (`nil` for a result, the error's
    /// text otherwise).
    static func answers(to bodies: [[UInt8]], handler: RecordingHandler) async throws -> [String?] {
        let fixture = ServerFixture()
        try await fixture.start(handler: handler)
        let key = try await fixture.createKey()
        let connection = try await fixture.session(key)
        var tokens: [Int64] = []
        for body in bodies { tokens.append(try await connection.send(body)) }
        var answers: [Int64: String?] = [:]
        let deadline = Date().addingTimeInterval(30)
        while answers.count < tokens.count, Date() < deadline {
            for case .result(let token, let result) in try connection.events() {
                switch result {
                case .success: answers[token] = .some(nil)
                case .failure(let error): answers[token] = .some("\(error.code) \(error.message)")
                }
            }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        await connection.close()
        try await fixture.stop()
        return tokens.map { answers[$0] ?? "no answer" }
    }

    /// `function#id`, then a vector of `items` (each written as it is, whatever the schema says it should be).
    static func call(_ id: UInt32, vectorOf items: [any TLObject]) -> [UInt8] {
        var writer = TLWriter()
        writer.writeUInt32(id)
        writer.writeVectorHeader(count: items.count)
        for item in items { item.serialize(&writer) }
        return writer.takeBytes()
    }

    static func call(_ id: UInt32, _ item: any TLObject) -> [UInt8] {
        var writer = TLWriter()
        writer.writeUInt32(id)
        item.serialize(&writer)
        return writer.takeBytes()
    }

    @Test func inputPeersAreReadWhereInputUsersAndInputChannelsAreExpected() async throws {
        let peerUser = Api.InputPeer.inputPeerUser(.init(userId: 5, accessHash: 7))
        let peerChannel = Api.InputPeer.inputPeerChannel(.init(channelId: 9, accessHash: 11))
        let fromMessage = Api.InputPeer.inputPeerUserFromMessage(.init(peer: peerChannel, msgId: 3, userId: 5))
        let handler = RecordingHandler()
        let answers = try await Self.answers(
            to: [
                // users.getUsers#0d91a548 id:Vector<InputUser>, as Pyrogram's get_users sends it.
                Self.call(0x0d91_a548, vectorOf: [peerUser, Api.InputPeer.inputPeerSelf, fromMessage]),
                // users.getFullUser#b60f5918 id:InputUser, as Pyrogram's get_chat sends it.
                Self.call(0xb60f_5918, peerUser),
                // channels.getChannels#0a7f6bbb id:Vector<InputChannel>.
                Self.call(0x0a7f_6bbb, vectorOf: [peerChannel]),
                // An InputPeer of the other kind is still refused: a channel where a user is expected.
                Self.call(0xb60f_5918, peerChannel),
            ], handler: handler)
        #expect(answers[0...2] == [nil, nil, nil], "\(answers)")
        #expect(answers[3] == "400 INPUT_METHOD_INVALID_b60f5918", "\(answers)")
        let expected: [[UInt8]] = [
            Api.functions.users.getUsers(id: [
                .inputUser(.init(userId: 5, accessHash: 7)), .inputUserSelf,
                .inputUserFromMessage(.init(peer: peerChannel, msgId: 3, userId: 5)),
            ]).serialized(),
            Api.functions.users.getFullUser(id: .inputUser(.init(userId: 5, accessHash: 7))).serialized(),
            Api.functions.channels.getChannels(id: [.inputChannel(.init(channelId: 9, accessHash: 11))]).serialized(),
        ]
        #expect(handler.calls == expected)
    }

    /// Where the schema names an `InputPeer`, an `InputPeer` is read as it is: the substitution is by expected type.
    @Test func substitutionsApplyOnlyWhereTheirTypeIsExpected() throws {
        let peer = Api.InputPeer.inputPeerUser(.init(userId: 5, accessHash: 7))
        var reader = TLReader(peer.serialized())
        reader.substitutions = .inputPeerForInputUserAndChannel
        let read = try Api.InputPeer.parse(&reader)
        #expect(read.serialized() == peer.serialized())
        var asUser = TLReader(peer.serialized())
        asUser.substitutions = .inputPeerForInputUserAndChannel
        let user = Api.InputUser.inputUser(.init(userId: 5, accessHash: 7))
        #expect(try Api.InputUser.parse(&asUser).serialized() == user.serialized())
        // Without substitutions (every client's reader), the schema exactly.
        var plain = TLReader(peer.serialized())
        #expect(throws: TLDecodingError.self) { try Api.InputUser.parse(&plain) }
    }
}
