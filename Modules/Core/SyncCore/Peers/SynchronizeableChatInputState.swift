/// A chat's draft as the server keeps it for every device of the account (Telegram-iOS
/// `SynchronizeableChatInputState`, the `synchronizeableInputState` of its `ChatInterfaceState`; core.telegram.org
/// "Message drafts"): the text with its entities, the message it replies to, and when it was saved.
public struct SynchronizeableChatInputState: Hashable, Sendable {
    public var text: String
    public var entities: [MessageTextEntity]
    public var replyToMessageId: Int32?
    public var noWebpage: Bool
    public var timestamp: Int32

    public init(
        text: String, entities: [MessageTextEntity] = [], replyToMessageId: Int32? = nil, noWebpage: Bool = false,
        timestamp: Int32
    ) {
        self.text = text
        self.entities = entities
        self.replyToMessageId = replyToMessageId
        self.noWebpage = noWebpage
        self.timestamp = timestamp
    }
}
