public import MediaBox
public import SyncCore

extension MediaFetcher {
    /// Fetches the bytes of `range` of `resource` (a file of `size` bytes) into MediaBox's partial file: the
    /// `FetchPlan` windows covering it that are not stored yet (512 KB by default, so every `upload.getFile` call keeps
    /// the offset and limit rules), `parallelParts` at a time; returns the resource's status afterwards.
    ///
    /// This is the streaming read: a decoder that says which bytes it needs next (`VideoError.needsBytes`) gets those
    /// first — a video's header, its index wherever the file keeps it, its first frames — instead of the file from
    /// its first byte to its last (Telegram-iOS fetches a resource's ranges in the order its player asks for them:
    /// `submodules/Postbox/Sources/MediaBoxFile.swift`, `MediaBoxPartialFile`'s missing ranges). Writes to the
    /// resource must not overlap a `fetch` of the same resource through another fetcher (MediaBox's rule: one writer
    /// per resource).
    public func fetchRange(
        _ resource: TelegramMediaResource, size: Int64, range: Range<Int64>
    ) async throws(FetchError) -> MediaResourceStatus {
        let id = resource.id
        let plan = FetchPlan(size: size, partSize: partSize)
        var windows = plan.missingWindows(covering: range, have: mediaBox.rangeMap(id))[...]
        guard !windows.isEmpty else { return mediaBox.resourceStatus(id, size: size) }
        let (location, dc) = try location(of: resource)
        var status = mediaBox.resourceStatus(id, size: size)
        do {
            try await withThrowingTaskGroup(of: (Int64, [UInt8]).self) { group in
                for _ in 0..<parallelParts {
                    guard let window = windows.popFirst() else { break }
                    group.addTask { (window.lowerBound, try await self.part(window, of: location, dc: dc)) }
                }
                while let (offset, bytes) = try await group.next() {
                    // A window short of the file's end: the size the message gave was wrong.
                    let expected = min(Int64(partSize), size - offset)
                    guard Int64(bytes.count) >= expected else {
                        throw FetchError.storage(
                            "\(id): the server's file is shorter than the \(size) bytes the message says")
                    }
                    status = try mediaBox.writePartial(
                        id, offset: offset, data: Array(bytes.prefix(Int(expected))), size: size)
                    if let window = windows.popFirst() {
                        group.addTask { (window.lowerBound, try await self.part(window, of: location, dc: dc)) }
                    }
                }
            }
        } catch {
            throw Self.fetchError(error, id: id)
        }
        return status
    }
}
