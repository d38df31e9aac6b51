import AccountNetworking
import Foundation
import Postbox
import PostboxTesting
import SyncCore
import TelegramApi
import Testing
import UpdateSequencing

@testable import TelegramCore

/// The group and channel actions against a scripted network: what they ask (the `offset` paging of
/// `channels.getParticipants`, the rights they encode), how the server's refusals come back (Telegram's error name
/// kept, with its meaning), and what is refused before any call (a peer not stored, a malformed username).
@Suite struct PeerActionErrorsTests {
    static let channelId: Int64 = 1_000_000_042

    /// An account on `network` with a stored supergroup and two users.
    static func account(_ network: ScriptedNetwork, in directory: TemporaryDirectory) throws -> Account {
        registerTelegramCoreTypes()
        let postbox = try Postbox.open(
            accountPath: directory.path + "/account-1",
            encryption: try PostboxEncryptionParameters(key: Array(0..<32), salt: Array(32..<48)),
            globalMessageIds: Namespaces.globalMessageIds)
        try postbox.transactionSync { tx in
            try tx.updatePeers([
                TelegramChannel(
                    id: .channel(channelId), accessHash: .personal(77), title: "Builders", creationDate: 1,
                    participationStatus: .member, info: .group([], slowModeTimeout: nil)),
                TelegramUser(
                    id: .user(2), accessHash: .personal(22), firstName: "Ben", lastName: nil, username: nil, phone: nil),
            ])
        }
        return Account(
            id: AccountRecordId(rawValue: 1), peerId: .user(1), basePath: directory.path, postbox: postbox,
            network: network, stateConfiguration: .init())
    }

    static func participants(_ range: Range<Int>, total: Int) -> Api.channels.ChannelParticipants {
        .channelParticipants(
            .init(
                count: Int32(total),
                participants: range.map { .channelParticipant(.init(userId: Int64(100 + $0), date: 1)) }, chats: [],
                users: range.map {
                    .user(.init(id: Int64(100 + $0), accessHash: Int64($0), firstName: "User \($0)"))
                }))
    }

    @Test(.timeLimit(.minutes(1))) func membersArePagedByOffsetUntilTheLimit() async throws {
        let directory = TemporaryDirectory(prefix: "peer-actions")
        defer { directory.remove() }
        let network = ScriptedNetwork { function in
            guard let call = function as? Api.functions.channels.getParticipants else { return nil }
            let start = Int(call.offset)
            return Self.participants(start..<min(start + Int(call.limit), 450), total: 450)
        }
        let account = try Self.account(network, in: directory)
        let listed = try await account.members(of: .channel(Self.channelId), limit: 420)
        #expect(listed.total == 450)
        #expect(listed.members.count == 420)
        #expect(listed.members.first?.peerId == .user(100) && listed.members.last?.peerId == .user(519))
        let pages = network.calls.compactMap { $0 as? Api.functions.channels.getParticipants }
        #expect(pages.map(\.offset) == [0, 200, 400])
        #expect(pages.map(\.limit) == [200, 200, 20])
        // The listed users were stored, so they can be named (and invited, promoted, banned) at once.
        let stored = try account.postbox.readTransactionSync { tx in try tx.getPeer(.user(519)) as? TelegramUser }
        #expect(stored?.firstName == "User 419")

        // A chat with fewer members than asked ends on the server's count, not on the limit.
        network.script { function in
            guard let call = function as? Api.functions.channels.getParticipants else { return nil }
            return Self.participants(Int(call.offset)..<min(Int(call.offset) + Int(call.limit), 3), total: 3)
        }
        #expect(try await account.members(of: .channel(Self.channelId), limit: 200).members.count == 3)
    }

    @Test(.timeLimit(.minutes(1))) func theServersRefusalsKeepTelegramsErrorNames() async throws {
        let directory = TemporaryDirectory(prefix: "peer-actions")
        defer { directory.remove() }
        let network = ScriptedNetwork { _ in NetworkError.rpc(code: 400, message: "CHAT_ADMIN_REQUIRED") }
        let account = try Self.account(network, in: directory)
        let error = await #expect(throws: PeerActionError.self) {
            try await account.ban(.user(2), in: .channel(Self.channelId))
        }
        #expect(error == .server("CHAT_ADMIN_REQUIRED"))
        #expect(error?.serverError == "CHAT_ADMIN_REQUIRED")
        #expect(error?.description == "CHAT_ADMIN_REQUIRED: you must be an admin with the right to do this")
        // The ban asked for `view_messages` until the date given, for the stored channel and user.
        let ban = try #require(network.calls.last as? Api.functions.channels.editBanned)
        guard case .chatBannedRights(let rights) = ban.bannedRights, case .inputChannel(let channel) = ban.channel,
            case .inputPeerUser(let user) = ban.participant
        else {
            Issue.record("unexpected call \(ban)")
            return
        }
        #expect(rights.viewMessages && !rights.sendMessages && rights.untilDate == 0)
        #expect(channel.channelId == Self.channelId && channel.accessHash == 77)
        #expect(user.userId == 2 && user.accessHash == 22)

        network.script { _ in NetworkError.rpc(code: 400, message: "USER_NOT_PARTICIPANT") }
        let promote = await #expect(throws: PeerActionError.self) {
            try await account.setAdmin(
                .user(2), in: .channel(Self.channelId), rights: [.canPostMessages, .canBanUsers])
        }
        #expect(promote?.description == "USER_NOT_PARTICIPANT: that user is not a member of the chat")
        let edit = try #require(network.calls.last as? Api.functions.channels.editAdmin)
        guard case .chatAdminRights(let granted) = edit.adminRights else {
            Issue.record("editAdmin sent no chatAdminRights: \(edit.adminRights)")
            return
        }
        #expect(granted.postMessages && granted.banUsers && !granted.addAdmins && !granted.changeInfo)

        // An error name with no meaning known here is still named; a lost connection is `.network`.
        network.script { _ in NetworkError.rpc(code: 400, message: "SOMETHING_NEW") }
        let unknown = await #expect(throws: PeerActionError.self) { try await account.leave(.channel(Self.channelId)) }
        #expect(unknown?.description == "the server refused: SOMETHING_NEW")
        network.script { _ in nil }
        let lost = await #expect(throws: PeerActionError.self) { try await account.leave(.channel(Self.channelId)) }
        #expect(lost == .network)
    }

    @Test(.timeLimit(.minutes(1))) func whatCannotBeNamedIsRefusedBeforeAnyCall() async throws {
        let directory = TemporaryDirectory(prefix: "peer-actions")
        defer { directory.remove() }
        let network = ScriptedNetwork { _ in nil }
        let account = try Self.account(network, in: directory)
        let unknownChannel = await #expect(throws: PeerActionError.self) { try await account.leave(.channel(5)) }
        guard case .unknownPeer? = unknownChannel else {
            Issue.record("expected unknownPeer, got \(String(describing: unknownChannel))")
            return
        }
        let unknownUser = await #expect(throws: PeerActionError.self) {
            try await account.invite([.user(99)], to: .channel(Self.channelId))
        }
        guard case .unknownPeer? = unknownUser else {
            Issue.record("expected unknownPeer, got \(String(describing: unknownUser))")
            return
        }
        let user = await #expect(throws: PeerActionError.self) { try await account.rename(.user(2), title: "x") }
        guard case .unsupported? = user else {
            Issue.record("expected unsupported, got \(String(describing: user))")
            return
        }
        let malformed = await #expect(throws: PeerActionError.self) {
            try await account.setChannelUsername("1abc", of: .channel(Self.channelId))
        }
        #expect(malformed == .server("USERNAME_INVALID"))
        #expect(network.calls.isEmpty)
    }
}
