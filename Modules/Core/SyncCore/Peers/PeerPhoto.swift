public import Postbox

/// The profile or chat photo a stored peer shows: its sizes (the small one first, with the stripped thumbnail) and
/// the photo's id; empty and `nil` for a peer without one (or a kind that has none, such as a secret chat).
public func peerPhoto(of peer: any Peer) -> (representations: [TelegramMediaImageRepresentation], photoId: Int64?) {
    let representations: [TelegramMediaImageRepresentation]
    switch peer {
    case let user as TelegramUser: representations = user.photo
    case let channel as TelegramChannel: representations = channel.photo
    case let group as TelegramGroup: representations = group.photo
    default: return ([], nil)
    }
    for representation in representations {
        if case .cloudPeerPhoto(_, _, let photoId, _) = representation.resource { return (representations, photoId) }
    }
    return (representations, nil)
}
