import ArgumentParser
import Dispatch
import Foundation
import Postbox
import SwiftSignalKit

/// `watch-chat-list`: what an app with its chat list open sees while another process (the notification service)
/// writes: one line per emission of the live chat-list view, stamped with the monotonic clock, until the time is up.
struct WatchChatList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch-chat-list",
        abstract: "Keep the chat list open and print each update (to watch another process's writes arrive).",
        discussion: """
            Prints `chat-list <ns> <entries> <peer>:<top message id> unread=<n>` per emission (the first chat; `-` \
            when the list is empty), <ns> being the monotonic clock (the clock DispatchTime reads) when it arrived. \
            The first line is the view as opened. Stops after --seconds (or when killed).
            """)
    @OptionGroup var account: AccountOptions
    @Option(help: "How many chats the view holds.") var count = 20
    @Option(help: "Stop after this many seconds.") var seconds = 60.0

    func run() throws {
        try runTool {
            let postbox = try account.open()
            let disposable = postbox.tailChatListView(count: count).start(next: { view in
                let now = DispatchTime.now().uptimeNanoseconds
                let top =
                    view.entries.first.map { entry in
                        "\(entry.peerId):\(entry.topMessage.map { String($0.id.id) } ?? "-") unread=\(entry.unreadCount)"
                    } ?? "-"
                // Unbuffered, so the watching process sees each line as soon as the view emitted.
                FileHandle.standardOutput.write(Data("chat-list \(now) \(view.entries.count) \(top)\n".utf8))
            })
            Thread.sleep(forTimeInterval: seconds)
            disposable.dispose()
        }
    }
}
