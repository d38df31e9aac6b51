import Foundation
import Postbox
import PostboxTesting
import SyncCore
import TelegramClient
import TelegramCore
import Testing

/// The client's values without a server: addresses, the default root, peer references, sticker choices, MIME types,
/// the profile file, and a message's JSON summary.
@Suite struct ClientValuesTests {
    @Test func serverAddressesReadBothForms() throws {
        let single = try ServerAddress(parsing: "127.0.0.1:10443")
        #expect(single.host == "127.0.0.1")
        #expect(single.ports == [1: 10443, 2: 10444, 3: 10445])
        #expect(single.defaultMainDc == 2)
        #expect(single.endpoints.keys.sorted() == [1, 2, 3])
        let listed = try ServerAddress(parsing: "localhost:1=4000,2=4100,3=4200")
        #expect(listed.ports == [1: 4000, 2: 4100, 3: 4200])
        #expect(listed.description == "localhost:1=4000,2=4100,3=4200")
        #expect(try ServerAddress(parsing: "h:1=4000").defaultMainDc == 1)
        for bad in ["127.0.0.1", ":443", "h:", "h:0", "h:65535", "h:1=x", "h:1=5,1=6", "h:17=5", "h:2=70000", "h:1=5,"]
        {
            #expect(throws: ServerAddress.ParseError.self, "\(bad)") { try ServerAddress(parsing: bad) }
        }
        let error = try #require(thrownError { try ServerAddress(parsing: "h:1=x") } as? ServerAddress.ParseError)
        #expect(error.description.contains("'1=x' is not DC=PORT") && error.description.contains(" — write HOST:PORT"))
        let encoded = try JSONEncoder().encode(listed)
        #expect(String(decoding: encoded, as: UTF8.self) == "\"localhost:1=4000,2=4100,3=4200\"")
        #expect(try JSONDecoder().decode(ServerAddress.self, from: encoded) == listed)
    }

    @Test func theDefaultRootFollowsTheEnvironment() {
        #expect(ClientRoot.defaultPath(environment: ["TG_ROOT": "/r", "HOME": "/h"]) == "/r")
        #expect(ClientRoot.defaultPath(environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"]) == "/d/telegraph")
        #expect(
            ClientRoot.defaultPath(environment: ["XDG_DATA_HOME": "relative", "HOME": "/h"])
                == "/h/.local/share/telegraph")
        #expect(ClientRoot.defaultPath(environment: ["HOME": "/h"]) == "/h/.local/share/telegraph")
        #expect(ClientRoot.defaultPath(environment: [:]) == nil)
    }

    @Test func peerReferencesNameChatsEachWay() {
        #expect(PeerReference("me") == .me)
        #expect(PeerReference("SELF") == .me)
        #expect(PeerReference("@alice_demo") == .username("alice_demo"))
        #expect(PeerReference("+9996620001") == .phone("9996620001"))
        #expect(PeerReference("9996620001") == .phone("9996620001"))
        #expect(PeerReference("user:42") == .user(42))
        #expect(PeerReference("chat:7") == .group(7))
        #expect(PeerReference("123456") == .user(123456))
        #expect(PeerReference("Bob Smith") == .title("Bob Smith"))
        #expect(PeerReference("@") == .title("@"))
        #expect(PeerReference("user:x") == .title("user:x"))
        #expect(PeerReference("  ") == nil)
        #expect(PeerReference("+12") == .title("+12"))
        #expect(PeerReference.phone("9996620001").description == "+9996620001")
        #expect(PeerReference("secret:1001") == .secretChat(1001) && PeerReference("Secret:5") == .secretChat(5))
        #expect(PeerReference.secretChat(1001).description == "secret:1001")
        #expect(PeerReference("secret:0") == .title("secret:0"))
        #expect(PeerReference("secret:99999999999") == .title("secret:99999999999"), "past Int32: not a chat id")
        #expect(PeerResolver.handle(SecretChatRecord.peerId(1001)) == "secret:1001")
        #expect(
            PeerReference("channel:1000000001") == .channel(1_000_000_001) && PeerReference("Channel:5") == .channel(5))
        #expect(
            PeerReference.channel(5).description == "channel:5" && PeerReference("channel:0") == .title("channel:0"))
        #expect(PeerResolver.handle(.channel(5)) == "channel:5" && PeerResolver.handle(.group(7)) == "chat:7")
    }

    @Test func stickerChoicesAreSetSlashNumber() {
        #expect(StickerChoice("telegraph/1") == StickerChoice("telegraph/1"))
        #expect(StickerChoice("telegraph/3")?.set == "telegraph")
        #expect(StickerChoice("telegraph/3")?.number == 3)
        #expect(StickerChoice("a/b/2")?.set == "a/b")
        for bad in ["telegraph", "telegraph/0", "telegraph/x", "/1", "telegraph/"] {
            #expect(StickerChoice(bad) == nil, "\(bad)")
        }
    }

    @Test func mimeTypesComeFromTheExtension() {
        #expect(MimeTypes.guess("report.PDF") == "application/pdf")
        #expect(MimeTypes.guess("notes.txt") == "text/plain")
        #expect(MimeTypes.guess("noextension") == "application/octet-stream")
        #expect(MimeTypes.guess(".hidden") == "application/octet-stream")
        #expect(MimeTypes.isPhoto("a.jpeg") && MimeTypes.isPhoto("b.png") && MimeTypes.isPhoto("c.webp"))
        #expect(!MimeTypes.isPhoto("d.gif") && !MimeTypes.isPhoto("e.pdf"))
    }

    @Test func profilesSurviveAReloadAndAreOwnerOnly() throws {
        let root = TemporaryDirectory(prefix: "tg-profiles")
        defer { root.remove() }
        #expect(try ClientProfiles.load(root: root.path) == ClientProfiles())
        var profiles = ClientProfiles()
        let server = try ServerAddress(parsing: "127.0.0.1:1=5,2=6,3=7")
        profiles.upsert(ClientAccount(name: "alice", id: 11, server: server, publicKeyPEM: "PEM A"))
        profiles.upsert(ClientAccount(name: "bob", id: 12, server: server, publicKeyPEM: "PEM B"))
        profiles.upsert(ClientAccount(name: "alice", id: 13, server: server, publicKeyPEM: "PEM A2"))
        try profiles.save(root: root.path)
        let loaded = try ClientProfiles.load(root: root.path)
        #expect(loaded == profiles)
        #expect(loaded.accounts.map(\.name) == ["alice", "bob"])
        #expect(loaded.account(named: "alice")?.id == 13)
        #expect(loaded.account(id: 12)?.name == "bob")
        let mode =
            try FileManager.default.attributesOfItem(atPath: ClientProfiles.path(root: root.path))[.posixPermissions]
            as? NSNumber
        #expect(mode?.intValue == 0o600)
        profiles.remove(id: 12)
        #expect(profiles.accounts.map(\.name) == ["alice"])

        try Data("{\"accounts\": [".utf8).write(to: URL(fileURLWithPath: ClientProfiles.path(root: root.path)))
        let error = try #require(thrownError { try ClientProfiles.load(root: root.path) } as? ClientError)
        guard case .storage(let text) = error else { Issue.record("not a storage error: \(error)"); return }
        #expect(text.contains("tg-client.json") && text.contains(" — "))
    }

    @Test func accountNamesAreShortAndPlain() {
        for good in ["default", "alice", "a.b-c_9", String(repeating: "x", count: 32)] {
            #expect(ClientProfiles.isValidName(good), "\(good)")
        }
        for bad in ["", "a b", "a/b", "ä", String(repeating: "x", count: 33), "../x"] {
            #expect(!ClientProfiles.isValidName(bad), "\(bad)")
        }
    }

    @Test func aMessageSummaryHasStableKeysAndMarkdown() throws {
        registerSyncCoreTypes()
        let bob = TelegramUser(
            id: .user(7), accessHash: nil, firstName: "Bob", lastName: "Smith", username: "bob", phone: nil)
        let voice = TelegramMediaFile(
            fileId: MediaId(namespace: Namespaces.Media.cloudFile, id: 99), resource: .localFile(fileId: 1, size: 3),
            mimeType: "audio/ogg", size: 3,
            attributes: [.audio(isVoice: true, duration: 4, title: nil, performer: nil, waveform: nil)])
        let message = Message(
            stableId: 1, stableVersion: 0, id: MessageId(peerId: .user(7), namespace: Namespaces.Message.cloud, id: 5),
            globallyUniqueId: nil, groupingKey: nil, threadId: nil, timestamp: 86400 + 3600 + 120, flags: [.incoming],
            tags: [],
            authorId: .user(7), author: bob, text: "Hi there",
            attributes: [
                TextEntitiesMessageAttribute(entities: [MessageTextEntity(range: 0..<2, type: .bold)]),
                ReplyMessageAttribute(
                    messageId: MessageId(peerId: .user(7), namespace: Namespaces.Message.cloud, id: 3)),
            ],
            media: [voice])
        let summary = MessageSummary(message, chatName: "Bob Smith")
        #expect(
            summary.id == 5 && summary.chat == "user:7" && summary.from == "user:7" && summary.fromName == "Bob Smith")
        #expect(!summary.outgoing && summary.replyTo == 3 && !summary.edited && !summary.unsent && !summary.failed)
        #expect(summary.markdown == "**Hi** there")
        #expect(summary.entities == [try entity(#"{"type":"bold","offset":0,"length":2}"#)])
        #expect(
            summary.media?.kind == "voice" && summary.media?.duration == 4 && summary.media?.mimeType == "audio/ogg")
        #expect(summary.line() == "[5] 1970-01-02 01:02 Bob Smith: ↩3 **Hi** there [voice 4 s]")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let object = try #require(try JSONSerialization.jsonObject(with: encoder.encode(summary)) as? [String: Any])
        #expect(
            Set(object.keys)
                == [
                    "id", "chat", "chatName", "from", "fromName", "date", "outgoing", "text", "markdown", "entities",
                    "media",
                    "replyTo", "edited", "unsent", "failed", "read", "album", "views", "signature", "action", "pinned",
                    "reactions", "forwardedFrom", "forwardedFromName",
                ])
        #expect(object["album"] is NSNull && object["views"] is NSNull && object["signature"] is NSNull)
        #expect(object["action"] is NSNull && object["read"] is NSNull, "an incoming message has no read key value")
        #expect(object["pinned"] as? Bool == false)
        #expect((object["reactions"] as? [Any])?.isEmpty == true, "no reactions: an empty list")
    }

    /// `read` on our messages: at most the chat's outgoing read mark is read, above it not, and `nil` without a state.
    @Test func aSummaryOfOurMessageSaysWhetherItWasRead() throws {
        registerSyncCoreTypes()
        func ours(_ id: Int32) -> Message {
            Message(
                stableId: UInt32(id), stableVersion: 0,
                id: MessageId(peerId: .user(7), namespace: Namespaces.Message.cloud, id: id), globallyUniqueId: nil,
                groupingKey: nil, threadId: nil, timestamp: 86400, flags: [], tags: [], authorId: .user(1), author: nil,
                text: "hello", attributes: [], media: [])
        }
        let state = CombinedPeerReadState(states: [
            Namespaces.Message.cloud: PeerReadState(maxIncomingReadId: 0, maxOutgoingReadId: 5, maxKnownId: 6, count: 0)
        ])
        #expect(MessageSummary(ours(5), chatName: "Bob", readState: state).read == true)
        #expect(MessageSummary(ours(6), chatName: "Bob", readState: state).read == false)
        #expect(MessageSummary(ours(6), chatName: "Bob").read == nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(MessageSummary(ours(5), chatName: "Bob", readState: state)), as: UTF8.self)
        #expect(json.contains(#""read":true"#), "\(json)")
    }

    /// `reactions`: each emoji with its count and whether it is ours, in the stored order; the line shows them, ours
    /// in brackets.
    @Test func aSummaryListsTheReactions() throws {
        registerSyncCoreTypes()
        let reactions = ReactionsMessageAttribute(
            canViewList: true,
            reactions: [.init(emoticon: "👍", count: 2, chosenOrder: 0), .init(emoticon: "❤", count: 1)])
        let message = Message(
            stableId: 1, stableVersion: 0,
            id: MessageId(peerId: .user(7), namespace: Namespaces.Message.cloud, id: 3), globallyUniqueId: nil,
            groupingKey: nil, threadId: nil, timestamp: 86400, flags: [.incoming], tags: [], authorId: .user(7),
            author: nil, text: "lunch?", attributes: [reactions], media: [])
        let summary = MessageSummary(message, chatName: "Bob")
        #expect(
            summary.reactions == [
                ReactionSummary(emoji: "👍", count: 2, chosen: true), ReactionSummary(emoji: "❤", count: 1, chosen: false),
            ])
        #expect(summary.line().hasSuffix("lunch? [👍2] ❤1"), "\(summary.line())")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(summary), as: UTF8.self)
        #expect(
            json.contains(#""reactions":[{"chosen":true,"count":2,"emoji":"👍"},{"chosen":false,"count":1,"emoji":"❤"}]"#),
            "\(json)")
    }

    @Test func aSummaryDescribesALinkPreviewAndItsPicture() throws {
        registerSyncCoreTypes()
        let image = TelegramMediaImage(
            imageId: MediaId(namespace: Namespaces.Media.cloudImage, id: 5),
            representations: [
                TelegramMediaImageRepresentation(
                    dimensions: PixelDimensions(width: 640, height: 480),
                    resource: .cloudPhotoSize(
                        datacenterId: 2, photoId: 5, accessHash: 1, fileReference: [1], sizeSpec: "x"),
                    type: "x")
            ])
        let pages = [
            TelegramMediaWebpage(
                webpageId: 9, isPending: false, url: "http://example.com/a", siteName: "Example", title: "Title",
                type: "article", image: image),
            TelegramMediaWebpage(webpageId: 10, isPending: true, url: "http://example.com/b"),
        ]
        let summaries = pages.enumerated().map { index, page in
            MessageSummary(
                Message(
                    stableId: UInt32(index), stableVersion: 0,
                    id: MessageId(peerId: .user(7), namespace: Namespaces.Message.cloud, id: Int32(index)),
                    globallyUniqueId: nil, groupingKey: nil, threadId: nil, timestamp: 86400, flags: [.incoming],
                    tags: [], authorId: .user(7), author: nil, text: "see " + (page.url ?? ""), attributes: [],
                    media: [page]), chatName: "Bob")
        }
        let article = try #require(summaries[0].media)
        #expect(article.kind == "webpage" && article.title == "Title" && article.siteName == "Example")
        #expect(article.url == "http://example.com/a" && article.pageType == "article")
        #expect(article.width == 640 && article.height == 480)
        #expect(summaries[0].line().hasSuffix("see http://example.com/a [link preview Title · image 640×480]"))
        #expect(summaries[1].media?.kind == "webpage_pending")
        #expect(summaries[1].line().hasSuffix("[link preview coming http://example.com/b]"), "\(summaries[1].line())")
    }

    @Test func watchEventsKeepEveryKeyOnEveryLine() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let deleted = WatchEventSummary(.deleted(.user(7), [3, 4])) { _ in "Bob" }
        #expect(deleted.line == "deleted user:7: 3, 4")
        #expect(
            String(decoding: try encoder.encode(deleted), as: UTF8.self)
                == #"{"chat":"user:7","event":"deleted","ids":[3,4],"message":null,"readBy":null,"readUpTo":null,"user":null,"userName":null}"#)
        let read = WatchEventSummary(.read(.group(9), upTo: 12, byMe: false)) { _ in "Soup club" }
        #expect(read.line == "read chat:9 up to 12 by them")
        #expect(
            String(decoding: try encoder.encode(read), as: UTF8.self)
                == #"{"chat":"chat:9","event":"read","ids":null,"message":null,"readBy":"them","readUpTo":12,"user":null,"userName":null}"#)
    }

    /// Service messages: Telegram's action names, the title and users they concern, every key present, in words.
    @Test func serviceMessagesNameTheirAction() throws {
        let renamed = ActionSummary(.titleUpdated(title: "Trip 2"))
        #expect(renamed == ActionSummary(type: "chatEditTitle", title: "Trip 2", users: []))
        #expect(renamed.label() == "changed the title to “Trip 2”")
        let left = ActionSummary(.removedMembers(peerIds: [.user(7)]))
        #expect(left.type == "chatDeleteUser" && left.users == ["user:7"] && left.label() == "removed user:7")
        #expect(left.label(from: "user:7") == "left" && left.label(from: "user:8") == "removed user:7")
        #expect(ActionSummary(.addedMembers(peerIds: [.user(7)])).label(from: "user:7") == "joined")
        #expect(ActionSummary(.groupCreated(title: "Trip")).type == "chatCreate")
        #expect(ActionSummary(.unsupported(constructor: "messageActionGiftPremium")).type == "giftPremium")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(
            String(decoding: try encoder.encode(ActionSummary(.pinnedMessageUpdated)), as: UTF8.self)
                == #"{"title":null,"type":"pinMessage","users":[]}"#)
    }

    /// `tg admin --rights` names and `tg ban --until` times.
    @Test func adminRightNamesAndBanTimes() throws {
        let rights = try AdminRightNames.parse("post, edit,ban_users,PIN").get()
        #expect(rights == [.canPostMessages, .canEditMessages, .canBanUsers, .canPinMessages])
        #expect(AdminRightNames.names(rights) == ["post", "edit", "ban", "pin"])
        guard case .failure(let unknown) = AdminRightNames.parse("post,fly") else {
            Issue.record("'fly' was taken as a right")
            return
        }
        #expect(unknown.name == "fly")
        #expect(try AdminRightNames.parse("").get() == [])
        let now: Int32 = 1_800_000_000
        #expect(BanUntil.parse("90s", now: now) == now + 90)
        #expect(BanUntil.parse("30m", now: now) == now + 1_800)
        #expect(BanUntil.parse("12h", now: now) == now + 43_200)
        #expect(BanUntil.parse("7d", now: now) == now + 604_800)
        #expect(BanUntil.parse("1900000000", now: now) == 1_900_000_000)
        for bad in ["", "d", "-5m", "5w", "0h", "99999999d", "soon"] {
            #expect(BanUntil.parse(bad, now: now) == nil, "\(bad)")
        }
    }

    func entity(_ json: String) throws -> EntitySummary {
        try JSONDecoder().decode(EntitySummary.self, from: Data(json.utf8))
    }
}

/// The error `body` throws, if any.
func thrownError(_ body: () throws -> some Any) -> (any Error)? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}
