import AccountNetworking
import Foundation
import Postbox
import PostboxTesting
import SyncCore
import TelegramApi
import Testing

@testable import TelegramCore

/// Invite links and unpinning against a scripted network: the hash read from each form of link, what
/// `joinByInviteLink` asks and how it ends (a request sent, already a member, a malformed link refused before any
/// call), what `exportInviteLink` sends and reads back, and `unpinAll` asking again while the server has more.
@Suite struct InviteLinkActionsTests {
    typealias Errors = PeerActionErrorsTests
    static let group = PeerId.channel(Errors.channelId)

    static func calls<F>(_ network: ScriptedNetwork, _ type: F.Type) -> [F] { network.calls.compactMap { $0 as? F } }

    @Test func theHashIsReadFromEveryFormOfLink() {
        for link in [
            "https://t.me/+AbC_d-1", "t.me/+AbC_d-1", "http://t.me/joinchat/AbC_d-1",
            "https://telegram.me/joinchat/AbC_d-1",
            "tg://join?invite=AbC_d-1", "AbC_d-1", "+AbC_d-1", " https://t.me/+AbC_d-1?start=x ",
        ] {
            #expect(InviteLink.hash(of: link) == "AbC_d-1", "\(link)")
        }
        #expect(InviteLink.hash(of: "https://t.me/+") == nil)
        #expect(InviteLink.hash(of: "  ") == nil)
    }

    @Test(.timeLimit(.minutes(1))) func aLinkThatAsksFirstEndsAsARequestSent() async throws {
        let directory = TemporaryDirectory(prefix: "invite-links")
        defer { directory.remove() }
        let network = ScriptedNetwork { function in
            switch function {
            case is Api.functions.messages.checkChatInvite:
                return Api.ChatInvite.chatInvite(
                    .init(
                        channel: true, megagroup: true, requestNeeded: true, title: "Builders",
                        photo: .photoEmpty(.init(id: 0)), participantsCount: 3, color: 0))
            case is Api.functions.messages.importChatInvite:
                return NetworkError.rpc(code: 400, message: "INVITE_REQUEST_SENT")
            default: return nil
            }
        }
        let account = try Errors.account(network, in: directory)
        let outcome = try await account.joinByInviteLink("https://t.me/+AbC_d-1")
        #expect(outcome == .requestSent(title: "Builders"))
        #expect(Self.calls(network, Api.functions.messages.checkChatInvite.self).map(\.hash) == ["AbC_d-1"])
        #expect(Self.calls(network, Api.functions.messages.importChatInvite.self).map(\.hash) == ["AbC_d-1"])
        #expect(PeerActionError.server("INVITE_REQUEST_SENT").description.contains("request to join was sent"))
    }

    @Test(.timeLimit(.minutes(1))) func aMemberIsToldSoAndAMalformedLinkIsRefusedBeforeAnyCall() async throws {
        let directory = TemporaryDirectory(prefix: "invite-links")
        defer { directory.remove() }
        let network = ScriptedNetwork { function in
            guard function is Api.functions.messages.checkChatInvite else { return nil }
            return Api.ChatInvite.chatInviteAlready(
                .init(
                    chat: .channel(
                        .init(
                            megagroup: true, id: Errors.channelId, accessHash: 77, title: "Builders",
                            photo: .chatPhotoEmpty, date: 1))))
        }
        let account = try Errors.account(network, in: directory)
        #expect(try await account.joinByInviteLink("t.me/joinchat/XYZ") == .alreadyMember(Self.group))
        #expect(Self.calls(network, Api.functions.messages.importChatInvite.self).isEmpty, "nothing is imported")
        let before = network.calls.count
        await #expect(throws: PeerActionError.notFound("https://t.me/+ is not an invite link")) {
            try await account.joinByInviteLink("https://t.me/+")
        }
        #expect(network.calls.count == before)
    }

    @Test(.timeLimit(.minutes(1))) func anExportedLinkCarriesItsSettingsBothWays() async throws {
        let directory = TemporaryDirectory(prefix: "invite-links")
        defer { directory.remove() }
        let network = ScriptedNetwork { function in
            guard let call = function as? Api.functions.messages.exportChatInvite else { return nil }
            return Api.ExportedChatInvite.chatInviteExported(
                .init(
                    requestNeeded: call.requestNeeded, link: "https://t.me/+NEW", adminId: 1, date: 5,
                    expireDate: call.expireDate, usageLimit: call.usageLimit, usage: 0))
        }
        let account = try Errors.account(network, in: directory)
        let link = try await account.exportInviteLink(Self.group, expire: 1_900_000_000, usageLimit: 5)
        #expect(link.link == "https://t.me/+NEW" && !link.isRevoked && !link.requestNeeded)
        #expect(link.expireDate == 1_900_000_000 && link.usageLimit == 5 && link.adminId == .user(1))
        let asking = try await account.exportInviteLink(Self.group, requestNeeded: true)
        #expect(asking.requestNeeded && asking.usageLimit == nil)
        let sent = Self.calls(network, Api.functions.messages.exportChatInvite.self)
        #expect(sent.map(\.requestNeeded) == [false, true] && sent.map(\.usageLimit) == [5, nil])
        guard case .inputPeerChannel(let peer) = sent.first?.peer else {
            Issue.record("the supergroup is named by its InputPeerChannel: \(String(describing: sent.first?.peer))")
            return
        }
        #expect(peer.channelId == Errors.channelId && peer.accessHash == 77)
    }

    /// Every admin's links: `messages.getAdminsWithInvites`, then `getExportedChatInvites` for each admin with links
    /// of the kind asked (ourselves as `inputUserSelf`, another admin with the access hash the answer gave), in the
    /// server's order; an admin with none of that kind is not asked.
    @Test(.timeLimit(.minutes(1))) func allLinksAreEachAdminsInTurn() async throws {
        let directory = TemporaryDirectory(prefix: "invite-links")
        defer { directory.remove() }
        @Sendable func link(_ hash: String, admin: Int64) -> Api.ExportedChatInvite {
            .chatInviteExported(.init(link: "https://t.me/+" + hash, adminId: admin, date: 5))
        }
        let network = ScriptedNetwork { function in
            switch function {
            case is Api.functions.messages.getAdminsWithInvites:
                return Api.messages.ChatAdminsWithInvites.chatAdminsWithInvites(
                    .init(
                        admins: [
                            .chatAdminWithInvites(.init(adminId: 9, invitesCount: 2, revokedInvitesCount: 0)),
                            .chatAdminWithInvites(.init(adminId: 1, invitesCount: 1, revokedInvitesCount: 3)),
                            .chatAdminWithInvites(.init(adminId: 8, invitesCount: 0, revokedInvitesCount: 1)),
                        ],
                        users: [.user(.init(id: 9, accessHash: 99, firstName: "Ida"))]))
            case let call as Api.functions.messages.getExportedChatInvites:
                let links: [Api.ExportedChatInvite]
                switch call.adminId {
                case .inputUserSelf: links = [link("MINE", admin: 1)]
                case .inputUser(let user) where user.userId == 9 && user.accessHash == 99:
                    links = [link("IDA2", admin: 9), link("IDA1", admin: 9)]
                default: return NetworkError.rpc(code: 400, message: "USER_ID_INVALID")
                }
                return Api.messages.ExportedChatInvites.exportedChatInvites(
                    .init(count: Int32(links.count), invites: links, users: []))
            default: return nil
            }
        }
        let account = try Errors.account(network, in: directory)
        let links = try await account.allInviteLinks(Self.group)
        #expect(links.map(\.link) == ["https://t.me/+IDA2", "https://t.me/+IDA1", "https://t.me/+MINE"])
        #expect(links.map(\.adminId) == [.user(9), .user(9), .user(1)])
        let asked = Self.calls(network, Api.functions.messages.getExportedChatInvites.self)
        #expect(asked.count == 2 && asked.allSatisfy { !$0.revoked })
    }

    @Test(.timeLimit(.minutes(1))) func unpinAllAsksAgainWhileTheServerHasMore() async throws {
        let directory = TemporaryDirectory(prefix: "invite-links")
        defer { directory.remove() }
        let network = ScriptedNetwork { _ in nil }
        let counter = Counter()
        network.script { function in
            guard function is Api.functions.messages.unpinAllMessages else { return nil }
            let call = counter.next()
            return Api.messages.AffectedHistory.affectedHistory(
                .init(pts: 10 + Int32(call), ptsCount: 1, offset: call == 0 ? 1 : 0))
        }
        let account = try Errors.account(network, in: directory)
        try await account.unpinAll(Self.group)
        #expect(Self.calls(network, Api.functions.messages.unpinAllMessages.self).count == 2)
    }

    @Test(.timeLimit(.minutes(1))) func theServersNewestPinnedMessageIsTaggedAndStaleTagsAreCleared() async throws {
        let directory = TemporaryDirectory(prefix: "invite-links")
        defer { directory.remove() }
        let peer = Api.Peer.peerChannel(.init(channelId: Errors.channelId))
        let network = ScriptedNetwork { function in
            guard let call = function as? Api.functions.messages.search,
                case .inputMessagesFilterPinned = call.filter
            else { return nil }
            return Api.messages.Messages.messages(
                .init(
                    messages: [.message(.init(pinned: true, id: 5, peerId: peer, date: 105, message: "old news"))],
                    topics: [], chats: [], users: []))
        }
        let account = try Errors.account(network, in: directory)
        func stored(_ id: Int32, pinned: Bool) -> StoreMessage {
            StoreMessage(
                id: .id(MessageId(peerId: Self.group, namespace: Namespaces.Message.cloud, id: id)),
                timestamp: 100 + id,
                flags: [.incoming], tags: pinned ? .pinned : [], authorId: .user(2), text: "m\(id)")
        }
        // 5 is stored untagged (its pin was missed); 9 is tagged but was unpinned meanwhile.
        try account.postbox.transactionSync { tx in
            _ = try tx.addMessages([stored(5, pinned: false), stored(9, pinned: true)])
        }
        let newest = try await account.newestPinnedMessage(Self.group)
        #expect(newest?.id.id == 5 && newest?.text == "m5", "the stored copy")
        let pinned = try account.postbox.readTransactionSync { tx in
            try PinnedMessages.all(in: Self.group, transaction: tx)
        }
        #expect(pinned.map(\.id) == [5])

        network.script { _ in Api.messages.Messages.messages(.init(messages: [], topics: [], chats: [], users: [])) }
        #expect(try await account.newestPinnedMessage(Self.group) == nil)
        let none = try account.postbox.readTransactionSync { tx in
            try PinnedMessages.all(in: Self.group, transaction: tx)
        }
        #expect(none.isEmpty, "nothing is pinned any more")
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = -1
        func next() -> Int {
            lock.withLock {
                value += 1; return value
            }
        }
    }
}
