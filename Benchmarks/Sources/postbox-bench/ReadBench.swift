import BenchmarkSupport
import Foundation
import Postbox
import PostboxBenchData

/// Reads over 100,000 stored messages: 10,000 point gets by id (Postbox against raw SQLCipher's prepared index and
/// record lookups, and against GRDB's `fetchOne(key:)`), and 50 messages around each of 1,000 anchors (against GRDB's
/// two indexed queries split as `messagesAround` splits them). Each side returns a checksum of the messages it found
/// (chat, id, text length), so a side that found fewer or other messages stops the benchmark.
enum ReadBench {
    static func run(
        root: String, messages: [BenchMessage], storeMessages: [StoreMessage], rows: [RawSQLCipher.Row],
        grdb: GRDBSide?
    ) throws -> (raw: [Comparison], grdb: [Comparison]) {
        let postbox = try Postbox.open(
            accountPath: root + "/reads", encryption: PostboxBench.key, cacheSizeKiB: PostboxBench.cacheKiB)
        try postbox.transactionSync { try $0.addMessages(storeMessages) }
        try FileManager.default.createDirectory(atPath: root + "/reads-raw", withIntermediateDirectories: true)
        let raw = RawSQLCipher(
            path: root + "/reads-raw/db_sqlite", keyHex: PostboxBench.keyHex, cacheSizeKiB: PostboxBench.cacheKiB)
        raw.insert(rows)
        if let grdb {
            let loaded = grdb.run("load", ["count": messages.count]).output
            let ours = PostboxBench.rowCounts(postbox, encrypted: true)
            guard loaded == ours else { BenchmarkMethod.differentWork("reads: data set", ours: ours, peer: loaded) }
        }

        let picks = BenchData.picks(messages)
        let pickIds = picks.map { PostboxBench.messageId(peer: $0.peer, id: $0.id) }
        func add(_ message: Message, to found: inout FoundChecksum) {
            found.add(peer: message.id.peerId.id.rawValue, id: message.id.id, textLength: message.text.utf8.count)
        }
        let ourGet = {
            try! postbox.readTransactionSync { tx in
                var found = FoundChecksum()
                for id in pickIds { if let message = try tx.getMessage(id) { add(message, to: &found) } }
                return found.text
            }
        }
        let rawGet = {
            raw.exec("BEGIN")
            defer { raw.exec("COMMIT") }
            var found = FoundChecksum()
            for pick in picks {
                if let length = raw.get(peer: pick.peer, id: pick.id) {
                    found.add(peer: pick.peer, id: pick.id, textLength: length)
                }
            }
            return found.text
        }
        let items = Double(picks.count)
        let getRaw = compareInterleaved(
            "point get by id (index + record + author)", items: items, unit: "get", ours: ourGet, peer: rawGet)

        let anchors = Array(pickIds.prefix(1000))
        let ourRange = {
            try! postbox.readTransactionSync { tx in
                var found = FoundChecksum()
                for id in anchors {
                    let index = try tx.messageIndex(id)!
                    for message in try tx.messagesAround(peerId: id.peerId, anchor: index, count: 50) {
                        add(message, to: &found)
                    }
                }
                return found.text
            }
        }
        guard let grdb else { return ([getRaw], []) }
        let getGRDB = compareInterleaved(
            "point get by id", items: items, unit: "get", oursTimed: { timedRun(ourGet) },
            peerTimed: { grdb.run("get") })
        let range = compareInterleaved(
            "50 messages around an anchor", items: Double(anchors.count), unit: "range",
            oursTimed: { timedRun(ourRange) }, peerTimed: { grdb.run("range") })
        return ([getRaw], [getGRDB, range])
    }
}
