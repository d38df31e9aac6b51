public import SyncCore
public import TelegramCore

/// A sticker named as `<set>/<n>`: the set's short name and the sticker's place in it, counted from 1.
public struct StickerChoice: Equatable, Sendable {
    public var set: String
    public var number: Int

    /// Reads `<set>/<n>`; `nil` when it is not that.
    public init?(_ text: String) {
        guard let slash = text.lastIndex(of: "/") else { return nil }
        let set = String(text[..<slash])
        guard !set.isEmpty, let number = Int(text[text.index(after: slash)...]), number >= 1 else { return nil }
        self.set = set
        self.number = number
    }

    /// The sticker's document, from the server's set (`messages.getStickerSet`).
    public func file(account: Account) async throws(ClientError) -> TelegramMediaFile {
        let pack: StickerPack
        do {
            pack = try await StickerPacks.fetch(.name(set), network: account.network)
        } catch .notFound {
            throw .notFound("no sticker set '\(set)' on this server — check its short name")
        } catch {
            throw .unreachable("fetching sticker set '\(set)': \(error)")
        }
        guard number <= pack.files.count else {
            throw .badInput("sticker set '\(set)' has \(pack.files.count) stickers, not \(number)")
        }
        return pack.files[number - 1]
    }
}
