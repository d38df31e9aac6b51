import FoundationEssentials
public import Postbox
import SyncCore

/// What one push says, decrypted (core.telegram.org "Handling PUSH-notifications": `loc_key`, `loc_args`, and
/// `custom` with `msg_id`, `from_id`, `chat_id`; ids come as strings, as Telegram sends them, or as numbers).
public struct PushNotification: Sendable, Equatable {
    /// The localization key: `MESSAGE_TEXT`, `CHAT_MESSAGE_TEXT`, `MESSAGE_NOTEXT`, …; empty for a background push.
    public let locKey: String
    public let locArgs: [String]
    /// The message's id in the recipient's box (the cloud namespace).
    public let messageId: Int32
    /// The sender.
    public let fromId: Int64
    /// The chat: the sender in a private chat, the basic group otherwise.
    public let chatId: PeerId
    /// When it was sent, if the push says (`custom.date`).
    public let date: Int32?

    /// Whether this is a background push with nothing to show (no `loc_key`): what the server sends for a chat the
    /// account muted, unless the device registered with `no_muted` (core.telegram.org "Handling
    /// PUSH-notifications"); the app fetches the message.
    public var isBackground: Bool { locKey.isEmpty }

    /// The sender's name as the push gives it.
    public var senderName: String { locArgs.first ?? "" }
    /// The group's title, for a group message.
    public var chatTitle: String? {
        chatId.namespace == Namespaces.Peer.cloudGroup && locArgs.count > 1 ? locArgs[1] : nil
    }

    /// The message's text when the push carries it (`MESSAGE_TEXT`: the second argument; `CHAT_MESSAGE_TEXT`: the
    /// third); `nil` for the other kinds, whose content the app fetches.
    public var text: String? {
        switch locKey {
        case "MESSAGE_TEXT": return locArgs.count > 1 ? locArgs[1] : nil
        case "CHAT_MESSAGE_TEXT": return locArgs.count > 2 ? locArgs[2] : nil
        default: return nil
        }
    }

    /// The line a notification shows: "alice: text", "alice @ Group: text", or the kind for messages without text.
    public var preview: String {
        let who = chatTitle.map { "\(senderName) @ \($0)" } ?? senderName
        return "\(who): \(text ?? "sent you a message")"
    }

    /// Why a decrypted payload is not a push this service understands.
    public struct FormatError: Error, Equatable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    private struct Wire: Decodable {
        let loc_key: String?
        let loc_args: [String]?
        let custom: Custom?

        struct Custom: Decodable {
            let msg_id: FlexibleInteger?
            let from_id: FlexibleInteger?
            let chat_id: FlexibleInteger?
            let date: FlexibleInteger?
        }
    }

    /// A JSON integer, or a string holding one.
    private struct FlexibleInteger: Decodable {
        let value: Int64

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Int64.self) {
                value = number
            } else if let text = try? container.decode(String.self), let number = Int64(text) {
                value = number
            } else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an integer")
            }
        }
    }

    /// Parses the decrypted JSON.
    public init(json: [UInt8]) throws(FormatError) {
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: Data(json))
        } catch {
            throw FormatError(reason: "the decrypted payload is not Telegram's push JSON")
        }
        let locKey = wire.loc_key ?? ""
        if locKey.isEmpty, wire.loc_args?.isEmpty == false {
            throw FormatError(reason: "the push has loc_args but no loc_key")
        }
        guard let custom = wire.custom, let messageId = custom.msg_id?.value, let fromId = custom.from_id?.value else {
            throw FormatError(reason: "the push has no custom.msg_id and custom.from_id")
        }
        guard let id = Int32(exactly: messageId), id > 0, fromId > 0 else {
            throw FormatError(reason: "custom.msg_id \(messageId) or custom.from_id \(fromId) is out of range")
        }
        self.locKey = locKey
        locArgs = wire.loc_args ?? []
        self.messageId = id
        self.fromId = fromId
        if let chat = custom.chat_id?.value {
            guard chat > 0 else { throw FormatError(reason: "custom.chat_id \(chat) is out of range") }
            chatId = .group(chat)
        } else {
            chatId = .user(fromId)
        }
        date = custom.date.flatMap { Int32(exactly: $0.value) }
        guard !senderName.isEmpty || locKey.isEmpty else {
            throw FormatError(reason: "the push names no sender (loc_args is empty)")
        }
    }
}

/// The file APNs would deliver: `{"p": "<base64url>"}` around the encrypted payload.
public enum PushEnvelope {
    private struct Wire: Decodable { let p: String }

    /// The encrypted bytes inside `file`.
    public static func encryptedPayload(of file: [UInt8]) throws(PushNotification.FormatError) -> [UInt8] {
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: Data(file))
        } catch {
            throw PushNotification.FormatError(reason: "not a push file ({\"p\": \"<base64>\"} expected)")
        }
        guard let bytes = Base64.decode(wire.p) else {
            throw PushNotification.FormatError(reason: "\"p\" is not base64")
        }
        return bytes
    }
}
