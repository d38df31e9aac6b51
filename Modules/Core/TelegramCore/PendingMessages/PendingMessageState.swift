/// Where an unsent message is on its way to the server (Telegram-iOS `PendingMessageState`: collecting info, waiting
/// for the upload to start, uploading, sending), for a UI's progress and "sending…" marks. A message the manager is
/// not working on right now (queued behind an earlier one in its chat, or failed) has no state.
public enum PendingMessageState: Equatable, Sendable {
    /// Its row, its chat's input peer and its album are being read.
    case collectingInfo
    /// Its media is local and its upload has not started.
    case waitingForUpload
    /// Its media is going up; the fraction of the bytes the server acknowledged.
    case uploading(progress: Double)
    /// The request carrying it is on its way.
    case sending
}
