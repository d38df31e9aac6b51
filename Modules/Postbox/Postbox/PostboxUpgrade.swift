import ValueBox

/// One schema upgrade step `PostboxUpgrade_<from>to<to>` run inside the opening transaction, reporting progress
/// from 0 to 1 (Telegram-iOS Postbox schema version and upgrades).
struct PostboxUpgrade {
    let from: Int32
    let to: Int32
    let name: String
    let run: (Transaction, (Float) -> Void) throws -> Void
}

enum PostboxSchema {
    /// The schema version this build writes.
    static let currentVersion: Int32 = 6

    /// Every upgrade, in order; each one's `to` is the next one's `from`.
    static var upgrades: [PostboxUpgrade] {
        [
            PostboxUpgrade(from: 1, to: 2, name: "PostboxUpgrade_1to2", run: leftToTheTextIndexRebuild),
            PostboxUpgrade(from: 2, to: 3, name: "PostboxUpgrade_2to3", run: upgrade2to3),
            PostboxUpgrade(from: 3, to: 4, name: "PostboxUpgrade_3to4", run: leftToTheTextIndexRebuild),
            PostboxUpgrade(from: 4, to: 5, name: "PostboxUpgrade_4to5", run: leftToTheTextIndexRebuild),
            PostboxUpgrade(from: 5, to: 6, name: "PostboxUpgrade_5to6", run: rebuildTextIndex),
        ]
    }

    /// Version 1 had no full-text index (1→2 built one), version 3 let FTS5 number the text rows (3→4 renumbered
    /// them) and version 4 indexed each row's item id (4→5 rebuilt the table without). Nothing to do in these steps
    /// any more: the 5→6 step builds the index for every stored message afresh (doing it here too would index
    /// everything twice).
    static func leftToTheTextIndexRebuild(_ transaction: Transaction, _ progress: (Float) -> Void) throws {
        progress(1)
    }

    /// Indexes the text of every stored message afresh in a table with this build's columns, each row under its
    /// record's rowid in the history table (version 1 had no text index; versions 2 and 3 let FTS5 number the rows,
    /// so a search read each hit's item id and went through the id index; up to version 4 FTS5 indexed each item id,
    /// a term per message; up to version 5 the table kept a copy of every text and item id).
    static func rebuildTextIndex(_ transaction: Transaction, _ progress: (Float) -> Void) throws {
        let tables = transaction.tables
        let total = max(1, try tables.valueBox.count(tables.history.table))
        var done = 0
        try tables.textIndex.drop()
        var failure: Error?
        try tables.valueBox.scanWithRowIds(tables.history.table) { rowId, key, value in
            do {
                let record = try tables.history.decode(value, MessageHistoryTable.index(key))
                try tables.textIndex.add(record.id, historyRowId: rowId, text: record.text, tags: record.tags)
            } catch {
                failure = error
                return false
            }
            done += 1
            if done % 1000 == 0 { progress(Float(done) / Float(total)) }
            return true
        }
        if let failure { throw failure }
        progress(1)
    }

    /// Version 2 had no global message id index: index every stored message of the namespaces the Postbox was
    /// opened with.
    static func upgrade2to3(_ transaction: Transaction, _ progress: (Float) -> Void) throws {
        let tables = transaction.tables
        guard !tables.globalMessageIds.namespaces.isEmpty else {
            progress(1)
            return
        }
        let total = max(1, try tables.valueBox.count(tables.messageIndex.table))
        var ids: [MessageId] = []
        try tables.valueBox.scan(tables.messageIndex.table) { key, _ in
            ids.append(Keys.messageIdFromKey(key))
            return true
        }
        for (done, id) in ids.enumerated() {
            try tables.globalMessageIds.add(id)
            if (done + 1) % 1000 == 0 { progress(Float(done + 1) / Float(total)) }
        }
        progress(1)
    }
}
