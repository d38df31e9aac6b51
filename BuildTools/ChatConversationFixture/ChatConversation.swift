import AudioWaveform
public import ChatHistory
import Foundation
import ImageCore
import JPEGBinding
public import Postbox
public import ServerTestSupport
import SwiftSignalKit
import SyncCore
public import TelegramCore
import UpdateSequencing

/// A conversation made through tg-server for the chat-screen tests, benchmark and `make chat-png`: a tg-server backend
/// in this process with its sticker set, two of our own accounts signed up through the account manager (Ann on
/// 99966 2 1101, Bob on 99966 2 1102), and what they send each other — Ann two short texts; Bob text with bold, italic,
/// a URL and a mention, a reply to Ann, an album of three photos with a caption, the set's first sticker and a voice
/// note with a known waveform. Everything is waited for in Ann's Postbox (the receiving account), each wait with a
/// time limit.
public struct ChatConversation: Sendable {
    public let server: BackendServer
    public let manager: AccountManager
    /// The scratch folder (accounts, the photos sent); `close()` removes it.
    public let root: String
    public let ann: Account
    public let bob: Account

    /// The album's photos: their main colour (0xRRGGBB, which fills each photo's centre) and size.
    public static let photos: [(color: UInt32, width: Int, height: Int)] = [
        (0xE53935, 800, 600), (0x43A047, 600, 800), (0x1E88E5, 800, 600),
    ]
    /// The voice note's 100 waveform samples (0…31): five loud, five quiet, repeated.
    public static let waveformSamples: [UInt16] = (0..<100).map { $0 % 10 < 5 ? 31 : 3 }
    public static let voiceDuration: Int32 = 7
    /// The messages Ann's Postbox holds when the conversation is made.
    public static let messageCount = 9
    public static let greeting = "Hey Bob! Did you get the photos from the trip?"
    public static let entitiesText =
        "Yes! Hanoi was amazing — the whole album is on https://t.me/telegraph, ask @ann_demo"
    public static let replyText = "Sending them now 📸"
    public static let caption = "Hoàn Kiếm lake at dawn"

    /// Makes the conversation (about ten seconds against the in-process server).
    public static func make(name: String = "chat-conversation", timeout: Double = 120) async throws -> ChatConversation
    {
        let conversation = try await start(name: name, timeout: timeout)
        try await conversation.send(timeout: timeout)
        return conversation
    }

    /// Ann and Bob signed up on a new server, both caught up, nothing sent; `webPageAllow` is the server's
    /// `--webpage-allow` (`host:port` pairs link previews are fetched from).
    public static func start(
        name: String, webPageAllow: Set<String> = [], timeout: Double = 120
    ) async throws -> ChatConversation {
        let server = try await BackendServer(stickerSet: true, webPageAllow: webPageAllow)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let manager = try AccountManager(
            rootPath: root + "/accounts",
            environment: NetworkEnvironment(
                datacenters: server.endpoints, defaultMainDc: 2, publicKeys: server.publicKeys, group: server.group),
            stateConfiguration: .init(gapWait: 0.5))
        let ann = try await within(timeout, "Ann's sign-up") {
            try await signUp(manager, phone: "9996621101", name: "Ann")
        }
        let bob = try await within(timeout, "Bob's sign-up") {
            try await signUp(manager, phone: "9996621102", name: "Bob")
        }
        ann.start()
        bob.start()
        // Each account's first state before anything is sent: a message the server stores before Bob's first
        // `getState` is below that state, so it is history Bob would load, not an update he is pushed.
        try await wait("both accounts' first state", timeout: timeout) {
            ann.stateManager.hasCaughtUp && bob.stateManager.hasCaughtUp
        }
        return ChatConversation(server: server, manager: manager, root: root, ann: ann, bob: bob)
    }

    /// Ann and Bob add each other as contacts: Bob's id as Ann knows it, and Ann's as Bob knows it.
    public func introduce(timeout: Double = 120) async throws -> (bobId: PeerId, annId: PeerId) {
        let (ann, bob) = (self.ann, self.bob)
        guard
            let bobId = try await Self.within(
                timeout, "Ann finding Bob", { try await ann.importContact(phone: "9996621102", firstName: "Bob") }),
            let annId = try await Self.within(
                timeout, "Bob finding Ann", { try await bob.importContact(phone: "9996621101", firstName: "Ann") })
        else { throw ConversationError("the two accounts could not find each other") }
        return (bobId, annId)
    }

    /// Waits until Ann's messages with Bob satisfy `condition` (checked every 20 ms; an error after `timeout` s).
    public func waitForAnn(
        _ what: String, timeout: Double = 30, _ condition: ([Message]) throws -> Bool
    ) async throws {
        try await Self.wait(what, timeout: timeout) { try condition(try stored(ann, bob.peerId)) }
    }

    private func send(timeout: Double) async throws {
        let (ann, bob) = (self.ann, self.bob)
        let (bobId, annId) = try await introduce(timeout: timeout)

        // Ann writes first, two messages in a row.
        try ann.enqueue(
            [EnqueueMessage(text: Self.greeting), EnqueueMessage(text: "I can't wait to see them 🌅")], to: bobId)
        // Both of Ann's messages before Bob answers: waiting for the first alone let a loaded run store Bob's first
        // answer between them, which breaks Ann's run of two.
        do {
            try await Self.wait("Bob to receive Ann's two messages", timeout: timeout) {
                try stored(bob, annId).filter { $0.id.namespace == Namespaces.Message.cloud }.count == 2
            }
        } catch let error as ConversationError {
            // What each side holds and what Bob's state manager did: a loaded run has missed this wait twice.
            let sent = try stored(ann, bobId).map { "\($0.id.namespace):\($0.id.id)" }
            let received = try stored(bob, annId).map { "\($0.id.namespace):\($0.id.id)" }
            throw ConversationError(
                "\(error); Ann holds \(sent), Bob holds \(received); Bob's state manager: \(bob.stateManager.statistics)"
            )
        }
        guard let greeting = try stored(bob, annId).first(where: { $0.text == Self.greeting }) else {
            throw ConversationError("Bob has no greeting")
        }

        // Bob: entities, a reply, an album, a sticker and a voice note.
        let text = Self.entitiesText
        func range(_ word: String) -> Range<Int> {
            let start =
                text.range(of: word).map {
                    text.utf16.distance(
                        from: text.utf16.startIndex,
                        to: $0.lowerBound.samePosition(in: text.utf16) ?? text.utf16.startIndex)
                } ?? 0
            return start..<(start + word.utf16.count)
        }
        let entities = [
            MessageTextEntity(range: range("Hanoi"), type: .bold),
            MessageTextEntity(range: range("amazing"), type: .italic),
            MessageTextEntity(range: range("https://t.me/telegraph"), type: .url),
            MessageTextEntity(range: range("@ann_demo"), type: .mention),
        ]
        try bob.enqueue([EnqueueMessage(text: text, entities: entities)], to: annId)
        try bob.enqueue([EnqueueMessage(text: Self.replyText, replyTo: greeting.id)], to: annId)
        var images: [TelegramMediaImage] = []
        for (index, photo) in Self.photos.enumerated() {
            let path = root + "/photo\(index).jpg"
            let bytes = try JPEGEncoder.encode(
                Self.picture(photo.color, width: photo.width, height: photo.height), quality: 90)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            images.append(
                try bob.prepareImage(
                    path: path, dimensions: PixelDimensions(width: Int32(photo.width), height: Int32(photo.height))))
        }
        let key = EnqueueMessage.newGroupingKey()
        try bob.enqueue(
            images.enumerated().map {
                EnqueueMessage(text: $0.offset == 0 ? Self.caption : "", media: $0.element, groupingKey: key)
            },
            to: annId)
        let pack = try await Self.within(timeout, "tg-server's sticker set") {
            try await StickerPacks.fetch(.name("telegraph"), network: bob.network)
        }
        guard let sticker = pack.files.first else { throw ConversationError("tg-server's sticker set is empty") }
        try bob.enqueue([EnqueueMessage(text: "", media: sticker)], to: annId)
        let voicePath = root + "/voice.ogg"
        try Data(repeating: 0x4F, count: 4_000).write(to: URL(fileURLWithPath: voicePath))
        let waveform = AudioWaveform(samples: Self.waveformSamples, peak: 31).makeBitstream()
        let voice = try bob.prepareFile(
            path: voicePath, name: "voice.ogg", mimeType: "audio/ogg",
            attributes: [
                .audio(isVoice: true, duration: Self.voiceDuration, title: nil, performer: nil, waveform: waveform)
            ])
        try bob.enqueue([EnqueueMessage(text: "", media: voice)], to: annId)

        try await Self.wait("Ann to hold all \(Self.messageCount) messages", timeout: timeout) {
            let messages = try stored(ann, bobId)
            return messages.count == Self.messageCount
                && messages.allSatisfy { $0.id.namespace == Namespaces.Message.cloud }
        }
    }

    /// Ann's chat with Bob as history entries (`ChatHistoryEntries.make` over her history view, in UTC), once it holds
    /// `count` messages.
    public func entries(count: Int = messageCount, timeout: Double = 30) async throws -> [ChatHistoryEntry] {
        let views = LockedValue<MessageHistoryView?>(nil)
        let disposable = ann.historyView(peerId: bob.peerId).start(next: { view in views.withLock { $0 = view } })
        defer { disposable.dispose() }
        var view: MessageHistoryView?
        try await Self.wait("Ann's history view of the whole chat", timeout: timeout) {
            view = views.withLock { $0 }
            return view?.entries.count == count
        }
        guard let view else { throw ConversationError("no history view") }
        return ChatHistoryEntries.make(from: view)
    }

    /// Names for the screen: Ann (this account) and Bob.
    public var names: [PeerId: String] { [ann.peerId: "Ann", bob.peerId: "Bob"] }

    /// Shuts the accounts and the server down and removes the scratch folder.
    public func close() async {
        await ann.shutdown()
        await bob.shutdown()
        try? await server.close()
        try? FileManager.default.removeItem(atPath: root)
    }

    // MARK: - Helpers

    /// A photo: `color` everywhere but a pale sun in the top-left quarter (the centre keeps `color`).
    static func picture(_ color: UInt32, width: Int, height: Int) -> Bitmap {
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        let (r, g, b) = (UInt8(color >> 16 & 0xFF), UInt8(color >> 8 & 0xFF), UInt8(color & 0xFF))
        let sunX = Double(width) * 0.25, sunY = Double(height) * 0.25, sunRadius = Double(min(width, height)) * 0.12
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let dx = Double(x) - sunX, dy = Double(y) - sunY
                let inSun = dx * dx + dy * dy < sunRadius * sunRadius
                rgba[i] = inSun ? 255 : r
                rgba[i + 1] = inSun ? 236 : g
                rgba[i + 2] = inSun ? 170 : b
            }
        }
        return Bitmap(width: width, height: height, straightRGBA: rgba) ?? Bitmap(width: width, height: height)
    }

    private static func signUp(_ manager: AccountManager, phone: String, name: String) async throws -> Account {
        let unauthorized = try manager.addUnauthorizedAccount()
        let authorization = manager.authorization(unauthorized)
        _ = try await authorization.sendCode(phoneNumber: phone).get()
        _ = try await authorization.signIn(code: String(repeating: Array(phone)[5], count: 5)).get()
        _ = try await authorization.signUp(firstName: name, lastName: "").get()
        return try manager.account(unauthorized.id)
    }

    private func stored(_ account: Account, _ peer: PeerId) throws -> [Message] {
        try account.postbox.readTransactionSync { tx in try tx.earlierMessages(peerId: peer, before: nil, count: 1_000)
        }
    }

    /// `operation`'s result, or an error after `seconds` (the operation is cancelled).
    static func within<T: Sendable>(
        _ seconds: Double, _ what: String, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw ConversationError("\(what): not within \(seconds) s")
            }
            return value
        }
    }

    /// Polls `condition` every 20 ms until it holds; throws after `timeout` seconds.
    static func wait(_ what: String, timeout: Double, _ condition: () throws -> Bool) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try !condition() {
            guard Date() < deadline else { throw ConversationError("\(what): not within \(timeout) s") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// A step of the conversation that did not happen.
public struct ConversationError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
