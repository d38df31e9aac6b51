import CryptoUtils
import Foundation
import MTProtoCore
import Postbox
import PostboxTesting
import PushNotifications
import SyncCore
import Testing

/// The device side without a server: a push file made as tg-server makes it, opened and stored in an account's
/// Postbox; every bad input refused before anything is opened, with the files unchanged.
@Suite struct NotificationServiceTests {
    /// An installation with one account (id 7, signed in as user 1000) and its notification key.
    struct Installation {
        let root = TemporaryDirectory(prefix: "push")
        let layout: AccountsLayout
        let key = NotificationKey.generate()
        let accountId: Int64 = 7

        init() throws {
            registerSyncCoreTypes()
            layout = AccountsLayout(rootPath: root.path)
            try FileManager.default.createDirectory(atPath: layout.postboxKeysPath, withIntermediateDirectories: true)
            let keyFile = PostboxKeyFile(path: layout.postboxKeyPath(accountId))
            try keyFile.create(try PostboxEncryptionParameters(keyAndSalt: SecureRandom.bytes(48)))
            let postbox = try Postbox.open(
                accountPath: layout.accountPath(accountId), keyFile: keyFile, globalMessageIds: Namespaces.globalMessageIds)
            try postbox.transactionSync { tx in
                try tx.updatePeers([TelegramUser(id: .user(1000), accessHash: nil, firstName: "Bob", lastName: nil, username: nil, phone: nil)])
            }
            try NotificationKeyStore(layout: layout).save(key, accountId: accountId)
        }

        func postbox() throws -> Postbox {
            try Postbox.open(
                accountPath: layout.accountPath(accountId), keyFile: PostboxKeyFile(path: layout.postboxKeyPath(accountId)),
                globalMessageIds: Namespaces.globalMessageIds)
        }

        /// SHA-256 of every file of the account and the metadata.
        func fingerprint() throws -> [String: [UInt8]] {
            var result: [String: [UInt8]] = [:]
            let enumerator = FileManager.default.enumerator(atPath: root.path)
            while let name = enumerator?.nextObject() as? String {
                var isDirectory: ObjCBool = false
                let path = root.path + "/" + name
                if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                    result[name] = Digest.sha256(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
                }
            }
            return result
        }
    }

    static func pushFile(_ json: String, key: NotificationKey) -> [UInt8] {
        let sealed = PushPayloadCrypto.encrypt(Array(json.utf8), key: key)
        let base64 = Data(sealed).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return Array("{\"p\":\"\(base64)\"}".utf8)
    }

    static let text = "Tối nay ăn phở không?"
    static let json = """
        {"custom":{"date":"1800000000","from_id":"2000","msg_id":"3"},"loc_args":["alice","\(text)"],"loc_key":"MESSAGE_TEXT"}
        """

    @Test func aPushIsStoredOnceWithTheChatListAndUnreadCountRight() throws {
        let installation = try Installation()
        let service = NotificationService(rootPath: installation.root.path)
        let opened = try service.open(Self.pushFile(Self.json, key: installation.key))
        #expect(opened.accountId == installation.accountId)
        #expect(opened.push.preview == "alice: \(Self.text)")
        let stored = try service.store(opened)
        let id = MessageId(peerId: .user(2000), namespace: Namespaces.Message.cloud, id: 3)
        #expect(stored.outcome == .stored(id))
        #expect(try service.store(opened).outcome == .alreadyStored(id))
        let postbox = try installation.postbox()
        try postbox.readTransactionSync { tx in
            let message = try #require(try tx.getMessage(id))
            #expect(message.text == Self.text && message.timestamp == 1_800_000_000 && message.flags.contains(.incoming))
            #expect(message.isFromNotification)
            #expect((message.author as? TelegramUser)?.firstName == "alice")
            #expect(try tx.chatListEntries(before: nil, count: 10).map(\.messageIndex.id) == [id])
            #expect(try tx.getCombinedPeerReadState(.user(2000))?.count == 1)
            // The chat was new: what came before the message is a hole, as the app marks a chat it first hears of.
            #expect(try tx.getHoles(peerId: .user(2000), namespace: Namespaces.Message.cloud).contains { $0.contains(1) && $0.contains(2) })
        }
    }

    @Test func groupMessagesAndNumbersInCustomAreUnderstood() throws {
        let push = try PushNotification(json: Array("""
            {"custom":{"chat_id":55,"from_id":2000,"msg_id":9},"loc_args":["alice","Phở club","ăn thôi"],"loc_key":"CHAT_MESSAGE_TEXT"}
            """.utf8))
        #expect(push.chatId == .group(55) && push.messageId == 9 && push.text == "ăn thôi")
        #expect(push.preview == "alice @ Phở club: ăn thôi")
        let media = try PushNotification(json: Array(#"{"custom":{"from_id":"5","msg_id":"2"},"loc_args":["Ann"],"loc_key":"MESSAGE_NOTEXT"}"#.utf8))
        #expect(media.text == nil && media.preview == "Ann: sent you a message")
    }

    @Test func aPushWithoutTextStoresNothingButIsShown() throws {
        let installation = try Installation()
        let service = NotificationService(rootPath: installation.root.path)
        let before = try installation.fingerprint()
        let json = #"{"custom":{"from_id":"2000","msg_id":"4"},"loc_args":["alice"],"loc_key":"MESSAGE_NOTEXT"}"#
        let stored = try service.store(try service.open(Self.pushFile(json, key: installation.key)))
        #expect(stored.outcome == .notStored(MessageId(peerId: .user(2000), namespace: Namespaces.Message.cloud, id: 4)))
        #expect(stored.preview == "alice: sent you a message")
        #expect(try installation.fingerprint() == before)
    }

    @Test func badInputIsRefusedAndChangesNothing() throws {
        let installation = try Installation()
        let service = NotificationService(rootPath: installation.root.path)
        let good = Self.pushFile(Self.json, key: installation.key)
        // Tampered: one ciphertext bit flipped inside the base64.
        var sealed = try #require(PushEnvelopeBytes.decode(good))
        sealed[40] ^= 0x10
        let tampered = PushEnvelopeBytes.encode(sealed)
        let cases: [(String, [UInt8], NotificationServiceError.Kind)] = [
            ("tampered", tampered, .tampered),
            ("unknown key", Self.pushFile(Self.json, key: NotificationKey.generate()), .unknownKey),
            ("truncated file", Array(good[0..<(good.count / 2)]), .malformed),
            ("truncated payload", PushEnvelopeBytes.encode(Array(sealed[0..<(sealed.count - 16)])), .tampered),
            ("not a push", Array("hello".utf8), .malformed),
            ("empty", [], .malformed),
            ("not JSON inside", Self.pushFile("not json", key: installation.key), .unsupported),
            ("no msg_id", Self.pushFile(#"{"custom":{"from_id":"1"},"loc_args":["a","b"],"loc_key":"MESSAGE_TEXT"}"#, key: installation.key), .unsupported),
        ]
        let before = try installation.fingerprint()
        for (name, file, kind) in cases {
            do {
                _ = try service.open(file)
                Issue.record("\(name): accepted")
            } catch {
                #expect(error.kind == kind, "\(name): \(error)")
                #expect(error.exitCode == 2)
                #expect(!error.reason.contains("\n"))
            }
        }
        #expect(try installation.fingerprint() == before)
        // Logged out: the key is gone, so a push made before is an unknown key.
        try NotificationKeyStore(layout: installation.layout).remove(accountId: installation.accountId)
        #expect(throws: NotificationServiceError.self) { try service.open(good) }
    }

    @Test func keysAreOwnerOnlyAndFoundByIdOrAccount() throws {
        let installation = try Installation()
        let store = NotificationKeyStore(layout: installation.layout)
        let path = installation.layout.notificationKeyPath(idHex: installation.key.idHex)
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)
        #expect(mode.intValue == 0o600)
        #expect(try store.entry(keyId: installation.key.id)?.accountId == installation.accountId)
        let replacement = NotificationKey.generate()
        try store.save(replacement, accountId: installation.accountId)
        #expect(try store.entry(keyId: installation.key.id) == nil)
        #expect(try store.entry(accountId: installation.accountId)?.key == replacement)
        try store.remove(accountId: installation.accountId)
        #expect(try store.entry(accountId: installation.accountId) == nil)
    }
}

/// Base64url around the encrypted bytes of a push file, for building bad ones.
enum PushEnvelopeBytes {
    static func decode(_ file: [UInt8]) -> [UInt8]? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(file)) as? [String: String], var text = object["p"] else { return nil }
        text = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        return Data(base64Encoded: text).map(Array.init)
    }

    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        Array("{\"p\":\"\(Data(bytes).base64EncodedString())\"}".utf8)
    }
}
