import Foundation
public import Postbox
import SyncCore
public import TelegramCore

/// What `tg mute` / `tg unmute` do (TelegramCore's `Account.updateNotifySettings`), shared by the command-line tool.
public enum NotifyCommands {
    /// How long a mute lasts: `8h`, `30m`, `2d`, `1w`, or `forever`; `nil` for anything else.
    public static func duration(_ text: String) -> Int32?? {
        if text == "forever" { return .some(nil) }
        guard let unit = text.last, let count = Int32(text.dropLast()), count > 0 else { return nil }
        let seconds: Int32
        switch unit {
        case "m": seconds = 60
        case "h": seconds = 3600
        case "d": seconds = 86_400
        case "w": seconds = 604_800
        default: return nil
        }
        let (total, overflow) = count.multipliedReportingOverflow(by: seconds)
        return overflow ? nil : .some(total)
    }

    /// Mutes `peerId`'s chat for `seconds` from `now` (`nil`: forever), or unmutes it with `mute` false; returns the
    /// `mute_until` sent (0 unmuted).
    @discardableResult
    public static func set(
        _ account: Account, _ peerId: PeerId, mute: Bool, seconds: Int32? = nil, now: Int32? = nil
    ) async throws(ClientError) -> Int32 {
        let now = now ?? Int32(Date().timeIntervalSince1970)
        guard !SecretChatting.isSecret(peerId) else {
            throw .badInput("a secret chat's notify settings are not kept by the server")
        }
        let until: Int32 =
            !mute
            ? 0
            : seconds.map { Int32(clamping: Int64(now) + Int64($0)) }
                ?? TelegramPeerNotificationSettings
                .mutedForever
        try await ChannelCommands.run(mute ? "muting the chat" : "unmuting the chat") {
            () async throws(PeerActionError) in
            try await account.updateNotifySettings(peerId, muteUntil: until)
        }
        return until
    }
}
