import BenchmarkSupport
import Foundation
import MTProtoServer
import ServerAPI
import TLRuntime
import TelegramApi

/// `channels.getParticipants` (`channelParticipantsRecent`, limit 200) over a supergroup of `members`, paged by offset
/// through the whole list, `passes` times: the server's own time per page, measured around `ServerAPIHandler.handle`
/// (the application layer every transport calls: the store's read, the TL objects, their serialization; no MTProto,
/// no socket). The members sign up and are invited through the same handler, as through a connection. Each pass must
/// return every member exactly once and `count` the member count.
enum ParticipantPages {
    struct Result {
        let members: Int
        /// Seconds per page, every page of every pass.
        let pages: [Double]
        /// Seconds of the first page (offset 0) and of the last, per pass.
        let firstPages: [Double]
        let lastPages: [Double]
        let setupSeconds: Double
    }

    static func run(members: Int, passes: Int) throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("channel-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bootstrap = try BackendBootstrap(.init(directory: folder, flood: .init(messagesPerSecond: 0)))
        let handler = try bootstrap.start().handler
        var messageId: Int64 = 4
        func call<T: TLObject>(_ function: any TLFunction, as: T.Type, key: Int64) throws -> T {
            messageId += 4
            let response = handler.handle(
                RPCCall(
                    requestMessageId: messageId, function: function, layer: 229, authKeyId: key, sessionId: key,
                    dcId: 2))
            guard case .result(let bytes) = response else { throw Failure(description: "\(function): \(response)") }
            return try T(tlBytes: bytes)
        }
        func signUp(_ number: Int, key: Int64) throws -> Api.InputUser {
            let phone = "999662" + String(format: "%04d", number)
            guard
                case .sentCode(let code) = try call(
                    Api.functions.auth.sendCode(
                        phoneNumber: phone, apiId: 1, apiHash: "", settings: .codeSettings(.init())),
                    as: Api.auth.SentCode.self, key: key)
            else { throw Failure(description: "sendCode") }
            _ = try call(
                Api.functions.auth.signIn(phoneNumber: phone, phoneCodeHash: code.phoneCodeHash, phoneCode: "22222"),
                as: Api.auth.Authorization.self, key: key)
            guard
                case .authorization(let authorization) = try call(
                    Api.functions.auth.signUp(
                        phoneNumber: phone, phoneCodeHash: code.phoneCodeHash, firstName: "Member \(number)",
                        lastName: ""),
                    as: Api.auth.Authorization.self, key: key),
                case .user(let user) = authorization.user, let hash = user.accessHash
            else { throw Failure(description: "signUp \(number)") }
            return .inputUser(.init(userId: user.id, accessHash: hash))
        }

        let started = now()
        _ = try signUp(0, key: 1)
        let created = try call(
            Api.functions.channels.createChannel(megagroup: true, title: "Ten thousand", about: ""),
            as: Api.Updates.self, key: 1)
        guard case .updates(let body) = created, case .channel(let channel)? = body.chats.first,
            let hash = channel.accessHash
        else { throw Failure(description: "createChannel: \(created)") }
        let input = Api.InputChannel.inputChannel(.init(channelId: channel.id, accessHash: hash))
        var batch: [Api.InputUser] = []
        var expected: Set<Int64> = []
        for number in 1..<members {
            let user = try signUp(number, key: Int64(100 + number))
            if case .inputUser(let id) = user { expected.insert(id.userId) }
            batch.append(user)
            if batch.count == 200 || number == members - 1 {
                _ = try call(
                    Api.functions.channels.inviteToChannel(channel: input, users: batch),
                    as: Api.messages.InvitedUsers.self,
                    key: 1)
                batch = []
            }
        }
        let setupSeconds = now() - started

        var pages: [Double] = []
        var firstPages: [Double] = []
        var lastPages: [Double] = []
        for _ in 0..<passes {
            var seen: [Int64] = []
            var offset: Int32 = 0
            var times: [Double] = []
            while true {
                let request = Api.functions.channels.getParticipants(
                    channel: input, filter: .channelParticipantsRecent, offset: offset, limit: 200, hash: 0)
                let pageStarted = now()
                let page = try call(request, as: Api.channels.ChannelParticipants.self, key: 1)
                times.append(now() - pageStarted)
                guard case .channelParticipants(let list) = page else { throw Failure(description: "\(page)") }
                guard list.count == Int32(members) else { throw Failure(description: "count \(list.count)") }
                if list.participants.isEmpty { break }
                for participant in list.participants {
                    switch participant {
                    case .channelParticipant(let p): seen.append(p.userId)
                    case .channelParticipantSelf(let p): seen.append(p.userId)
                    case .channelParticipantCreator(let p): seen.append(p.userId)
                    case .channelParticipantAdmin(let p): seen.append(p.userId)
                    case .channelParticipantBanned, .channelParticipantLeft: break
                    }
                }
                offset += Int32(list.participants.count)
            }
            // The empty page past the end is asked as a client would, and not counted as a page of members.
            times.removeLast()
            guard seen.count == members, Set(seen).count == members, Set(seen).isSuperset(of: expected) else {
                throw Failure(description: "a pass saw \(seen.count) members (\(Set(seen).count) distinct)")
            }
            pages += times
            firstPages.append(times.first ?? .nan)
            lastPages.append(times.last ?? .nan)
        }
        return Result(
            members: members, pages: pages, firstPages: firstPages, lastPages: lastPages, setupSeconds: setupSeconds)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }
}
