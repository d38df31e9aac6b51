import Postbox
import PostboxTesting
import Testing

@testable import SyncCore

/// A new encrypted Postbox in a temporary directory named after `prefix`.
func openEncryptedPostbox(_ prefix: String) throws -> (Postbox, TemporaryDirectory) {
    let directory = TemporaryDirectory(prefix: prefix)
    let key = try PostboxEncryptionParameters(key: Array(0..<32), salt: Array(32..<48))
    return (try Postbox.open(accountPath: directory.path + "/account-1", encryption: key), directory)
}

/// The hole below a chat's first stored cloud messages: made when no cloud message of the chat is stored yet (local or
/// scheduled ones do not count, they say nothing of the chat's history), and not again once one is.
@Suite struct CloudHoleSpacesTests {
    init() { registerSyncCoreTypes() }

    static func message(_ chat: PeerId, _ namespace: MessageId.Namespace, _ id: Int32) -> StoreMessage {
        StoreMessage(
            id: .id(MessageId(peerId: chat, namespace: namespace, id: id)), timestamp: id, flags: [.incoming],
            tags: [], authorId: chat, text: "m \(id)")
    }

    @Test func aHoleGoesBelowTheFirstCloudMessagesOfAChat() throws {
        let (postbox, directory) = try openEncryptedPostbox("cloud-holes")
        defer { directory.remove() }
        let scheduledOnly = PeerId.user(1)
        let stored = PeerId.user(2)
        let fresh = PeerId.user(3)
        try postbox.transactionSync { tx in
            _ = try tx.addMessages([
                Self.message(scheduledOnly, Namespaces.Message.scheduledCloud, 7),
                Self.message(stored, Namespaces.Message.cloud, 40),
            ])
        }
        let holes = try postbox.transactionSync { tx -> [[ClosedRange<Int32>]] in
            let arriving = [
                Self.message(scheduledOnly, Namespaces.Message.cloud, 50),
                Self.message(stored, Namespaces.Message.cloud, 60),
                Self.message(fresh, Namespaces.Message.cloud, 30), Self.message(fresh, Namespaces.Message.cloud, 20),
            ]
            try CloudHoleSpaces.addHolesBelowFirstMessages(arriving, transaction: tx)
            return try [scheduledOnly, stored, fresh].map {
                try tx.getHoles(peerId: $0, namespace: Namespaces.Message.cloud)
            }
        }
        #expect(holes[0] == [1...49], "a scheduled message says nothing of the history below")
        #expect(holes[1] == [], "a chat with cloud messages stored already has its holes")
        #expect(holes[2] == [1...19])
    }
}
