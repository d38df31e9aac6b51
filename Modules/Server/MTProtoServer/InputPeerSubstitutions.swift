public import TLRuntime
import TelegramApi

extension TLConstructorSubstitutions {
    /// How the server reads API calls beyond the schema, as Telegram does: an `InputPeer` where the schema names an
    /// `InputUser` or an `InputChannel`. Pyrogram-family clients send one for the other (Pyrogram's
    /// `pyrogram/methods/users/get_users.py` passes `resolve_peer`'s `InputPeerUser` / `InputPeerSelf` to
    /// `users.getUsers`; `messages.createChat`, `users.getFullUser`, `contacts.block` likewise), and Telegram serves
    /// them. Each pair has the same fields in the same order, so only the constructor id is read differently:
    ///
    /// | sent | read as |
    /// |---|---|
    /// | `inputPeerEmpty#7f3b18ea` | `inputUserEmpty#b98886cf`, `inputChannelEmpty#ee8c1e86` |
    /// | `inputPeerSelf#7da07ec9` | `inputUserSelf#f7c1b13f` |
    /// | `inputPeerUser#dde8a54c` (user_id, access_hash) | `inputUser#f21158c6` |
    /// | `inputPeerUserFromMessage#a87b0a1c` (peer, msg_id, user_id) | `inputUserFromMessage#1da448e2` |
    /// | `inputPeerChannel#27bcbbfc` (channel_id, access_hash) | `inputChannel#f35aec28` |
    /// | `inputPeerChannelFromMessage#bd2a0840` (peer, msg_id, channel_id) | `inputChannelFromMessage#5b934f9d` |
    ///
    /// An `InputPeer` of the other kind (`inputPeerChat`, a channel where a user is expected) stays unknown there
    /// and the call is refused as before.
    public static let inputPeerForInputUserAndChannel: TLConstructorSubstitutions = {
        var rules = TLConstructorSubstitutions()
        rules.read(0x7f3b18ea, as: 0xb98886cf, where: Api.InputUser.self)
        rules.read(0x7da07ec9, as: 0xf7c1b13f, where: Api.InputUser.self)
        rules.read(0xdde8a54c, as: 0xf21158c6, where: Api.InputUser.self)
        rules.read(0xa87b0a1c, as: 0x1da448e2, where: Api.InputUser.self)
        rules.read(0x7f3b18ea, as: 0xee8c1e86, where: Api.InputChannel.self)
        rules.read(0x27bcbbfc, as: 0xf35aec28, where: Api.InputChannel.self)
        rules.read(0xbd2a0840, as: 0x5b934f9d, where: Api.InputChannel.self)
        return rules
    }()
}
