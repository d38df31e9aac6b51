import Foundation
public import Postbox
public import SwiftSignalKit
public import SyncCore
import SyncCoreApi
import TelegramApi

/// A chat's notify settings, kept by the server for every device of the account (core.telegram.org
/// `account.updateNotifySettings` / `account.getNotifySettings`; Telegram-iOS
/// `TelegramCore/Sources/TelegramEngine/Peers/UpdatePeerNotificationSettings.swift`). They are stored here at once
/// (`PeerNotificationSettingsEntry`), then sent; other devices get `updateNotifySettings`, which the update applier
/// stores the same way, and every dialog carries them.
extension Account {
    /// Mutes `peerId`'s chat until `muteUntil` (unix time; `TelegramPeerNotificationSettings.mutedForever`, or 0 to
    /// unmute), with `silent` notifications when given. The server's errors come as `.server`.
    public func updateNotifySettings(
        _ peerId: PeerId, muteUntil: Int32?, silent: Bool? = nil
    ) async throws(PeerActionError) {
        let peer = try storedInputPeer(peerId)
        let settings = TelegramPeerNotificationSettings(
            muteUntil: muteUntil == 0 ? nil : muteUntil, silent: silent,
            showPreviews: notificationSettings(peerId).showPreviews)
        do {
            try postbox.transactionSync { tx in
                try PeerNotificationSettingsEntry.set(settings, for: peerId, transaction: tx)
            }
        } catch {
            throw .storage("storing the notify settings: \(error)")
        }
        let saved = try await peerActionRequest(
            Api.functions.account.updateNotifySettings(
                peer: .inputNotifyPeer(.init(peer: peer)), settings: settings.apiInputSettings))
        guard saved else { throw .server("updateNotifySettings answered false") }
    }

    /// Asks the server for `peerId`'s settings (`account.getNotifySettings`) and stores them.
    @discardableResult
    public func refreshNotifySettings(
        _ peerId: PeerId
    ) async throws(PeerActionError)
        -> TelegramPeerNotificationSettings
    {
        let peer = try storedInputPeer(peerId)
        let answer = try await peerActionRequest(
            Api.functions.account.getNotifySettings(peer: .inputNotifyPeer(.init(peer: peer))))
        let settings = TelegramPeerNotificationSettings(apiSettings: answer)
        do {
            try postbox.transactionSync { tx in
                try PeerNotificationSettingsEntry.set(settings, for: peerId, transaction: tx)
            }
        } catch {
            throw .storage("storing the notify settings: \(error)")
        }
        return settings
    }

    /// Asks the server for the dialogs of `peerIds` (`messages.getPeerDialogs`, at most 100; secret chats and chats
    /// not stored are left out) and stores their `notify_settings`: they change with no pts, so an account that was
    /// not connected when another device changed them learns it here.
    public func refreshNotifySettings(of peerIds: [PeerId]) async throws(PeerActionError) {
        let accountPeerId = self.peerId
        let inputs: [(PeerId, Api.InputPeer)]
        do {
            inputs = try postbox.readTransactionSync { tx in
                try peerIds.prefix(100).compactMap { peerId in
                    try apiInputPeer(peerId, accountPeerId: accountPeerId, transaction: tx).map { (peerId, $0) }
                }
            }
        } catch {
            throw .storage("reading the account: \(error)")
        }
        guard !inputs.isEmpty else { return }
        let answer = try await peerActionRequest(
            Api.functions.messages.getPeerDialogs(peers: inputs.map { .inputDialogPeer(.init(peer: $0.1)) }))
        guard case .peerDialogs(let value) = answer else { return }
        do {
            try postbox.transactionSync { tx in
                for case .dialog(let dialog) in value.dialogs {
                    try PeerNotificationSettingsEntry.set(
                        TelegramPeerNotificationSettings(apiSettings: dialog.notifySettings), for: PeerId(dialog.peer),
                        transaction: tx)
                }
            }
        } catch {
            throw .storage("storing the notify settings: \(error)")
        }
    }

    /// The settings stored for `peerId`'s chat (the defaults when none are).
    public func notificationSettings(_ peerId: PeerId) -> TelegramPeerNotificationSettings {
        (try? postbox.readTransactionSync { tx in try PeerNotificationSettingsEntry.settings(peerId, transaction: tx) })
            ?? TelegramPeerNotificationSettings()
    }

    /// Every chat's stored settings, now and each time one changes.
    public var peerNotificationSettings: Signal<[PeerId: TelegramPeerNotificationSettings], NoError> {
        postbox.combinedView(keys: [.preferences([PeerNotificationSettingsEntry.key])])
            |> map { view in
                let preferences = view.views[.preferences([PeerNotificationSettingsEntry.key])] as? PreferencesView
                return (preferences?.values[PeerNotificationSettingsEntry.key] as? PeerNotificationSettingsEntry)?
                    .peers ?? [:]
            }
            |> distinctUntilChanged
    }
}
