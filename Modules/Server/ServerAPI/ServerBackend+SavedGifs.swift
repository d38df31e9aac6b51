import Hashing
import ServerStore
import TLRuntime
import TelegramApi

/// Saved GIFs (core.telegram.org methods `messages.saveGif`, `messages.getSavedGifs`; update `updateSavedGifs`): each
/// account's list of animations, the latest saved first, at most `savedGifsLimit` (Telegram's `saved_gifs_limit`
/// for an account without Premium: the oldest go past it).
extension ServerBackend {
    /// The most GIFs an account keeps (`help.getAppConfig` `saved_gifs_limit_default`).
    static let savedGifsLimit = 200

    /// `messages.saveGif`: puts an animation (a document with `documentAttributeAnimated`) at the front of the
    /// caller's list, or (`unsave`) takes it out; `GIF_ID_INVALID` for anything else. The account's other sessions
    /// get `updateSavedGifs` (they fetch the list again).
    func saveGif(_ call: Api.functions.messages.saveGif, caller: Caller) throws -> [UInt8] {
        guard case .inputDocument(let input) = call.id,
            let document = try store.read({ tx in try tx.document(id: input.id) }),
            document.accessHash == input.accessHash
        else { throw APIError.badRequest("GIF_ID_INVALID") }
        try checkFileReference(input.fileReference, .document, document.id)
        guard case .document(let fields) = apiDocument(document),
            fields.attributes.contains(where: {
                if case .documentAttributeAnimated = $0 { return true }
                return false
            })
        else { throw APIError.badRequest("GIF_ID_INVALID") }
        let date = now
        _ = try store.write(
            { [self] tx throws -> [Push] in
                if call.unsave {
                    guard try tx.unsaveGif(owner: caller.userId, documentId: document.id) else { return [] }
                } else {
                    try tx.saveGif(owner: caller.userId, documentId: document.id, limit: Self.savedGifsLimit)
                }
                return [
                    Push(
                        authKeyIds: try authKeys(of: caller.userId, tx: tx),
                        updates: .updateShort(.init(update: .updateSavedGifs, date: date)))
                ]
            }, then: { [self] in send($0, caller: caller) })
        return Reply.bool(true)
    }

    /// `messages.getSavedGifs`: the caller's GIFs, latest first, or `savedGifsNotModified` when `hash` is the list's
    /// hash (`savedGifsHash`).
    func getSavedGifs(_ call: Api.functions.messages.getSavedGifs, caller: Caller) throws -> Api.messages.SavedGifs {
        let documents = try store.read { tx in
            try tx.savedGifs(owner: caller.userId, limit: Self.savedGifsLimit).compactMap { try tx.document(id: $0) }
        }
        let hash = Self.savedGifsHash(documents.map(\.id))
        if call.hash != 0 && call.hash == hash { return .savedGifsNotModified }
        return .savedGifs(.init(hash: hash, gifs: documents.map(apiDocument)))
    }

    /// The list's hash as Telegram-iOS computes it for `getSavedGifs` (`ManagedRecentStickers.swift`,
    /// `managedRecentMedia`): `PaginationHash` over the document ids in the list's order.
    static func savedGifsHash(_ ids: [Int64]) -> Int64 {
        var hash = PaginationHash()
        for id in ids { hash.combine(id) }
        return hash.value
    }
}
