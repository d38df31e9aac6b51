public import SQLite

extension StoreTransaction {
    /// Stores a document's description.
    public func insert(_ document: DocumentRecord) throws(SQLiteError) {
        try run(
            """
            INSERT INTO documents (id, access_hash, owner, dc, date, mime, size, sha256, attributes, thumbs)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .integer(document.id), .integer(document.accessHash), .integer(document.owner),
                .integer(Int64(document.dc)),
                .integer(Int64(document.date)), .text(document.mime), .integer(document.size), .text(document.sha256),
                .optional(document.attributes), .optional(document.thumbs),
            ])
    }

    /// The document `id`.
    public func document(id: Int64) throws(SQLiteError) -> DocumentRecord? {
        try row(
            "SELECT id, access_hash, owner, dc, date, mime, size, sha256, attributes, thumbs FROM documents WHERE id = ?",
            [.integer(id)]
        ) {
            DocumentRecord(
                id: $0.int64(0), accessHash: $0.int64(1), owner: $0.int64(2),
                dc: Int32(truncatingIfNeeded: $0.int64(3)),
                date: Int32(truncatingIfNeeded: $0.int64(4)), mime: $0.text(5), size: $0.int64(6), sha256: $0.text(7),
                attributes: $0.optionalBytes(8), thumbs: $0.optionalBytes(9))
        }
    }

    /// Stores a photo and where its sizes' bytes are.
    public func insert(_ photo: PhotoRecord) throws(SQLiteError) {
        try run(
            "INSERT INTO photos (id, access_hash, owner, dc, date, sizes) VALUES (?, ?, ?, ?, ?, ?)",
            [
                .integer(photo.id), .integer(photo.accessHash), .integer(photo.owner), .integer(Int64(photo.dc)),
                .integer(Int64(photo.date)), .blob(photo.sizes),
            ])
        for (type, file) in photo.files {
            try run(
                "INSERT INTO photo_files (photo_id, type, sha256, size) VALUES (?, ?, ?, ?)",
                [.integer(photo.id), .text(type), .text(file.sha256), .integer(file.size)])
        }
    }

    /// The photo `id`.
    public func photo(id: Int64) throws(SQLiteError) -> PhotoRecord? {
        guard
            var photo = try row(
                "SELECT id, access_hash, owner, dc, date, sizes FROM photos WHERE id = ?", [.integer(id)],
                {
                    PhotoRecord(
                        id: $0.int64(0), accessHash: $0.int64(1), owner: $0.int64(2),
                        dc: Int32(truncatingIfNeeded: $0.int64(3)),
                        date: Int32(truncatingIfNeeded: $0.int64(4)), sizes: $0.bytes(5), files: [:])
                })
        else { return nil }
        for (type, sha256, size) in try rows(
            "SELECT type, sha256, size FROM photo_files WHERE photo_id = ?", [.integer(id)],
            {
                ($0.text(0), $0.text(1), $0.int64(2))
            })
        {
            photo.files[type] = (sha256, size)
        }
        return photo
    }
}

extension StoreTransaction {
    /// When `userId` installed sticker set `setId`, if they did.
    public func installedDate(userId: Int64, setId: Int64) throws(SQLiteError) -> Int32? {
        try integer(
            "SELECT date FROM installed_sticker_sets WHERE user_id = ? AND set_id = ?",
            [.integer(userId), .integer(setId)]
        )
        .map { Int32(truncatingIfNeeded: $0) }
    }

    /// Installs (or, with `date` nil, uninstalls) a sticker set for `userId`; returns whether anything changed.
    @discardableResult
    public func setInstalled(userId: Int64, setId: Int64, date: Int32?) throws(SQLiteError) -> Bool {
        if let date {
            return try run(
                "INSERT OR IGNORE INTO installed_sticker_sets (user_id, set_id, date) VALUES (?, ?, ?)",
                [.integer(userId), .integer(setId), .integer(Int64(date))]) > 0
        }
        return try run(
            "DELETE FROM installed_sticker_sets WHERE user_id = ? AND set_id = ?", [.integer(userId), .integer(setId)])
            > 0
    }
}
