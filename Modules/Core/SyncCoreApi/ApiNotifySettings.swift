import Postbox
public import SyncCore
public import TelegramApi

extension TelegramPeerNotificationSettings {
    /// A `PeerNotifySettings` as stored (Telegram-iOS `TelegramPeerNotificationSettings(apiSettings:)`): mute date,
    /// silent and previews; sounds and stories are not kept.
    public init(apiSettings: Api.PeerNotifySettings) {
        switch apiSettings {
        case .peerNotifySettings(let body):
            self.init(muteUntil: body.muteUntil, silent: body.silent, showPreviews: body.showPreviews)
        }
    }

    /// As `account.updateNotifySettings` sends it.
    public var apiInputSettings: Api.InputPeerNotifySettings {
        .inputPeerNotifySettings(.init(showPreviews: showPreviews, silent: silent, muteUntil: muteUntil))
    }
}
