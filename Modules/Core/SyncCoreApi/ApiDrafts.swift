import Postbox
public import SyncCore
public import TelegramApi

extension SynchronizeableChatInputState {
    /// A `DraftMessage` as stored (Telegram-iOS `SynchronizeableChatInputState(apiDraft:)`); `nil` for
    /// `draftMessageEmpty` or an empty text, which clear the chat's draft.
    public init?(apiDraft: Api.DraftMessage) {
        guard case .draftMessage(let draft) = apiDraft, !draft.message.isEmpty else { return nil }
        var reply: Int32?
        if case .inputReplyToMessage(let input)? = draft.replyTo { reply = input.replyToMsgId }
        self.init(
            text: draft.message, entities: (draft.entities ?? []).compactMap(MessageTextEntity.init),
            replyToMessageId: reply, noWebpage: draft.noWebpage, timestamp: draft.date)
    }
}
