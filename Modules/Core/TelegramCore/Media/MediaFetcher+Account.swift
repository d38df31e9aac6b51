import Postbox
import SyncCore
import TelegramApi

extension MediaFetcher {
    /// A fetcher over the account's network into its MediaBox that can also fetch profile and chat photos: a
    /// `cloudPeerPhoto`'s peer is the stored user, channel or basic group of that id whose photo it is, named as
    /// the account names it (`apiInputPeer`: the user's or channel's access hash). A download's task prefers the
    /// account's executor (`AccountScheduling.taskExecutor`).
    public convenience init(account: Account, parallelParts: Int = 4, partSize: Int = FetchPlan.defaultPartSize) {
        let postbox = account.postbox
        let accountPeerId = account.peerId
        self.init(
            network: account.network, mediaBox: postbox.mediaBox, parallelParts: parallelParts, partSize: partSize,
            inputPeer: { rawId, photoId in
                try? postbox.readTransactionSync { tx -> Api.InputPeer? in
                    for candidate in [PeerId.user(rawId), .channel(rawId), .group(rawId)] {
                        guard let peer = try tx.getPeer(candidate), peerPhoto(of: peer).photoId == photoId else {
                            continue
                        }
                        return try apiInputPeer(candidate, accountPeerId: accountPeerId, transaction: tx)
                    }
                    return nil
                } ?? nil
            }, taskExecutor: account.taskExecutor)
    }
}
