import Foundation
import Logging
import MTProtoCore
import SecretFiles
import ServerStore

/// What APNs would carry to a registered device, written as files (tg-server `--push-dir DIR`): one file per push in
/// `DIR/<token>/`, written to a temporary name, synced and renamed, so a reader never sees half of one. The file is
/// `{"p":"<base64url>"}` (core.telegram.org "Handling PUSH-notifications", encrypted notifications): the payload
/// encrypted with the device's secret (`PushPayloadCrypto`), holding Telegram's fields — `loc_key`, `loc_args` and
/// `custom` with the message id, the sender and the chat.
struct PushFiles: Sendable {
    /// One push waiting for its transaction to commit.
    struct Pending: Sendable {
        let device: PushDeviceRecord
        let fileName: String
        let payload: [UInt8]
    }

    let directory: URL

    /// The JSON inside a push for `message` (a copy in the recipient's box), from `sender` in `chatTitle` (basic
    /// groups) — Telegram's `MESSAGE_TEXT` / `CHAT_MESSAGE_TEXT`, `MESSAGE_NOTEXT` / `CHAT_MESSAGE_NOTEXT` for media.
    ///
    /// `muted`: the recipient has the chat muted; the push is then the silent background one Telegram sends for a
    /// muted chat (core.telegram.org "Handling PUSH-notifications", `registerDevice.no_muted`): no `loc_key` and no
    /// `loc_args`, so there is nothing to show, only `custom` for the app to fetch the message.
    static func payload(
        for message: MessageRecord, sender: UserRecord, chatTitle: String?, muted: Bool = false
    )
        -> [UInt8]
    {
        let name = [sender.firstName, sender.lastName].filter { !$0.isEmpty }.joined(separator: " ")
        let hasText = !message.text.isEmpty
        var custom: [String: Any] = [
            "msg_id": String(message.id), "from_id": String(sender.id), "date": String(message.date),
        ]
        let locKey: String
        var locArgs = [name]
        if let chatTitle {
            custom["chat_id"] = String(message.peer.id)
            locKey = hasText ? "CHAT_MESSAGE_TEXT" : "CHAT_MESSAGE_NOTEXT"
            locArgs.append(chatTitle)
        } else {
            locKey = hasText ? "MESSAGE_TEXT" : "MESSAGE_NOTEXT"
        }
        if hasText { locArgs.append(message.text) }
        let object: [String: Any] =
            muted ? ["custom": custom] : ["loc_key": locKey, "loc_args": locArgs, "custom": custom]
        // Strings, arrays and dictionaries only: serialization cannot fail.
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data()
        return Array(data)
    }

    /// Encrypts each pending push with its device's secret and writes it. A device whose folder cannot be written is
    /// skipped (a push is best effort, as APNs is); the error is returned for the log.
    func write(_ pending: [Pending]) -> [Error] {
        var errors: [Error] = []
        for push in pending {
            guard let key = NotificationKey(bytes: push.device.secret) else { continue }
            let encrypted = PushPayloadCrypto.encrypt(push.payload, key: key)
            let file = Array("{\"p\":\"\(Self.base64URL(encrypted))\"}".utf8)
            let folder = directory.appendingPathComponent(push.device.token).path
            do {
                try SecretFile.createDirectory(folder)
                try SecretFile.write(file, to: folder + "/" + push.fileName)
            } catch {
                errors.append(error)
            }
        }
        return errors
    }

    /// Base64 with the URL alphabet and no padding, as Telegram sends `p`.
    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(
            of: "/", with: "_"
        )
        .replacingOccurrences(of: "=", with: "")
    }
}

extension ServerBackend {
    /// The pushes `copies` (one message in every box) make for their recipients' registered devices, other than the
    /// sender's own box; empty without a push folder.
    func pendingPushes(_ copies: [Landed], sender: Int64, tx: StoreTransaction) throws -> [PushFiles.Pending] {
        guard pushFiles != nil else { return [] }
        var pending: [PushFiles.Pending] = []
        for copy in copies where copy.message.owner != sender && copy.message.action == nil {
            let devices = try tx.pushDevices(userId: copy.message.owner)
            guard !devices.isEmpty, let user = try tx.user(id: sender) else { continue }
            let title = copy.message.peer.kind == .chat ? try tx.chat(id: copy.message.peer.id)?.title ?? "" : nil
            let muted = try isMuted(owner: copy.message.owner, peer: copy.message.peer, at: now, tx: tx)
            let payload = PushFiles.payload(for: copy.message, sender: user, chatTitle: title, muted: muted)
            for device in devices {
                let name = String(format: "%d-%010d.json", copy.message.owner, copy.message.id)
                pending.append(.init(device: device, fileName: name, payload: payload))
            }
        }
        return pending
    }

    /// Writes pushes after their transaction committed.
    func deliverPushFiles(_ pending: [PushFiles.Pending]) {
        guard let pushFiles, !pending.isEmpty else { return }
        for error in pushFiles.write(pending) { logger.warning("push file not written: \(error)") }
    }
}
