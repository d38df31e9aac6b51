import ArgumentParser
import Dispatch
import Foundation
import Postbox
import SyncCore

/// `add-message`: what a notification service does with one push — open the shared Postbox with a small cache, store
/// one message in one transaction, and leave. Processes with live views open on the same database notice the write.
struct AddMessage: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-message",
        abstract: "Store one message in one transaction (as a notification service would) and print when it committed.",
        discussion: """
            Prints `committed <peer>:<namespace>_<id> started <ns>`, where <ns> is the monotonic clock (the clock \
            DispatchTime reads) just before the write transaction began, so another process can measure how soon \
            after the write it noticed.
            """)
    @OptionGroup var account: AccountOptions
    @Option(help: "The chat (a user id, namespace 0).") var peer: Int64
    @Option(help: "The message id (cloud namespace).") var id: Int32
    @Option(help: "The message text.") var text = "new message"
    @Option(help: "The timestamp (default: id × 10).") var timestamp: Int32?
    @Flag(help: "Mark the message as incoming (it counts as unread).") var incoming = false

    func run() throws {
        try runTool {
            let peerId = PeerId(namespace: .init(rawValue: 0), id: .init(rawValue: peer))
            let postbox = try account.open()
            let message = StoreMessage(
                id: .id(MessageId(peerId: peerId, namespace: 0, id: id)), timestamp: timestamp ?? id * 10,
                flags: incoming ? [.incoming] : [], authorId: peerId, text: text)
            let started = DispatchTime.now().uptimeNanoseconds
            try postbox.transactionSync { tx in
                if try tx.getPeer(peerId) == nil {
                    try tx.updatePeers([
                        TelegramUser(
                            id: peerId, accessHash: nil, firstName: "user \(peer)", lastName: nil, username: nil,
                            phone: nil)
                    ])
                }
                try tx.addMessages([message])
            }
            print("committed \(peerId):0_\(id) started \(started)")
        }
    }
}
