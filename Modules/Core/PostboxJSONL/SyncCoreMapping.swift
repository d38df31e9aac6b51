import Postbox
import SyncCore

/// How a JSON line's media and entities become the product's types (SyncCore) and back.
enum SyncCoreMapping {
    /// The media kinds a line may name.
    static let mediaKinds = ["photo", "video", "file", "voice", "music", "gif", "sticker", "round"]

    /// The entity type names a line may use (Telegram's `MessageEntity` names without the prefix).
    static let entityTypes = [
        "bold", "italic", "underline", "strikethrough", "spoiler", "code", "pre", "url", "textUrl", "email", "mention",
        "hashtag", "cashtag", "botCommand", "phoneNumber", "bankCard", "blockquote", "textMention", "customEmoji",
    ]

    static func media(_ line: MessageLine.MediaLine, message id: Int32) -> Media {
        let fileId = line.id ?? Int64(id)
        let resource = TelegramMediaResource.localFile(fileId: fileId, size: line.size)
        if line.kind == "photo" {
            return TelegramMediaImage(
                imageId: MediaId(namespace: Namespaces.Media.localImage, id: fileId),
                representations: [
                    TelegramMediaImageRepresentation(
                        dimensions: PixelDimensions(width: 1280, height: 960), resource: resource, type: "y",
                        byteSize: line.size)
                ])
        }
        var attributes: [TelegramMediaFileAttribute] = []
        var mimeType = "application/octet-stream"
        switch line.kind {
        case "video":
            attributes.append(
                .video(
                    duration: 0, size: PixelDimensions(width: 1280, height: 720), isRoundMessage: false,
                    supportsStreaming: true, noSound: false))
            mimeType = "video/mp4"
        case "round":
            attributes.append(
                .video(
                    duration: 0, size: PixelDimensions(width: 240, height: 240), isRoundMessage: true,
                    supportsStreaming: false, noSound: false))
            mimeType = "video/mp4"
        case "voice":
            attributes.append(.audio(isVoice: true, duration: 0, title: nil, performer: nil, waveform: nil))
            mimeType = "audio/ogg"
        case "music":
            attributes.append(.audio(isVoice: false, duration: 0, title: nil, performer: nil, waveform: nil))
            mimeType = "audio/mpeg"
        case "gif":
            attributes += [
                .animated,
                .video(
                    duration: 0, size: PixelDimensions(width: 320, height: 240), isRoundMessage: false,
                    supportsStreaming: false, noSound: true),
            ]
            mimeType = "video/mp4"
        case "sticker":
            attributes.append(.sticker(displayText: "", packReference: nil, isMask: false))
            mimeType = "image/webp"
        default:
            break
        }
        if let name = line.name { attributes.append(.fileName(name)) }
        return TelegramMediaFile(
            fileId: MediaId(namespace: Namespaces.Media.localFile, id: fileId), resource: resource, mimeType: mimeType,
            size: line.size, attributes: attributes)
    }

    static func line(_ media: Media) -> MessageLine.MediaLine? {
        if let image = media as? TelegramMediaImage {
            return .init(kind: "photo", size: image.representations.first?.byteSize, id: image.imageId.id)
        }
        guard let file = media as? TelegramMediaFile else { return nil }
        let kind: String
        if file.isSticker {
            kind = "sticker"
        } else if file.isAnimated {
            kind = "gif"
        } else if file.isInstantVideo {
            kind = "round"
        } else if file.isVideo {
            kind = "video"
        } else if file.isVoice {
            kind = "voice"
        } else if file.isMusic {
            kind = "music"
        } else {
            kind = "file"
        }
        return .init(kind: kind, name: file.fileName, size: file.size, id: file.fileId.id)
    }

    static func entity(_ line: MessageLine.EntityLine) -> MessageTextEntity? {
        let type: MessageTextEntityType
        switch line.type {
        case "bold": type = .bold
        case "italic": type = .italic
        case "underline": type = .underline
        case "strikethrough": type = .strikethrough
        case "spoiler": type = .spoiler
        case "code": type = .code
        case "pre": type = .pre(language: line.language)
        case "url": type = .url
        case "textUrl": type = .textUrl(url: line.url ?? "")
        case "email": type = .email
        case "mention": type = .mention
        case "hashtag": type = .hashtag
        case "cashtag": type = .cashtag
        case "botCommand": type = .botCommand
        case "phoneNumber": type = .phoneNumber
        case "bankCard": type = .bankCard
        case "blockquote": type = .blockQuote(isCollapsed: false)
        case "textMention": type = .textMention(peerId: .user(line.userId ?? 0))
        case "customEmoji": type = .customEmoji(fileId: line.userId ?? 0)
        default: return nil
        }
        let start = Int(line.offset)
        return MessageTextEntity(range: start..<(start + Int(line.length)), type: type)
    }

    static func line(_ entity: MessageTextEntity) -> MessageLine.EntityLine {
        var line = MessageLine.EntityLine(
            type: "", offset: Int32(clamping: entity.range.lowerBound), length: Int32(clamping: entity.range.count))
        switch entity.type {
        case .bold: line.type = "bold"
        case .italic: line.type = "italic"
        case .underline: line.type = "underline"
        case .strikethrough: line.type = "strikethrough"
        case .spoiler: line.type = "spoiler"
        case .code: line.type = "code"
        case .pre(let language): (line.type, line.language) = ("pre", language)
        case .url: line.type = "url"
        case .textUrl(let url): (line.type, line.url) = ("textUrl", url)
        case .email: line.type = "email"
        case .mention: line.type = "mention"
        case .hashtag: line.type = "hashtag"
        case .cashtag: line.type = "cashtag"
        case .botCommand: line.type = "botCommand"
        case .phoneNumber: line.type = "phoneNumber"
        case .bankCard: line.type = "bankCard"
        case .blockQuote: line.type = "blockquote"
        case .textMention(let peerId): (line.type, line.userId) = ("textMention", peerId.id.rawValue)
        case .customEmoji(let fileId): (line.type, line.userId) = ("customEmoji", fileId)
        case .unknown: line.type = "unknown"
        }
        return line
    }

    /// The stand-in peer for a chat or author a line names: a user ("user N") or a basic group ("chat N").
    static func peer(_ peerId: PeerId) -> Peer {
        if peerId.namespace == Namespaces.Peer.cloudGroup {
            return TelegramGroup(
                id: peerId, title: "chat \(peerId.id.rawValue)", participantCount: 0, membership: .member,
                creationDate: 0, version: 0)
        }
        return TelegramUser(
            id: peerId, accessHash: nil, firstName: "user \(peerId.id.rawValue)", lastName: nil, username: nil,
            phone: nil)
    }
}
