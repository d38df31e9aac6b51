import ValueBox

/// Table 90 (int64 keys, ours — Telegram-iOS has no such table): the `ExternalChanges` summary of each recent write
/// transaction under its transaction-state version, so another process can refresh only the views a write affected.
/// Only the newest `retained` versions are kept.
final class ChangeLogTable: Table {
    /// Versions kept; a process that falls further behind reloads every view.
    static let retained: Int64 = 1024

    func append(_ version: Int64, _ changes: ExternalChanges) throws {
        try valueBox.set(table, key: ValueBoxKey(int64: version), value: changes.encode())
        if version % 256 == 0 && version > Self.retained {
            try valueBox.removeRange(
                table, start: ValueBoxKey(int64: 0), end: ValueBoxKey(int64: version - Self.retained))
        }
    }

    /// The union of the changes of versions `after + 1 ... upTo`; "everything" when any of them is missing.
    func changes(after: Int64, upTo: Int64) throws -> ExternalChanges {
        guard after >= 0, upTo > after, upTo - after <= Self.retained else { return ExternalChanges(everything: true) }
        var result = ExternalChanges()
        var expected = after + 1
        try valueBox.range(
            table, start: ValueBoxKey(int64: after), end: ValueBoxKey(int64: upTo + 1)
        ) { key, value in
            guard key.getInt64(0) == expected else {
                result.everything = true
                return false
            }
            result.formUnion(ExternalChanges.decode(value))
            expected += 1
            return !result.everything
        }
        if expected != upTo + 1 { result.everything = true }
        return result
    }
}
