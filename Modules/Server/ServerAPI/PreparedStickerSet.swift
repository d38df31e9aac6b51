import Synchronization

/// The server's own sticker set once `ServerBackend.prepareStickerSet` stored it (none before: the set is not served).
final class PreparedStickerSet: Sendable {
    private let prepared = Mutex<ServerBackend.StickerSet?>(nil)

    /// The set, if it was prepared.
    var set: ServerBackend.StickerSet? { prepared.withLock { $0 } }

    /// Serves `set` from now on.
    func prepare(_ set: ServerBackend.StickerSet) {
        prepared.withLock { $0 = set }
    }
}
